"""AArch64 Secure Boot and measured boot (issue 34), in one boot: QEMU's virt
machine with Debian's AAVMF and its snakeoil variable store (the snakeoil key
as PK, KEK and db: Secure Boot on) and a TPM 2.0 (swtpm) on tpm-tis-device.
handoffaa64.efi and a copy of Debian's arm64 kernel are signed with the
snakeoil key; an unsigned copy of the kernel is the bad entry.

The menu's first entry (unsigned) is refused by name with the reason, the
menu comes back, the second (signed) boots: Linux reports Secure Boot on, the
entry's command line and initrd, the kernel locked down.

Debian's arm64 kernel (6.1) has no driver for a TIS TPM (CONFIG_TCG_TIS is
off: no PCRs in sysfs, no event log in securityfs), so the PCRs are read from
swtpm after the run (qemu.Result.tpm_pcrs; QEMU is killed once Linux has
reported, since at a clean exit it shuts swtpm down) and compared with measured.py's
values, predicted from what was booted: PCR 4 the firmware's (AAVMF's two
events, then BOOTAA64.EFI and the signed kernel: never the refused one),
PCR 9 the kernel's EFI stub's (command line, initrd), PCR 12 handoff's (the
booted entry's options only: the refused entry's never measured).
"""
import os
import shutil
import subprocess

import measured
from test_aa64 import virt_dtb
from harness import case, esp, firmware, qemu
from harness.esp import entry
from harness.paths import ARM64, LOADERAA64, root_path

TIMEOUT = 300   # TCG: firmware and kernel take about a minute
MEMORY = 1024
MENU = r"handoff [0-9.]+ boot menu"


def signed(path, name):
    key, cert = firmware.snakeoil_key(case.workdir())
    return firmware.sbsign(root_path(path), os.path.join(case.workdir(), name), key, cert)


def unsigned_kernel():
    out = os.path.join(case.workdir(), "vmlinuz.unsigned")
    shutil.copyfile(root_path(ARM64[0]), out)
    subprocess.run(["sbattach", "--remove", out], check=True, capture_output=True)
    return open(out, "rb").read()


@case.needs(LOADERAA64, *ARM64)
def test_aa64_secureboot_refuses_unsigned_boots_signed_measured():
    """Secure Boot on AAVMF: the unsigned kernel refused and the menu back,
    the signed one booted; PCR 4, 9 and 12 as predicted."""
    loader = open(signed(LOADERAA64, "handoffaa64.signed.efi"), "rb").read()
    kernel = open(signed(ARM64[0], "vmlinuz.signed"), "rb").read()
    good = "console=ttyAMA0 handoff.marker=aa64-secureboot panic=-1"
    entries = {"a.conf": entry("Unsigned", "console=ttyAMA0 handoff.marker=unsigned", linux="/k/unsigned",
                               sort_key="a"),
               "a2.conf": entry("Devicetree", good + " handoff.marker=dt", sort_key="a2",
                                extra="devicetree /virt.dtb\n"),
               "b.conf": entry("Signed", good, sort_key="b")}
    files = {"k/unsigned": unsigned_kernel(), "debian/vmlinuz": kernel, "virt.dtb": virt_dtb()}
    tree = esp.loader_tree(entries, "timeout menu-force\n", files, loader=loader, arch="aa64", kernel=ARM64[0],
                           initrd=ARM64[1])
    res = qemu.run_qemu(esp.image(tree), TIMEOUT, firmware="aavmf", memory=MEMORY, secure_boot=True, tpm=True,
                        keys=[(MENU, b"1"), (r"Problems: [\s\S]*/k/unsigned: refused", b"2", 0.5),
                              (r"Problems: [\s\S]*/virt\.dtb: refused", b"3", 0.5)],
                        stop_on=r"HANDOFF-INIT ")  # killed: QEMU's clean exit would shut swtpm down
    qemu.expect_eq(res.keys_pending, [], "every menu key sent (the menu came back after each refusal)", res)
    qemu.expect(res.time_of(r"/virt\.dtb: refused by Secure Boot: a devicetree file is not verified") is not None,
                "an entry's devicetree file is refused under Secure Boot, by name", res)
    qemu.expect(res.time_of(r"booting 'Devicetree'") is None, "the devicetree entry did not boot", res)
    qemu.expect(res.time_of(r"/k/unsigned: refused by Secure Boot: not signed, and its hash is not in db "
                            r"\(EFI_(SECURITY_VIOLATION|ACCESS_DENIED): the platform policy forbids") is not None,
                "the refusal names the file, the reason and the firmware's status", res)
    qemu.expect(res.time_of(r"booting 'Signed' by stub .*to be verified by the firmware \(db/dbx\)") is not None,
                "handoff boots the signed entry by stub, verified by the firmware", res)
    init = qemu.expect_linux_saw(res, good, ARM64[1], fb=None)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)
    qemu.expect_eq(init.get("lockdown"), "integrity", "Debian's kernel locks itself down under Secure Boot", res)
    starts = [t for t, line in res.lines if "Linux version" in line]
    qemu.expect(len(starts) == 1 and starts[0] > res.time_of(r"/k/unsigned: refused"),
                "Linux started once, after the refusal: %r" % starts, res)

    qemu.expect(res.tpm_pcrs is not None, res.tpm_error, res)
    pcrs = res.tpm_pcrs
    initrd = open(root_path(ARM64[1]), "rb").read()
    qemu.expect_eq(pcrs.get(4), measured.firmware_pcr4([loader, kernel]).hex().upper(),
                   "PCR 4 = AAVMF's boot events, BOOTAA64.EFI, the signed kernel (not the refused one)", res)
    qemu.expect_eq(pcrs.get(9), measured.linux_stub_pcr9(good, initrd).hex().upper(),
                   "PCR 9 = the kernel's EFI stub's command line + initrd", res)
    qemu.expect_eq(pcrs.get(12), measured.options_pcr12(good).hex().upper(),
                   "PCR 12 = the booted entry's options only", res)
