"""A UKI's companion files in handoff's stub, as systemd-stub hands them
(man systemd-stub, "Companion Files"): <UKI>.extra.d\\*.cred,
\\loader\\credentials\\*.cred, <UKI>.extra.d\\*.raw (system extensions, but not
*.confext.raw) and *.confext.raw, each kind one cpio archive in /.extra's
credentials/, global_credentials/, sysext/, confext/ (directories 0500, 0500,
0555, 0555; files 0400, 0400, 0444, 0444), in name order; each archive
measured whole into PCR 12, 12, 13, 12 (EV_IPL, systemd's descriptions), and
StubPcrKernelParameters, StubPcrInitRDSysExts and StubPcrInitRDConfExts set.
The same from a UKI started by the firmware and from handoff's menu, which
starts a UKI that has companion files rather than booting its sections from
its buffer (src/efi/uki_sidecars.c: the packing is the stub's alone). The archives the host
predicts here are written by this file's own newc writer, from the
kernel's buffer-format.rst and systemd-stub's pack_cpio() layout.
"""
import hashlib
import os

import measured
from harness import case, esp, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path
from measured_boot import eventlog

TIMEOUT = 300
OPTIONS = "console=ttyS0 handoff.marker=sidecars panic=-1"
DIRECT = r"a UKI of handoff's stub: its sections boot from the buffer read"
STARTED = r"has companion files: started, its stub takes them"
TRAILER = (b"070701" + b"00000000" * 4 + b"00000001" + b"00000000" * 6 + b"0000000B" + b"00000000"
           + b"TRAILER!!!\0\0\0\0")

OWN = {"b.cred": b"credential b\n", "a.cred": b"credential a", ".hidden.cred": b"hidden",
       "tools.sysext.raw": b"\x01" * 4097, "old.raw": b"old-style sysext",
       "etc.confext.raw": b"confext image", "notes.txt": b"not taken"}
GLOBAL = {"g.cred": b"global credential"}
# (target directory, directory mode, file mode, PCR, event description, files)
KINDS = [("credentials", 0o500, 0o400, 12, "Credentials initrd", ["a.cred", "b.cred"]),
         ("global_credentials", 0o500, 0o400, 12, "Global credentials initrd", ["g.cred"]),
         ("sysext", 0o555, 0o444, 13, "System extension initrd", ["old.raw", "tools.sysext.raw"]),
         ("confext", 0o555, 0o444, 12, "Configuration extension initrd", ["etc.confext.raw"])]


def _pad4(b):
    return b + b"\0" * (-len(b) % 4)


def newc(ino, mode, name, data=b""):
    fields = (ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name) + 1, 0)
    head = b"070701" + b"".join(b"%08x" % v for v in fields)
    return _pad4(head + name.encode() + b"\0") + _pad4(data)


def archive(target, dir_mode, file_mode, names, files):
    out = newc(1, 0o40555, ".extra") + newc(2, 0o40000 | dir_mode, ".extra/" + target)
    for i, n in enumerate(names):
        out += newc(3 + i, 0o100000 | file_mode, ".extra/%s/%s" % (target, n), files[n])
    return out + TRAILER


def expected():
    """(dot_extra as the initramfs reports it, PCR 12, PCR 13, PCR 12's event descriptions)."""
    dot, d12, d13, desc12 = {}, [], [], []
    for target, dmode, fmode, pcr, desc, names in KINDS:
        files = GLOBAL if target == "global_credentials" else OWN
        dot[target + "/"] = {"mode": "%o" % dmode}
        for n in names:
            dot["%s/%s" % (target, n)] = {"sha256": hashlib.sha256(files[n]).hexdigest(), "mode": "%o" % fmode}
        digest = hashlib.sha256(archive(target, dmode, fmode, names, files)).digest()
        (d13 if pcr == 13 else d12).append(digest)
        if pcr == 12:
            desc12.append(measured.utf16z(desc))
    return dot, measured.chain(d12).hex().upper(), measured.chain(d13).hex().upper(), desc12


def boot(from_menu):
    wd = case.workdir()
    uki = open(tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Sidecar UKI"'), "rb").read()
    path = "EFI/Linux/u.efi" if from_menu else "EFI/BOOT/BOOTX64.EFI"
    files = {path: uki}
    files.update({"%s.extra.d/%s" % (path, n): d for n, d in OWN.items()})
    files.update({"loader/credentials/" + n: d for n, d in GLOBAL.items()})
    files["loader/credentials/readme.txt"] = b"not a credential"
    if from_menu:
        img = esp.image(esp.loader_tree({}, "timeout 0\n", files, loader=root_path(LOADER)))
    else:
        img = esp.image(esp.tree(files))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, OPTIONS)
    qemu.expect(res.time_of(DIRECT) is None, "not booted from the loader's buffer", res)
    qemu.expect_eq(res.time_of(STARTED) is not None, from_menu, "the loader started it, saying why", res)
    dot, pcr12, pcr13, desc12 = expected()
    qemu.expect_eq(init.get("dot_extra"), dot, "/.extra: the companion files, modes as systemd-stub's", res)
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("12"), pcr12, "PCR 12 = the credentials', global credentials' and confext archives", res)
    qemu.expect_eq(pcrs.get("13"), pcr13, "PCR 13 = the sysext archive", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    qemu.expect_eq([e[3] for e in events if e[0] == 12 and e[1] == measured.EV_IPL], desc12,
                   "PCR 12's events, described as systemd-stub does", res)
    qemu.expect_eq([e[3] for e in events if e[0] == 13 and e[1] == measured.EV_IPL],
                   [measured.utf16z("System extension initrd")], "PCR 13's event", res)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    for name, pcr in (("StubPcrKernelParameters", "12"), ("StubPcrInitRDSysExts", "13"),
                      ("StubPcrInitRDConfExts", "12")):
        qemu.expect_eq(v.get(name), (pcr + "\0").encode("utf-16-le"), name, res)


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_sidecars_uki_started_by_firmware():
    """OVMF starts the UKI (\\EFI\\BOOT\\BOOTX64.EFI and its .extra.d)."""
    boot(from_menu=False)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_sidecars_uki_from_menu():
    """handoff's menu boots the same UKI's sections from its buffer: the same files and PCRs."""
    boot(from_menu=True)
