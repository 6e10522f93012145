"""What a measured boot must leave, checked in what Linux saw (HANDOFF-INIT and
the firmware's event log, HANDOFF-EVENTLOG): PCR 9 and 12 as measured.py
predicts them, the kernel's Authenticode digest once in PCR 4, and a log that
replays to the PCRs. Shared by the disk and the network boot tests."""
import base64

import measured
from harness import qemu
from harness.paths import INITRD, root_path


def eventlog(res):
    for _, line in res.lines:
        if line.startswith("HANDOFF-EVENTLOG "):
            return base64.b64decode(line.split(" ", 1)[1].strip())
    return None


def check_measurements(res, init, options, kernel, pcr4s):
    """PCR 9 and 12 as predicted, the kernel's Authenticode digest in PCR 4, the log replays."""
    pcrs = init.get("pcr_sha256")
    qemu.expect(isinstance(pcrs, dict), "Linux sees a TPM (pcr_sha256 in HANDOFF-INIT)", res)
    initrd = open(root_path(INITRD), "rb").read()
    qemu.expect_eq(pcrs.get("9"), measured.linux_stub_pcr9(options, initrd).hex().upper(),
                   "PCR 9 = Linux stub's LoadOptions + initrd measurements", res)
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(options).hex().upper(),
                   "PCR 12 = the entry's options as systemd-boot measures them", res)
    pcr4s.append(pcrs.get("4"))
    log = eventlog(res)
    qemu.expect(log is not None, "the kernel exposes the firmware's event log", res)
    events = measured.parse_event_log(log)
    replayed = measured.replay(events)
    for i in ("4", "9", "12"):
        qemu.expect_eq(replayed.get(int(i), measured.ZERO).hex().upper(), pcrs.get(i),
                       "event log replays to PCR %s" % i, res)
    qemu.expect_eq(measured.pcr4_apps(events).count(measured.authenticode_sha256(kernel)), 1,
                   "PCR 4 has the kernel's Authenticode digest once (EV_EFI_BOOT_SERVICES_APPLICATION)", res)
    tags = [e for e in events if e[0] == 9 and e[1] == measured.EV_EVENT_TAG]
    qemu.expect_eq(len(tags), 2, "PCR 9: two tagged events (LoadOptions, initrd)", res)
