"""Mixed mode (issue 14): handoffia32.efi as \\EFI\\BOOT\\BOOTIA32.EFI on
Debian's 32-bit OVMF (ovmf-ia32) with a 64-bit CPU boots 64-bit kernels:
Debian's 6.1 by handover, legacy and auto (the stub scheme through the
kernel's .compat IA-32 entry), Debian's 6.12 by stub, handover and legacy.

Each boot checks what Linux saw (the initramfs's HANDOFF-INIT report): the
exact command line, EFI with efivarfs readable (runtime services through the
kernel's 32-bit thunk), the EFI framebuffer, "EL32" in boot_params.efi_info
and fw_platform_size 32, the initrd's payload SHA-256, and the Boot Loader
Interface variables naming the scheme and BOOTIA32.EFI. A 32-bit kernel and
kernels without the 32-bit entries are refused by name, back to the menu.
"""
import os
import struct

from harness import case, esp, loaders, qemu
from harness.esp import entry
from harness.paths import INITRD, K612, KERNEL, LOADER32, root_path

K61 = (KERNEL, INITRD)
TIMEOUT = 300  # 32-bit OVMF with SMM is slower to start than the 64-bit one


def esp32_tree(kernel, initrd, entries, loader_conf, extra_files=None):
    """An ESP with handoffia32.efi as the IA-32 fallback loader and no x64 one."""
    return esp.loader_tree(entries, loader_conf, extra_files, loader=LOADER32, arch="ia32", kernel=kernel,
                           initrd=initrd)


def boot32(tree, keys=()):
    return qemu.run_qemu(esp.image(tree), TIMEOUT, keys=keys, ia32=True)


def check_mixed_mode_boot(res, initrd, options, scheme, entry_id):
    init = qemu.expect_linux_saw(res, options, initrd)
    qemu.expect_eq(init.get("bp_efi_sig"), "EL32", "boot_params.efi_info.efi_loader_signature", res)
    qemu.expect_eq(init.get("fw_platform_size"), "32", "/sys/firmware/efi/fw_platform_size", res)
    v = init.get("loader", {})
    qemu.expect_eq(v.get("HandoffBootScheme"), scheme, "HandoffBootScheme", res)
    qemu.expect_eq(v.get("LoaderEntrySelected"), entry_id, "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTIA32.EFI",
                   "LoaderImageIdentifier", res)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % scheme) is not None,
                "handoff says it boots by %s" % scheme, res)


def scheme_test(kernel, initrd, protocol, want):
    """handoffia32 boots the 64-bit kernel by the scheme the entry asks for (auto: the best one)."""
    options = "console=ttyS0 handoff.marker=ia32-%s panic=-1" % protocol
    tree = esp32_tree(kernel, initrd, {"debian.conf": entry("Debian", options, protocol)}, "timeout 0\n")
    res = boot32(tree)
    check_mixed_mode_boot(res, initrd, options, want, "debian")


case.each(globals(), scheme_test, {
    "test_ia32_61_handover": (*K61, "handover", "handover"),
    "test_ia32_61_legacy": (*K61, "legacy", "legacy"),
    "test_ia32_61_auto_picks_stub": (*K61, "auto", "stub"),
}, needs=(LOADER32, *K61))
case.each(globals(), scheme_test, {"test_ia32_612_" + s: (*K612, s, s) for s in ("stub", "handover", "legacy")},
          needs=(LOADER32, *K612))


def patched(kernel, xloadflags=None, drop_compat=False, handover_returns=False):
    """Debian's kernel with other xloadflags (boot.rst 0x236), its .compat
    record's type set to 0 (end of list: no IA-32 entry), or a bare `ret` at
    its 32-bit handover entry (handover_offset in the protected-mode part,
    boot.rst "EFI Handover Protocol"): control comes back to the loader with
    boot services up."""
    data = bytearray(kernel)
    if xloadflags is not None:
        struct.pack_into("<H", data, 0x236, xloadflags)
    if handover_returns:
        setup_sects = data[0x1f1] or 4
        data[(setup_sects + 1) * 512 + struct.unpack_from("<I", data, 0x264)[0]] = 0xc3
    if drop_compat:
        pe = struct.unpack_from("<I", data, 0x3c)[0]
        nsec, opt_size = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
        for i in range(nsec):
            o = pe + 24 + opt_size + 40 * i
            if data[o:o + 8].rstrip(b"\0") == b".compat":
                data[struct.unpack_from("<I", data, o + 20)[0]] = 0
    return bytes(data)


@case.needs(LOADER32, *K61)
def test_ia32_refusals_name_the_missing_entry():
    """A 32-bit kernel (no XLF_KERNEL_64), a kernel without XLF_EFI_HANDOVER_32
    asked for handover, one without a .compat IA-32 entry asked for stub:
    each is refused with the reason and the menu comes back; then one boots."""
    kernel = open(root_path(K61[0]), "rb").read()
    xlf = struct.unpack_from("<H", kernel, 0x236)[0]
    good = "console=ttyS0 handoff.marker=ia32-after-refusals panic=-1"
    entries = {
        "a1.conf": entry("Kernel 32", "x", linux="/k32", sort_key="a1"),
        "a2.conf": entry("No handover32", "x", protocol="handover", linux="/nohandover32", sort_key="a2"),
        "a3.conf": entry("No compat", "x", protocol="stub", linux="/nocompat", sort_key="a3"),
        "a4.conf": entry("Debian", good, protocol="legacy", sort_key="a4"),
    }
    tree = esp32_tree(*K61, entries, "timeout menu-force\n", {
        "k32": patched(kernel, xloadflags=0x4),
        "nohandover32": patched(kernel, xloadflags=xlf & ~0x4),
        "nocompat": patched(kernel, drop_compat=True),
    })
    menu = r"handoff [0-9.]+ boot menu"
    res = boot32(tree, keys=[(menu, str(i).encode()) for i in range(1, 5)])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back each time)", res)
    for msg in (r"/k32: no boot scheme fits on 32-bit firmware: XLF_KERNEL_64 not set",
                r"/nohandover32: cannot boot by handover: XLF_EFI_HANDOVER_32 not set in xloadflags",
                r"/nocompat: cannot boot by stub: no IA-32 entry in a \".compat\" section"):
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    check_mixed_mode_boot(res, K61[1], good, "legacy", "a4")


@case.needs(LOADER32, *K61)
def test_ia32_firmware_tick_back_after_the_kernel_returns():
    """handoffia32 stops the firmware's timer tick for a 64-bit kernel's
    mixed-mode entry (src/efi/timer_quiet.c). A kernel that returns from its
    handover entry gets the error and the menu back, and the menu reads keys
    again (the firmware's serial input is polled from timer events), so the
    tick is running; then a kernel boots by handover with the tick stopped."""
    kernel = open(root_path(K61[0]), "rb").read()
    good = "console=ttyS0 handoff.marker=ia32-tick-back panic=-1"
    entries = {
        "a1.conf": entry("Returns", "x", protocol="handover", linux="/returns", sort_key="a1"),
        "a2.conf": entry("Debian", good, protocol="handover", sort_key="a2"),
    }
    tree = esp32_tree(*K61, entries, "timeout menu-force\n", {"returns": patched(kernel, handover_returns=True)})
    menu = r"handoff [0-9.]+ boot menu"
    res = boot32(tree, keys=[(menu, b"1"), (menu, b"2")])
    qemu.expect(res.time_of(r"/returns: the kernel returned from its handover entry") is not None,
                "the loader says the kernel returned", res)
    qemu.expect_eq(res.keys_pending, [], "both menu keys read (the menu came back and reads keys)", res)
    check_mixed_mode_boot(res, K61[1], good, "handover", "a2")


@case.needs(LOADER32, *K61)
def test_ia32_efi_entry_starts_an_ia32_application():
    """An "efi" entry on 32-bit firmware: a native IA-32 EFI application
    (a standalone GRUB i386-efi image that prints a marker and halts) is
    started by LoadImage/StartImage, as on 64-bit firmware."""
    app = loaders.grub_standalone(os.path.join(case.workdir(), "app32.efi"), "echo HANDOFF-CHAINLOAD-IA32-OK\nhalt\n",
                                  "i386-efi", "halt echo")
    tree = esp32_tree(*K61, {"app.conf": "title IA-32 application\nefi /app32.efi\n"}, "timeout 0\n",
                      {"app32.efi": app})
    res = boot32(tree)
    qemu.expect(res.time_of(r"handoff: booting 'IA-32 application' by stub") is not None,
                "handoff starts the IA-32 application by the stub scheme", res)
    qemu.expect(res.time_of(r"HANDOFF-CHAINLOAD-IA32-OK") is not None, "the application ran", res)
