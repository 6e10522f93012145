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

import test_loader
from harness import case, esp, loaders, qemu
from harness.esp import entry
from harness.paths import INITRD, K612, KERNEL, LOADER32, root_path

K61 = (KERNEL, INITRD)
TIMEOUT = 300  # 32-bit OVMF with SMM is slower to start than the 64-bit one


def esp32_tree(kernel, initrd, entries, loader_conf, extra_files=None):
    """An ESP with handoffia32.efi as the IA-32 fallback loader and no x64 one."""
    return esp.loader_tree(entries, loader_conf, extra_files, loader=LOADER32, arch="ia32", kernel=kernel,
                           initrd=initrd)


def boot32(tree, keys=(), extra_args=()):
    return qemu.run_qemu(esp.image(tree), TIMEOUT, keys=keys, ia32=True, extra_args=extra_args)


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


# IA-32 code that gives up as Linux's stub does (efi_exit(): Exit(handle,
# status, 0, NULL), then hlt for ever if Exit returns), entered by cdecl as
# (handle, system table, ...): BootServices at 0x3c in the 32-bit system
# table, Exit() at 0x78 in the 32-bit boot services (UEFI 2.10 §4.3, §4.4).
EXIT_CALL_32 = bytes([
    0x8b, 0x44, 0x24, 0x08,                 # mov eax, [esp+8]     system table
    0x8b, 0x40, 0x3c,                       # mov eax, [eax+0x3c]  BootServices
    0x6a, 0x00, 0x6a, 0x00,                 # push 0; push 0       ExitData, ExitDataSize
    0x68, 0x01, 0x00, 0x00, 0x80,           # push 0x80000001      EFI_LOAD_ERROR
    0xff, 0x74, 0x24, 0x10,                 # push [esp+16]        the image handle
    0xff, 0x50, 0x78,                       # call [eax+0x78]      Exit()
    0xf4, 0xeb, 0xfd,                       # hlt; jmp hlt
])


# The same after a call of ExitBootServices (0x80 in the 32-bit boot
# services, UEFI 2.10 §4.4) with a MapKey no GetMemoryMap gave (~0: refused,
# and the firmware may have stopped part of itself, §7.4.6); cdecl, the
# caller pops the arguments, so EXIT_CALL_32 finds its stack as at the entry.
EXIT_BOOT_CALL_32 = bytes([
    0x8b, 0x44, 0x24, 0x08,                 # mov eax, [esp+8]     system table
    0x8b, 0x40, 0x3c,                       # mov eax, [eax+0x3c]  BootServices
    0x6a, 0xff,                             # push -1              MapKey
    0xff, 0x74, 0x24, 0x08,                 # push [esp+8]         the image handle
    0xff, 0x90, 0x80, 0x00, 0x00, 0x00,     # call [eax+0x80]      ExitBootServices()
    0x83, 0xc4, 0x08,                       # add esp, 8
]) + EXIT_CALL_32


def compat_entry_offset(data):
    """File offset of the IA-32 entry named by the first .compat record
    (type 1, size 8, machine, entry RVA: Linux arch/x86/boot/header.S)."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    nsec, opt_size = struct.unpack_from("<H", data, pe + 6)[0], struct.unpack_from("<H", data, pe + 20)[0]
    sections = [struct.unpack_from("<8sIIII", data, pe + 24 + opt_size + 40 * i) for i in range(nsec)]
    compat = [s for s in sections if s[0].rstrip(b"\0") == b".compat"][0]
    rva = struct.unpack_from("<I", data, compat[4] + 4)[0]
    for _, vsize, va, _, raw in sections:
        if va <= rva < va + vsize:
            return rva - va + raw
    raise AssertionError(".compat entry RVA %#x in no section" % rva)


def patched(kernel, xloadflags=None, drop_compat=False, handover_returns=False, exits_at=None,
            exit_code=EXIT_CALL_32):
    """Debian's kernel with other xloadflags (boot.rst 0x236), its .compat
    record's type set to 0 (end of list: no IA-32 entry), a bare `ret` at its
    32-bit handover entry (handover_offset in the protected-mode part,
    boot.rst "EFI Handover Protocol"), or @exit_code (EXIT_CALL_32: control
    comes back to the loader with boot services up) at that entry
    (exits_at="handover") or at the .compat one (exits_at="compat")."""
    data = bytearray(kernel)
    handover = ((data[0x1f1] or 4) + 1) * 512 + struct.unpack_from("<I", data, 0x264)[0]
    if xloadflags is not None:
        struct.pack_into("<H", data, 0x236, xloadflags)
    if handover_returns:
        data[handover] = 0xc3
    if exits_at:
        at = handover if exits_at == "handover" else compat_entry_offset(data)
        data[at:at + len(exit_code)] = exit_code
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
def test_ia32_a_kernel_that_gives_up_gets_the_menu_back():
    """A kernel whose mixed-mode entry gives up: by returning from its
    handover entry, or by Exit() as Linux's stub does, from the handover entry
    (the handle is handoffia32's own: the firmware's Exit() would end the
    loader) or from the .compat entry (a handle the loader made: the
    firmware refuses it and the stub halts). Each gets its error and the menu
    back (src/efi/exit_guard.c), and the menu reads keys again: the firmware's
    serial input is polled from timer events, so the tick stopped for the
    entry (src/efi/timer_quiet.c) is running. Then a kernel boots by handover
    with the tick stopped."""
    kernel = open(root_path(K61[0]), "rb").read()
    good = "console=ttyS0 handoff.marker=ia32-tick-back panic=-1"
    entries = {
        "a1.conf": entry("Returns", "x", protocol="handover", linux="/returns", sort_key="a1"),
        "a2.conf": entry("Exits by handover", "x", protocol="handover", linux="/hexits", sort_key="a2"),
        "a3.conf": entry("Exits by stub", "x", protocol="stub", linux="/cexits", sort_key="a3"),
        "a4.conf": entry("Debian", good, protocol="handover", sort_key="a4"),
    }
    tree = esp32_tree(*K61, entries, "timeout menu-force\n", {
        "returns": patched(kernel, handover_returns=True),
        "hexits": patched(kernel, exits_at="handover"),
        "cexits": patched(kernel, exits_at="compat"),
    })
    menu = r"handoff [0-9.]+ boot menu"
    res = boot32(tree, keys=[(menu, str(i).encode()) for i in range(1, 5)])
    for msg in (r"/returns: the kernel returned from its handover entry",
                r"/hexits: the kernel's EFI stub gave up \(Exit: EFI_LOAD_ERROR\)",
                r"/cexits: the kernel's EFI stub gave up \(Exit: EFI_LOAD_ERROR\)"):
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    qemu.expect_eq(res.keys_pending, [], "all menu keys read (the menu came back each time and reads keys)", res)
    check_mixed_mode_boot(res, K61[1], good, "handover", "a4")


@case.needs(LOADER32, *K61)
def test_ia32_a_kernel_that_gives_up_after_exit_boot_services_resets():
    """A mixed-mode kernel whose handover entry calls ExitBootServices, which
    fails, and then gives up by Exit(): with the firmware maybe half shut
    down (UEFI 2.10 §7.4.6) handoffia32 says why and resets (QEMU exits under
    -no-reboot), leaving the firmware's tick stopped (timer_quiet.c); the
    menu never comes back."""
    kernel = open(root_path(K61[0]), "rb").read()
    entries = {
        "a1.conf": entry("Gives up late", "x", protocol="handover", linux="/late", sort_key="a1"),
        "a2.conf": entry("Debian", "console=ttyS0 handoff.marker=ia32-not-after-a-reset panic=-1", sort_key="a2"),
    }
    tree = esp32_tree(*K61, entries, "timeout menu-force\n",
                      {"late": patched(kernel, exits_at="handover", exit_code=EXIT_BOOT_CALL_32)})
    res = boot32(tree, keys=[(test_loader.MENU, b"1")], extra_args=qemu.CPU_LOG_ARGS)
    test_loader.expect_reset_after_exit_boot(res, "Gives up late", "Debian")


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
