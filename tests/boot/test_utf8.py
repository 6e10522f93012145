"""Issue 21: the command line the kernel gets is the one that was measured.

An options line holding the overlong NUL (C0 80) once decoded to an early end
of the UTF-16 line that PCR 9 and 12 measure, while handover and legacy handed
the kernel the raw bytes, so `options quiet\\xC0\\x80 init=/bin/evil` ran
/bin/evil behind a harmless measurement. Now such a line is malformed: the
loader names file, line and byte offset, skips it, and the kernel's own report
(HANDOFF-INIT) shows exactly the other options. A UKI whose .cmdline is not
UTF-8 does not boot at all: its stub refuses the line and the loader's menu
comes back. And text beyond ASCII and beyond U+FFFF is measured as real UTF-16
(a surrogate pair, never '?'), as the kernel's own stub decodes it.
"""
import os

import measured
from harness import case, esp, qemu, tool
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path

TIMEOUT = 240
EVIL = b"quiet\xc0\x80 init=/bin/evil"


def boot(tree, keys=()):
    return qemu.run_qemu(esp.image(tree), TIMEOUT, keys=keys)


def expect_no_evil(res, init):
    cmdline = init.get("cmdline") or ""
    qemu.expect("init=/bin/evil" not in cmdline and "quiet" not in cmdline,
                "the kernel never got the ill-formed line, got %r" % cmdline, res)


@case.needs(LOADER, KERNEL, INITRD)
def test_utf8_overlong_nul_options_line_skipped():
    """By handover, where the raw bytes once reached cmd_line_ptr; a good
    entry is there as the fallback default would be."""
    good = "console=ttyS0 handoff.marker=utf8-skipped panic=-1"
    evil = entry("Evil", good, "handover", sort_key="a1").encode() + b"options " + EVIL + b"\n"
    line = evil.split(b"\n").index(b"options " + EVIL) + 1
    tree = esp.loader_tree({"b-good.conf": entry("Good", "console=ttyS0 handoff.marker=fallback panic=-1",
                                                 sort_key="b2")},
                           "timeout 0\ndefault a-evil\n", files={"loader/entries/a-evil.conf": evil})
    res = boot(tree)
    msg = r"a-evil\.conf:%d: invalid UTF-8 at byte offset 13 \(0xc0\), ignored" % line
    qemu.expect(res.time_of(msg) is not None, "the loader names the entry file, line and byte offset", res)
    qemu.expect(res.time_of(r"booting 'Evil' by handover") is not None, "the entry boots without that line", res)
    init = qemu.expect_linux_saw(res, good)
    expect_no_evil(res, init)


def uki_with_cmdline(cmdline):
    """A UKI whose .cmdline is @cmdline (bytes), which `handoff uki` itself
    refuses: built with a placeholder of the same length, then patched."""
    placeholder = b"#" * len(cmdline)
    path = tool.uki(os.path.join(case.workdir(), "evil.efi"), KERNEL, INITRD, placeholder.decode(),
                    os_release='NAME="Evil"\nID=a-evil\nVERSION_ID=1\n')
    data = open(path, "rb").read()
    assert data.count(placeholder) == 1, "the .cmdline placeholder is not unique in the UKI"
    with open(path, "wb") as f:
        f.write(data.replace(placeholder, cmdline))
    return path


@case.needs(LOADER, TOOL, STUB, KERNEL, INITRD)
def test_utf8_uki_cmdline_refused_by_its_stub():
    """handoff-stub's chokepoint: the line is refused before anything boots,
    the loader's menu comes back with the reason, another entry boots."""
    good = "console=ttyS0 handoff.marker=utf8-after-uki panic=-1"
    uki = uki_with_cmdline(b"console=ttyS0 handoff.marker=utf8-uki " + EVIL)
    # sort keys: the UKI's ID, a-evil, before z: it is entry 1 and the default, Good is 2
    tree = esp.loader_tree({"z-good.conf": entry("Good", good, sort_key="z")}, "timeout 0\ndefault a-evil*\n",
                           files={"EFI/Linux/a-evil.efi": uki})
    refusal = r"command line: invalid UTF-8 at byte offset 43 \(0xc0\)"
    # a UKI of handoff's stub runs the stub's path on the loader's buffer (boot_uki.c): the menu names the cause
    res = boot(tree, keys=[(r"Problems: entry 'Evil \(1\)': " + refusal, b"2", 2.0)])
    qemu.expect(res.time_of(refusal) is not None, "the stub names the byte offset in its .cmdline", res)
    qemu.expect_eq(res.keys_pending, [], "the menu came back after the refusal", res)
    qemu.expect(res.time_of(r"booting 'Good'") is not None, "then the good entry boots", res)
    init = qemu.expect_linux_saw(res, good)
    expect_no_evil(res, init)


def measured_beyond_ascii(scheme):
    """With a TPM: the kernel reads the entry's UTF-8 (HANDOFF-INIT, whose
    serial text the harness reads as Latin-1), and PCR 9 and 12 hold the
    UTF-16 with a surrogate pair predicted from the same text. By stub the
    kernel's own stub measures and decodes the LoadOptions handoff built; by
    handover handoff measures and hands over the bytes."""
    options = "console=ttyS0 handoff.marker=utf8-%s handoff.name=caf\u00e9-\U0001f600 panic=-1" % scheme
    img = esp.image(esp.loader_tree({"debian.conf": entry("Debian", options, scheme)}, "timeout 0\n"))
    res = qemu.run_qemu(img, TIMEOUT, name=scheme, tpm=True)
    init = qemu.expect_linux_saw(res, options.encode("utf-8").decode("latin-1"))
    pcrs = init.get("pcr_sha256")
    qemu.expect(isinstance(pcrs, dict), "Linux sees a TPM (pcr_sha256 in HANDOFF-INIT)", res)
    initrd = open(root_path(INITRD), "rb").read()
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(options, initrd).hex().upper(),
                   "PCR 9 = the options in UTF-16 (a surrogate pair for U+1F600), then the initrd", res)
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(options).hex().upper(),
                   "PCR 12 = the options in UTF-16 as systemd-boot measures them", res)


case.each(globals(), measured_beyond_ascii,
          {"test_utf8_measured_beyond_ascii_" + s: (s,) for s in ("stub", "handover")},
          needs=(LOADER, KERNEL, INITRD))
