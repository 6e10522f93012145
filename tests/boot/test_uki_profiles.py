"""Multi-profile UKIs from handoff's menu (UAPI.5; systemd-boot(7),
systemd-stub(7)): a UKI of handoff's stub with two profiles in \\EFI\\Linux
gives two entries, titled as systemd-boot titles them; the one chosen with its
number key boots with its own .cmdline, which Linux reports in /proc/cmdline.
The loader passes "@N" as systemd-boot does and the stub (on the loader's
direct path) takes that profile's sections: PCR 11 is what `inspect --pcrs`
predicts for it (measured.py computes the same), profile 1 is measured into
PCR 12 as systemd-stub's tagged event, and the stub sets StubProfile and
LoaderEntrySelected names the entry with "@ID"."""
import hashlib
import os

import measured
from harness import case, esp, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL
from measured_boot import eventlog

TIMEOUT = 300
LINES = ("console=ttyS0 handoff.marker=profile-0 panic=-1", "console=ttyS0 handoff.marker=profile-1 panic=-1")
TITLES = (r"Profiled \(Main system\)", r"Profiled \(Rescue shell\)")
DIRECT = r"a UKI of handoff's stub: its sections boot from the buffer read"
EV_EVENT_TAG = 0x6
UKI_PROFILE_EVENT_TAG = 0x13AED6DB


def inspect_pcr11(uki, profile):
    out = tool.handoff("inspect", "--pcrs", "--phases", "ready", uki).stdout
    block = out.split(f"# profile {profile} (")[1]
    return block.split("# PCR 11 after the stub\n11:sha256=")[1].split("\n")[0]


def boot_profile(profile):
    wd = case.workdir()
    uki = tool.uki(os.path.join(wd, "p.efi"), KERNEL, INITRD, LINES[0], 'PRETTY_NAME="Profiled"\nID=prof\n',
                   extra=("--profile", 'ID=main\nTITLE="Main system"', "--profile", 'ID=rescue\nTITLE="Rescue shell"',
                          "--profile-cmdline", LINES[1]))
    data = open(uki, "rb").read()
    img = esp.image(esp.loader_tree({}, "timeout 10\n", {"EFI/Linux/p.efi": data}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True, keys=[(TITLES[1], str(profile + 1).encode())])
    for t in TITLES:
        qemu.expect(res.time_of(t) is not None, "the menu lists %s" % t, res)
    init = qemu.expect_linux_saw(res, LINES[profile])
    qemu.expect(res.time_of(DIRECT) is not None, "handoff booted the UKI from its buffer", res)
    pcrs = init.get("pcr_sha256") or {}
    want = measured.uki_pcr11(data, "sha256", profile).hex()
    qemu.expect_eq(inspect_pcr11(uki, profile), want, "inspect --pcrs: profile %d as measured.py" % profile, res)
    qemu.expect_eq(pcrs.get("11"), want.upper(), "PCR 11 = profile %d's sections" % profile, res)
    events = measured.parse_event_log(eventlog(res) or b"")
    tagged = [e for e in events if e[0] == 12 and e[1] == EV_EVENT_TAG and
              e[3][:4] == UKI_PROFILE_EVENT_TAG.to_bytes(4, "little")]
    digest = hashlib.sha256(measured.utf16z(str(profile))).digest()
    qemu.expect_eq([e[2].get(measured.TPM_ALG_SHA256) for e in tagged], [digest] if profile else [],
                   "PCR 12: the profile's tagged event (none for profile 0)", res)
    qemu.expect_eq(measured.replay(events).get(12, measured.ZERO).hex().upper(), pcrs.get("12", "0" * 64),
                   "event log replays to PCR 12", res)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    qemu.expect_eq(v.get("StubProfile"), measured.utf16z(str(profile)), "StubProfile", res)
    qemu.expect_eq(v.get("LoaderEntrySelected", b"").decode("utf-16-le").rstrip("\0"),
                   ("p.efi", "p.efi@rescue")[profile], "LoaderEntrySelected", res)


case.each(globals(), boot_profile, {
    "test_uki_profile_0_from_the_menu": (0,),
    "test_uki_profile_1_from_the_menu": (1,),
}, needs=(TOOL, STUB, LOADER, KERNEL, INITRD))
