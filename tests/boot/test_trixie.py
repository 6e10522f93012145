"""A multi-profile UKI as systemd's own tools make it today (Debian trixie,
systemd 257: ukify joins a profile built with the addon stub onto a UKI of
systemd-stub; tests/boot/fetch-trixie.sh), booted from handoff's menu and
from trixie's systemd-boot, with loader.conf's default naming the profile's
entry ("u.efi@rescue", as systemd-boot names it). Both boots must give the
same result: Linux sees the profile's command line, systemd-stub reports
profile 1 (StubProfile) and names itself (StubInfo), LoaderEntrySelected is
the profile's entry, PCR 11 is that profile's sections as measured.py
computes them, and PCR 12 is the same under both loaders."""
import os
import subprocess

import measured
from harness import case, esp, qemu
from harness.paths import CACHE, INITRD, KERNEL, LOADER, root_path

TIMEOUT = 300
TRIXIE = CACHE + "/trixie"
UKIFY, SDSTUB, ADDON, SDBOOT = (TRIXIE + "/" + f for f in ("ukify", "linuxx64.efi.stub", "addonx64.efi.stub",
                                                           "systemd-bootx64.efi"))
BASE = "console=ttyS0 handoff.marker=trixie-main panic=-1"
RESCUE = "console=ttyS0 handoff.marker=trixie-rescue panic=-1"
OSREL = 'PRETTY_NAME="Trixie profiles"\nID=trixieprof\n'


def ukify(*args):
    # /usr/bin/python3: Debian's python3-pefile, not another interpreter on PATH
    p = subprocess.run(["/usr/bin/python3", root_path(UKIFY), "build", *args], capture_output=True, text=True)
    assert p.returncode == 0, "ukify %s: %s" % (" ".join(args), p.stderr[-2000:])


def trixie_uki():
    wd = case.workdir()
    prof, uki, osrel = (os.path.join(wd, f) for f in ("rescue.efi", "u.efi", "os-release"))
    with open(osrel, "w") as f:
        f.write(OSREL)
    ukify("--stub", root_path(ADDON), "--profile", 'ID=rescue\nTITLE="Rescue shell"', "--cmdline", RESCUE,
          "--output", prof)
    ukify("--stub", root_path(SDSTUB), "--linux", root_path(KERNEL), "--initrd", root_path(INITRD),
          "--cmdline", BASE, "--os-release", "@" + osrel, "--join-profile", prof, "--output", uki)
    return open(uki, "rb").read()


def boot_with(loader, data):
    img = esp.image(esp.tree({"EFI/BOOT/BOOTX64.EFI": root_path(loader), "EFI/Linux/u.efi": data,
                              "loader/loader.conf": b"timeout 0\ndefault u.efi@rescue\n"}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, RESCUE)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    who = os.path.basename(loader)
    qemu.expect_eq(v.get("StubProfile"), measured.utf16z("1"), "%s: StubProfile (systemd-stub booted profile 1)" % who,
                   res)
    qemu.expect_in("systemd-stub 257", v.get("StubInfo", b"").decode("utf-16-le"), "%s: StubInfo" % who, res)
    qemu.expect_eq(v.get("LoaderEntrySelected", b"").decode("utf-16-le").rstrip("\0"), "u.efi@rescue",
                   "%s: LoaderEntrySelected" % who, res)
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("11"), measured.uki_pcr11(data, "sha256", 1).hex().upper(),
                   "%s: PCR 11 = profile 1's sections" % who, res)
    return pcrs


@case.needs(LOADER, KERNEL, INITRD, UKIFY, SDSTUB, ADDON, SDBOOT)
def test_trixie_profile_uki_from_handoff_as_from_systemd_boot():
    data = trixie_uki()
    ours = boot_with(LOADER, data)
    theirs = boot_with(SDBOOT, data)
    for pcr in ("11", "12"):
        assert ours.get(pcr) == theirs.get(pcr), "PCR %s: handoff %s, systemd-boot 257 %s" % (
            pcr, ours.get(pcr), theirs.get(pcr))
