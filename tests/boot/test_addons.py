"""UKI addons (`handoff addon`, systemd-stub's *.addon.efi) in handoff's stub:
\\loader\\addons\\ for every UKI, then <UKI>.extra.d\\, each in name order; their
lines joined and appended to the UKI's .cmdline, measured into PCR 12 once
(EV_IPL, UTF-16 with NUL, as systemd-stub); each addon verified by the
firmware's LoadImage, so in PCR 4 by the firmware, and under Secure Boot
applied only when signed (an unsigned one is refused by name, the UKI still
boots). Checked on what Linux reports: its command line, PCR 12, the event log.
"""
import hashlib
import os

import measured
from harness import case, esp, firmware, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path
from measured_boot import eventlog
from test_secureboot import signed_loader

TIMEOUT = 300
OPTIONS = "console=ttyS0 handoff.marker=addons panic=-1"


def addon(name, line, sign=None):
    return open(tool.addon(os.path.join(case.workdir(), name), line, sign=sign), "rb").read()


def uki_esp(uki, addons, loader):
    files = {"EFI/Linux/u.efi": uki}
    files.update(addons)
    return esp.image(esp.loader_tree({}, "timeout 0\n", files, loader=loader))


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_addons_unsigned_appended_and_measured():
    """Secure Boot off, a TPM: a global addon and two of the UKI's own (and a
    file that is no addon) extend the sealed .cmdline in that order; PCR 12 is
    their joined line once, the event log says so, PCR 4 has each addon (the
    firmware's LoadImage), and StubPcrKernelParameters is set."""
    wd = case.workdir()
    uki = tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Addon UKI"')
    adds = {"loader/addons/g.addon.efi": addon("g.addon.efi", "handoff.addon=global"),
            "EFI/Linux/u.efi.extra.d/b.addon.efi": addon("b.addon.efi", "handoff.addon=b\n"),
            "EFI/Linux/u.efi.extra.d/a.addon.efi": addon("a.addon.efi", "handoff.addon=a"),
            "EFI/Linux/u.efi.extra.d/notes.txt": b"handoff.addon=no\n"}
    res = qemu.run_qemu(uki_esp(open(uki, "rb").read(), adds, root_path(LOADER)), TIMEOUT, tpm=True)
    line = "handoff.addon=global handoff.addon=a handoff.addon=b"
    init = qemu.expect_linux_saw(res, OPTIONS + " " + line)
    digest = hashlib.sha256(measured.utf16z(line)).digest()
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("12"), measured.chain([digest]).hex().upper(),
                   "PCR 12 = the addons' line once (the sealed .cmdline is not measured there)", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    ipl12 = [e[3] for e in events if e[0] == 12 and e[1] == measured.EV_IPL]
    qemu.expect_eq(ipl12, [measured.utf16z(line)], "PCR 12's one event describes the addons' line", res)
    apps = measured.pcr4_apps(events)
    for name, data in adds.items():
        if name.endswith(".efi"):
            qemu.expect_eq(apps.count(measured.authenticode_sha256(data)), 1, "PCR 4 has %s once" % name, res)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    qemu.expect_eq(v.get("StubPcrKernelParameters"), "12\0".encode("utf-16-le"), "StubPcrKernelParameters", res)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_addons_under_secure_boot_signed_only():
    """Secure Boot on (snakeoil db): a signed UKI with a signed and an
    unsigned addon: the signed one's line is appended, the unsigned one is
    refused by name and the UKI boots without it."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    uki = tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Signed addon UKI"', stub=None,
                   sign=(key, cert))
    adds = {"EFI/Linux/u.efi.extra.d/signed.addon.efi": addon("signed.addon.efi", "handoff.addon=signed",
                                                              sign=(key, cert)),
            "EFI/Linux/u.efi.extra.d/unsigned.addon.efi": addon("unsigned.addon.efi", "handoff.addon=unsigned")}
    res = qemu.run_qemu(uki_esp(open(uki, "rb").read(), adds, signed_loader()), TIMEOUT, secure_boot=True)
    init = qemu.expect_linux_saw(res, OPTIONS + " handoff.addon=signed")
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    qemu.expect(res.time_of(r"addon \\EFI\\Linux\\u\.efi\.extra\.d\\unsigned\.addon\.efi: refused by Secure Boot")
                is not None, "the unsigned addon is refused, by name", res)
