"""AArch64 (issue 34): handoffaa64.efi as \\EFI\\BOOT\\BOOTAA64.EFI on QEMU's
virt machine (cortex-a57, TCG) with Debian's AAVMF boots Debian's arm64
kernel from a Type #1 entry by the kernel's EFI stub, its initrd through
handoff's LoadFile2; an entry asking for an x86 boot protocol is refused by
name and the menu comes back.

Each boot checks what Linux saw (the arm64 initramfs's HANDOFF-INIT report):
the exact command line, EFI with efivarfs readable (runtime services), the
initrd's payload SHA-256, and the Boot Loader Interface variables naming the
stub scheme and BOOTAA64.EFI; and the kernel's own EFI stub saying it read
the initrd from handoff's LoadFile2. No display device: no framebuffer to
check.
"""
from harness import case, esp, qemu
from harness.esp import entry
from harness.paths import ARM64, LOADERAA64

TIMEOUT = 300   # TCG emulates every AArch64 instruction: firmware and kernel take about a minute
MEMORY = 1024
MENU = r"handoff [0-9.]+ boot menu"
STUB_INITRD_LINE = r"EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path"


def aa64_tree(entries, loader_conf):
    """An ESP with handoffaa64.efi as the AArch64 fallback loader and Debian's arm64 kernel and initramfs."""
    return esp.loader_tree(entries, loader_conf, loader=LOADERAA64, arch="aa64", kernel=ARM64[0],
                           initrd=ARM64[1])


def boot_aa64(tree, keys=()):
    return qemu.run_qemu(esp.image(tree), TIMEOUT, keys=keys, firmware="aavmf", memory=MEMORY)


def check_stub_boot(res, options, title, entry_id):
    init = qemu.expect_linux_saw(res, options, ARM64[1], fb=None)
    v = init.get("loader", {})
    qemu.expect(v.get("LoaderInfo", "").startswith("handoff "), "LoaderInfo: %r" % v.get("LoaderInfo"), res)
    qemu.expect_eq(v.get("HandoffBootScheme"), "stub", "HandoffBootScheme", res)
    qemu.expect_eq(v.get("LoaderEntrySelected"), entry_id, "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTAA64.EFI",
                   "LoaderImageIdentifier", res)
    qemu.expect(res.time_of(r"handoff: booting '%s' by stub\b" % title) is not None,
                "handoff says it boots by stub", res)
    qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                "the kernel's EFI stub reports reading handoff's LoadFile2 initrd", res)


@case.needs(LOADERAA64, *ARM64)
def test_aa64_entry_boots_by_the_kernels_stub():
    """A Type #1 entry (protocol auto) boots Debian's arm64 kernel by its EFI stub."""
    options = "console=ttyAMA0 handoff.marker=aa64-entry panic=-1"
    res = boot_aa64(aa64_tree({"debian.conf": entry("Debian", options)}, "timeout 0\n"))
    check_stub_boot(res, options, "Debian", "debian")


@case.needs(LOADERAA64, *ARM64)
def test_aa64_x86_protocols_refused_back_to_the_menu():
    """'protocol legacy' and 'protocol handover' are refused with why (x86
    boot protocols), each time back to the menu, by itself; then the good
    entry boots when its key is pressed."""
    good = "console=ttyAMA0 handoff.marker=aa64-after-refusals panic=-1"
    entries = {
        "a1.conf": entry("Legacy", "console=ttyAMA0", protocol="legacy", sort_key="a1"),
        "a2.conf": entry("Handover", "console=ttyAMA0", protocol="handover", sort_key="a2"),
        "a3.conf": entry("Good", good, sort_key="a3"),
    }
    res = boot_aa64(aa64_tree(entries, "timeout menu-force\n"),
                    keys=[(MENU, b"1"), (MENU, b"2"), (MENU, b"3")])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back after each refusal)", res)
    for scheme in ("legacy", "handover"):
        msg = r"cannot boot by %s: %s is an x86 boot protocol; AArch64 boots by the kernel's EFI stub" % (scheme,
                                                                                                         scheme)
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    for title in ("Legacy", "Handover"):
        qemu.expect(res.time_of(r"handoff: booting '%s'" % title) is None, "entry '%s' not booted" % title, res)
    check_stub_boot(res, good, "Good", "a3")
