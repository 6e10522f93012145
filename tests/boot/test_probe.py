"""The probe's own entry points that no UEFI loader uses: entered in real mode
(QEMU -kernel under SeaBIOS runs the setup code), the image says so on COM1
and exits QEMU instead of hanging. The matrix (test_matrix.py) covers the rest.
Also: an image a few bytes short of its syssize boots, one a paragraph short
is refused (boot.rst: syssize counts 16-byte paragraphs).
"""
import os
import struct

import test_matrix
from harness import case, esp, qemu
from harness.paths import LOADER, PROBE_BARE, root_path


@case.needs(PROBE_BARE)
def test_probe_real_mode_entry_reports_itself():
    res = qemu.run_qemu(None, 60, kernel=root_path(PROBE_BARE), append="console=ttyS0", firmware=None)
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line from the real-mode setup code", res)
    qemu.expect_eq(p.get("entry"), "real", "probe entry", res)
    qemu.expect_eq(p.get("errors"), ["real_mode_entry"], "probe errors", res)
    qemu.expect_eq(res.debug_exit, 1, "isa-debug-exit value (1: errors)", res)


def short_probe(shortfall):
    """The bare probe (no PE header) cut @shortfall bytes short of its syssize.
    Its protected-mode part is exactly syssize paragraphs and ends in zero
    padding, so the cut loses nothing but zeros, and its header stays as built
    (the probe checks the header it is handed against its own). A build that
    does not pad its file to a paragraph looks like this."""
    img = open(root_path(PROBE_BARE), "rb").read()
    setup = ((img[0x1f1] or 4) + 1) * 512
    qemu.expect_eq(len(img) - setup, struct.unpack_from("<I", img, 0x1f4)[0] * 16,
                   "the bare probe's kernel part is exactly syssize paragraphs")
    qemu.expect(not any(img[-shortfall:]), "the bytes cut are zero padding")
    path = os.path.join(case.workdir(), "probe-short%d.img" % shortfall)
    with open(path, "wb") as f:
        f.write(img[:len(img) - shortfall])
    return path


def short_probe_boots(protocol):
    """Up to 15 bytes short of syssize: accepted, the missing bytes zero (as
    GRUB, systemd-boot and the kernel's own loaders do)."""
    cell = "short-" + protocol
    cmdline = test_matrix.marker_cmdline(cell)
    initrd, size, sha = test_matrix.make_initrd(cell)
    res = test_matrix.run_handoff(cell, short_probe(8), cmdline, initrd, protocol)
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line: the image 8 bytes short of syssize did not start", res)
    qemu.expect_eq((p.get("cmdline"), p.get("initrd_sha256"), p.get("errors")), (cmdline, sha, []),
                   "what the probe saw (command line, initrd, errors)", res)


case.each(globals(), short_probe_boots,
          {"test_probe_short_of_syssize_boots_by_" + s: (s,) for s in ("handover", "legacy")},
          needs=(PROBE_BARE, LOADER))


@case.needs(PROBE_BARE, LOADER)
def test_probe_truncated_by_a_paragraph_is_refused():
    """16 bytes or more short of syssize is truncation: refused, named, and
    the probe never runs."""
    cell = "truncated"
    initrd, _, _ = test_matrix.make_initrd(cell)
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions x\nprotocol handover\n"
    tree = esp.tree({**esp.loader_files(), "probe.img": short_probe(16), "initrd.bin": initrd,
                     "loader/entries/probe.conf": conf.encode()})
    res = qemu.run_qemu(esp.image(tree), test_matrix.TIMEOUT, stop_on=r"handoff [0-9.]+ boot menu")
    bare = open(root_path(PROBE_BARE), "rb").read()
    kernel = struct.unpack_from("<I", bare, 0x1f4)[0] * 16   # syssize paragraphs, as the bare probe was built
    qemu.expect(res.time_of(r"/probe.img: truncated: syssize says %d bytes of kernel, file has %d"
                            % (kernel, kernel - 16)) is not None,
                "handoff names the file and the shortfall", res)
    qemu.expect(res.probe is None, "the truncated probe never ran", res)
