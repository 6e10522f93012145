"""A UKI of handoff's own stub from handoff's menu is not started: the loader
boots its sections from the buffer it read, by the stub's own path
(src/efi/boot_uki.c, src/efi/uki_run.c; issue 24). What the booted system sees
must be what it sees when OVMF starts the same UKI itself, with a TPM, Secure
Boot off and on: the same PCR 9 (Linux's stub: its command line and the initrd,
/.extra's archive included), PCR 11 and PCR 12 (values and every event's
description), and in PCR 4, after handoff's own event (from the menu handoff
itself is measured first, so PCR 4's value differs by it), the same events:
the UKI's Authenticode digest once, then its kernel's. Also the Stub*
variables and the /.extra files (the UKI has .pcrsig and .pcrpkey, so there
are two). (A systemd-stub UKI from the menu is still started: test_uki_memory.)
"""
import hashlib
import os

import measured
from harness import case, esp, firmware, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path
from test_secureboot import eventlog, signed_loader
from test_uki import pcr_keys

TIMEOUT = 300
OPTIONS = "console=ttyS0 handoff.marker=uki-direct panic=-1"
DIRECT = r"a UKI of handoff's stub: its sections boot from the buffer read"


def boot(data, from_menu, secure_boot):
    if from_menu:
        loader = signed_loader() if secure_boot else root_path(LOADER)
        img = esp.image(esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/u.efi": data}, loader=loader))
    else:
        img = esp.image(esp.tree({"EFI/BOOT/BOOTX64.EFI": data}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True, secure_boot=secure_boot)
    init = qemu.expect_linux_saw(res, OPTIONS)
    qemu.expect_eq(init.get("secureboot") == "1", secure_boot, "Linux's SecureBoot variable is 1", res)
    qemu.expect_eq(res.time_of(DIRECT) is not None, from_menu, "handoff booted the UKI from its buffer", res)
    events = measured.parse_event_log(eventlog(res) or b"")
    return res, init, events


def pcr4_from(events, uki_digest):
    """PCR 4's events from the UKI's own on: (type, SHA-256) (the event data
    holds the address the image was loaded at, which differs by design)."""
    apps = [(e[1], e[2].get(measured.TPM_ALG_SHA256)) for e in events if e[0] == 4]
    first = next((i for i, a in enumerate(apps) if a[1] == uki_digest), len(apps))
    return apps[first:]


def same_as_started(secure_boot):
    """The same UKI, from handoff's menu and started by OVMF: the same PCR 9,
    11 and 12 and their event descriptions, the same PCR 4 events from the
    UKI's on (the UKI once, then its kernel), the same Stub* variables and
    /.extra files."""
    wd = case.workdir()
    sign = firmware.snakeoil_key(wd) if secure_boot else None
    key, pub = pcr_keys(wd)
    uki = tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Direct UKI"', stub=None, sign=sign,
                   extra=("--pcr-private-key", key, "--pcr-public-key", pub))
    data = open(uki, "rb").read()
    digest = measured.authenticode_sha256(data)
    dot_extra = {name: {"sha256": hashlib.sha256(measured.section(data, section)).hexdigest(), "mode": "444"}
                 for name, section in (("tpm2-pcr-signature.json", ".pcrsig"),
                                       ("tpm2-pcr-public-key.pem", ".pcrpkey"))}
    seen = {}
    for from_menu in (False, True):
        res, init, events = boot(data, from_menu, secure_boot)
        pcrs = init.get("pcr_sha256") or {}
        qemu.expect_eq(pcrs.get("11"), measured.uki_pcr11(data).hex().upper(), "PCR 11 = the UKI's sections", res)
        replayed = measured.replay(events)
        for i in (4, 9, 11, 12):
            qemu.expect_eq(replayed.get(i, measured.ZERO).hex().upper(), pcrs.get(str(i)),
                           "event log replays to PCR %d" % i, res)
        qemu.expect(pcrs.get("9") not in (None, "0" * 64), "PCR 9 measured (Linux's stub): %r" % pcrs.get("9"), res)
        p4 = pcr4_from(events, digest)
        qemu.expect_eq([d for _, d in p4].count(digest), 1, "PCR 4 has the UKI's Authenticode digest once", res)
        bli = {k: v for k, v in init.get("bli_hex", {}).items() if k.startswith("Stub")}
        if not from_menu:
            qemu.expect_eq(init.get("dot_extra"), dot_extra, "/.extra: .pcrsig and .pcrpkey, mode 0444", res)
        seen[from_menu] = (res, {"/.extra files": init.get("dot_extra"), "PCR 9": pcrs.get("9"),
                                 "PCR 11": pcrs.get("11"), "PCR 12": pcrs.get("12"),
                                 "PCR 9 events": [(e[1], e[3]) for e in events if e[0] == 9],
                                 "PCR 11 events": [(e[1], e[3]) for e in events if e[0] == 11],
                                 "PCR 12 events": [(e[1], e[3]) for e in events if e[0] == 12],
                                 "PCR 4 from the UKI on": p4, "Stub* variables": bli})
    started, menu = seen[False][1], seen[True][1]
    for what in started:
        qemu.expect_eq(menu[what], started[what], "%s from handoff's menu as when OVMF starts the UKI" % what,
                       seen[True][0])


case.each(globals(), same_as_started, {
    "test_uki_from_menu_measured_as_started": (False,),
    "test_uki_from_menu_measured_as_started_secure_boot": (True,),
}, needs=(TOOL, STUB, LOADER, KERNEL, INITRD))
