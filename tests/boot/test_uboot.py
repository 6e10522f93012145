"""handoff.efi on U-Boot's UEFI (Debian's u-boot-qemu, 2023.01, qemu-x86_64):
Debian's kernel by each scheme, and what Linux needs there.

U-Boot starts \\EFI\\BOOT\\BOOTX64.EFI from the ESP of a GPT disk (made by
`handoff disk`). Linux boots there only with `disable_mtrr_trim efi=noruntime`
(docs/compatibility.md "U-Boot"): U-Boot's MTRRs leave all RAM uncached, so
Linux trims every byte of it (the same on every scheme: it is the MTRRs, not
the e820 table, handoff's on legacy or the kernel stub's), and U-Boot's
SetVirtualAddressMap reads its global data from memory the map gives to the
OS, which Linux's EFI page tables do not map. handoff names the missing
options before it boots; the tests without them assert exactly these
failures, so a U-Boot that fixes either shows up here.
"""
import os

from harness import case, disk, esp, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, TOOL

import test_loader

TIMEOUT = 240
NEEDED = "disable_mtrr_trim efi=noruntime"
WARNING = r"handoff: warning: (entry 'Debian': )?on U-Boot, Linux needs %s on its command line"
UBOOT_VENDOR = r"efi: EFI v[0-9.]+ by Das U-Boot"
# arch/x86/kernel/cpu/mtrr/cleanup.c mtrr_trim_uncached_memory()
MTRR_TRIM = r"WARNING: BIOS bug: CPU MTRRs don't cover all of memory, losing \d+MB of RAM"
# the oops's call trace: arch/x86/platform/efi/efi.c calling U-Boot's SetVirtualAddressMap
SVAM_FAULT = r"efi_set_virtual_address_map\+"
EARLY = "console=ttyS0 earlyprintk=serial,ttyS0 panic=-1"


def boot(options, protocol, stop_on=None):
    """Debian's kernel by @protocol from one entry with @options, on U-Boot."""
    tree = esp.loader_tree({"debian.conf": entry("Debian", options, protocol)}, "timeout 0\n")
    img = disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), tree)
    return qemu.run_qemu(img, TIMEOUT, firmware="uboot", stop_on=stop_on)


def scheme_test(protocol, want_scheme):
    """handoff boots Debian's kernel on U-Boot by the scheme the entry asks for
    (auto: the kernel's stub), with the options Linux needs there; the kernel
    reports U-Boot's system table, its own view of the scheme, the exact
    command line, the initrd, and no EFI runtime services (efivarfs empty).
    U-Boot's ACPI tables offer S0 only, so Linux cannot power off: the
    initramfs ends the run through isa-debug-exit (handoff.debug_exit=0)."""
    options = "console=ttyS0 %s handoff.marker=uboot-%s panic=-1 handoff.debug_exit=0" % (NEEDED, protocol)
    res = boot(options, protocol)
    init = qemu.expect_linux_saw(res, options, fb=None, runtime=False)
    qemu.expect(res.time_of(UBOOT_VENDOR) is not None, "the kernel names U-Boot as its EFI firmware", res)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % want_scheme) is not None,
                "handoff says it boots by %s" % want_scheme, res)
    qemu.expect(res.time_of(WARNING % ".*") is None, "no warning: the line has what Linux needs", res)
    test_loader.check_kernel_saw_scheme(res, init, want_scheme)
    qemu.expect_eq(init.get("fw_platform_size"), "64", "firmware word size (fw_platform_size)", res)
    qemu.expect_eq(res.debug_exit, 0, "isa-debug-exit value written by the initramfs", res)


case.each(globals(), scheme_test, {
    "test_uboot_stub": ("stub", "stub"),
    "test_uboot_handover": ("handover", "handover"),
    "test_uboot_legacy": ("legacy", "legacy"),
    "test_uboot_auto_picks_stub": ("auto", "stub"),
}, needs=(LOADER, KERNEL, INITRD, TOOL))


def missing_test(protocol, options, missing, failure, what):
    """Without what Linux needs on U-Boot, handoff names exactly the missing
    options before it boots, and the kernel then fails as docs/compatibility.md
    says (so the options are still needed). The trim comes before the console
    and before panic= counts: earlyprintk shows it, and the run stops there."""
    res = boot(options, protocol, stop_on=failure)
    qemu.expect(res.time_of(WARNING % missing) is not None, "handoff names the missing '%s'" % missing, res)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % protocol) is not None,
                "handoff boots anyway, by %s" % protocol, res)
    qemu.expect(res.time_of(failure) is not None, "the kernel fails: %s (%r)" % (what, failure), res)
    qemu.expect(res.init is None, "Linux never reached the initramfs", res)


case.each(globals(), missing_test, {
    # the trim is the same by the kernel's own stub and by handoff's e820 table (legacy)
    "test_uboot_without_options_stub_mtrr_trim": (
        "stub", EARLY, "disable_mtrr_trim efi=noruntime", MTRR_TRIM, "all RAM trimmed"),
    "test_uboot_without_options_legacy_mtrr_trim": (
        "legacy", EARLY, "disable_mtrr_trim efi=noruntime", MTRR_TRIM, "all RAM trimmed"),
    "test_uboot_without_noruntime_svam_faults": (
        "handover", "console=ttyS0 disable-mtrr-trim panic=-1", "efi=noruntime", SVAM_FAULT,
        "U-Boot's SetVirtualAddressMap faults"),
}, needs=(LOADER, KERNEL, INITRD, TOOL))
