"""handoff.efi boots Debian's kernel by each scheme; errors return to the menu.

Each boot checks what the booted side saw: the initramfs's HANDOFF-INIT
report (exact command line, /sys/firmware/efi, efivarfs entries, the EFI
framebuffer, the SHA-256 of a 4 MiB file inside the initrd) and handoff's
own line naming the scheme it used.
"""
import hashlib
import io
import os
import random
import re
import struct
import subprocess

import measured
from harness import case, disk, esp, gpt, initramfs, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, TOOL, root_path

TIMEOUT = 240


def boot(tree, keys=(), timeout=TIMEOUT, extra_args=()):
    return qemu.run_qemu(esp.image(tree), timeout, keys=keys, extra_args=extra_args)


def check_loader_vars(res, init, scheme, entry_id):
    """The Boot Loader Interface variables Linux sees after handoff (efivarfs)."""
    v = init.get("loader", {})
    qemu.expect(v.get("LoaderInfo", "").startswith("handoff "), "LoaderInfo: %r" % v.get("LoaderInfo"), res)
    qemu.expect_eq(v.get("HandoffBootScheme"), scheme, "HandoffBootScheme", res)
    qemu.expect_eq(v.get("LoaderEntrySelected"), entry_id, "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTX64.EFI", "LoaderImageIdentifier",
                   res)


# What the kernel's own EFI stub leaves behind (drivers/firmware/efi/libstub):
# on the stub scheme it prints "EFI stub: Loaded initrd from
# LINUX_EFI_INITRD_MEDIA_GUID device path" on the firmware console when it reads
# handoff's LoadFile2, and its PE entry sets type_of_loader 0x21 in the zero
# page; entered by handover (initrd already in boot_params) or at the 64-bit
# entry it does neither, and the loader's 0xff stays.
STUB_INITRD_LINE = r"EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path"
TYPE_OF_LOADER = {"stub": 0x21, "handover": 0xff, "legacy": 0xff}


def check_kernel_saw_scheme(res, init, scheme):
    """The scheme as the kernel itself saw it, not only handoff's word for it."""
    stub_lines = [l for _, l in res.lines if "EFI stub:" in l]
    if scheme == "stub":
        qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                    "the kernel's EFI stub reports reading handoff's LoadFile2 initrd", res)
    else:
        qemu.expect(not stub_lines, "no 'EFI stub:' line from the kernel by %s, got %r" % (scheme, stub_lines[:2]),
                    res)
    qemu.expect_eq(init.get("bp_type_of_loader"), TYPE_OF_LOADER[scheme],
                   "type_of_loader in the kernel's zero page (/sys/kernel/boot_params/data)", res)
    qemu.expect_eq(init.get("bp_efi_sig"), "EL64", "efi_info loader signature in the kernel's zero page", res)


def scheme_test(protocol, want_scheme):
    """handoff boots Debian's kernel by the scheme the entry asks for (auto: the best one)."""
    options = "console=ttyS0 handoff.marker=%s-1 panic=-1" % protocol
    tree = esp.loader_tree({"debian.conf": entry("Debian", options, protocol)}, "timeout 0\n")
    res = boot(tree)
    init = qemu.expect_linux_saw(res, options)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % want_scheme) is not None,
                "handoff says it boots by %s" % want_scheme, res)
    check_loader_vars(res, init, want_scheme, "debian")
    check_kernel_saw_scheme(res, init, want_scheme)


case.each(globals(), scheme_test, {
    "test_loader_stub": ("stub", "stub"),
    "test_loader_handover": ("handover", "handover"),
    "test_loader_legacy": ("legacy", "legacy"),
    "test_loader_auto_picks_stub": ("auto", "stub"),
}, needs=(LOADER, KERNEL, INITRD))


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_reads_through_the_firmware_what_fat_c_refuses():
    """Large FAT files go around the firmware's FAT driver (src/efi/fat_fast.c)
    only where src/core/fat.c finds the same file; it resolves no '.' or '..'
    (OVMF's driver does), so a kernel and an initrd named through them are read
    by the fallback to the firmware's driver, whole: Linux comes up with the
    initrd's payload intact."""
    options = "console=ttyS0 handoff.marker=fat-fallback panic=-1"
    e = entry("Dots", options, linux="/debian/../debian/vmlinuz", initrds=("/debian/./initrd.img",))
    res = qemu.run_qemu(esp.image(esp.loader_tree({"dots.conf": e})), TIMEOUT, stop_on=r"boot menu$|handoff: error:")
    qemu.expect(not res.stopped, "the entry boots (no error, no menu)", res)
    qemu.expect_linux_saw(res, options)


RETURNS_C = b"unsigned long long __attribute__((ms_abi)) efi_main(void *image, void *systab) { return 0; }\n"


def tiny_efi_app():
    """An EFI application that returns at once (EFI_SUCCESS), built here with the project's toolchain."""
    wd = case.workdir()
    src, obj, out = (os.path.join(wd, "returns." + x) for x in ("c", "o", "efi"))
    with open(src, "wb") as f:
        f.write(RETURNS_C)
    for cmd in (["clang", "-target", "x86_64-unknown-windows", "-ffreestanding", "-mno-red-zone", "-O2", "-c", src,
                 "-o", obj],
                ["lld-link", "/nologo", "/machine:x64", "/subsystem:efi_application", "/entry:efi_main",
                 "/nodefaultlib", "/debug:none", "/out:" + out, obj]):
        p = subprocess.run(cmd, capture_output=True, text=True)
        qemu.expect(p.returncode == 0, "%s: %s" % (cmd[0], p.stderr))
    with open(out, "rb") as f:
        return f.read()


def patched_kernel(**fields):
    """Debian's kernel with setup header fields changed (offsets: boot.rst)."""
    k = bytearray(open(root_path(KERNEL), "rb").read())
    offsets = {"version": ("<H", 0x206), "init_size": ("<I", 0x260)}
    for name, value in fields.items():
        fmt, off = offsets[name]
        struct.pack_into(fmt, k, off, value)
    return bytes(k)


# x86-64 code that gives up as Linux's stub does (efi_exit(): Exit(handle,
# status, 0, NULL), then hlt for ever if Exit returns), entered as the 64-bit
# handover entry (System V: handle in rdi, system table in rsi): BootServices
# at 0x60 in the system table, Exit() at 0xd8 in the boot services (UEFI 2.10
# §4.3, §4.4), called with the Microsoft convention and its 32-byte shadow.
EXIT_CALL_64 = bytes([
    0x48, 0x8b, 0x46, 0x60,                                     # mov rax, [rsi+0x60]
    0x48, 0x89, 0xf9,                                           # mov rcx, rdi
    0x48, 0xba, 0x01, 0, 0, 0, 0, 0, 0, 0x80,                   # mov rdx, EFI_LOAD_ERROR
    0x45, 0x31, 0xc0, 0x45, 0x31, 0xc9,                         # xor r8d, r8d; xor r9d, r9d
    0x48, 0x83, 0xec, 0x28,                                     # sub rsp, 40
    0xff, 0x90, 0xd8, 0, 0, 0,                                  # call [rax+0xd8]
    0xf4, 0xeb, 0xfd,                                           # hlt; jmp hlt
])


# What Linux's stub does when ExitBootServices fails for good, in short: the
# call (ExitBootServices at 0xe8 in the boot services, UEFI 2.10 §4.4) with a
# MapKey no GetMemoryMap gave (~0: the firmware refuses it, EFI_INVALID_PARAMETER,
# and may have stopped part of itself, §7.4.6), then EXIT_CALL_64. RDI and RSI
# survive the call (callee-saved in the Microsoft convention).
EXIT_BOOT_CALL_64 = bytes([
    0x48, 0x8b, 0x46, 0x60,                                     # mov rax, [rsi+0x60]
    0x48, 0x89, 0xf9,                                           # mov rcx, rdi
    0x48, 0xc7, 0xc2, 0xff, 0xff, 0xff, 0xff,                   # mov rdx, -1
    0x48, 0x83, 0xec, 0x28,                                     # sub rsp, 40
    0xff, 0x90, 0xe8, 0, 0, 0,                                  # call [rax+0xe8]
    0x48, 0x83, 0xc4, 0x28,                                     # add rsp, 40
]) + EXIT_CALL_64


def gives_up_at_handover(kernel, code=EXIT_CALL_64):
    """The kernel with @code (EXIT_CALL_64) at its 64-bit handover entry
    (handover_offset + 512 into the protected-mode part, boot.rst)."""
    k = bytearray(kernel)
    at = ((k[0x1f1] or 4) + 1) * 512 + struct.unpack_from("<I", k, 0x264)[0] + 512
    k[at:at + len(code)] = code
    return bytes(k)


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_errors_return_to_menu():
    """Each broken entry gets its message and the menu again, by itself (no
    key press); then a good one boots. The README's list: missing or truncated
    kernel, not a bzImage, protocol too old for the chosen scheme, missing
    initrd, no memory, an image that returns, a kernel whose stub gives up by
    Exit() on handoff's own handle (src/efi/exit_guard.c).

    Also: a malformed line in the good entry is reported with file:line and
    skipped, and the rest of the entry still counts.
    """
    good = "console=ttyS0 handoff.marker=after-errors panic=-1"
    kernel = open(root_path(KERNEL), "rb").read()
    rnd = random.Random(7)
    garbage = bytes(rnd.getrandbits(8) for _ in range(65536))
    entries = {
        "a1.conf": entry("Missing kernel", "x", linux="/nope/vmlinuz", sort_key="a1"),
        "a2.conf": entry("Missing initrd", "x", initrds=("/debian/initrd.img", "/nope.img"), sort_key="a2"),
        "a3.conf": entry("Garbage kernel", "x", linux="/garbage.bin", sort_key="a3"),
        "a4.conf": entry("Truncated kernel", "x", protocol="handover", linux="/truncated", sort_key="a4"),
        "a5.conf": entry("Too old", "x", protocol="handover", linux="/old", sort_key="a5"),
        "a6.conf": entry("No memory", "x", protocol="handover", linux="/huge", sort_key="a6"),
        "a7.conf": "title Returns\nsort-key a7\nefi /returns.efi\n",
        "a8.conf": entry("Gives up", "x", protocol="handover", linux="/givesup", sort_key="a8"),
        "a9.conf": entry("Good", good, extra="protocol sideways\n", sort_key="a9"),
    }
    tree = esp.loader_tree(entries, "timeout menu-force\n",
                           {"garbage.bin": garbage, "truncated": kernel[:len(kernel) // 3],
                            "old": patched_kernel(version=0x020a), "huge": patched_kernel(init_size=0xf0000000),
                            "returns.efi": tiny_efi_app(), "givesup": gives_up_at_handover(kernel)})
    menu = r"handoff [0-9.]+ boot menu"
    res = boot(tree, keys=[(menu, str(i).encode()) for i in range(1, 10)])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back each time, no key needed)", res)
    qemu.expect(res.time_of(r"Press any key") is None, "no 'Press any key' pause", res)
    for msg in (r"entry 'Missing kernel': /nope/vmlinuz: cannot open: EFI_NOT_FOUND$",
                r"initrd /nope.img: cannot open",
                r"entry 'Missing initrd': initrd /nope.img: cannot open: EFI_NOT_FOUND$",
                r"/garbage.bin: neither a bzImage",
                r"/truncated: truncated: syssize says",
                r"/old: cannot boot by handover: boot protocol older than 2.11",
                r"/huge: no room for the kernel \(3840 MiB below 4 GiB\)",
                r"/returns.efi: the image returned \(EFI_SUCCESS\) instead of starting a kernel",
                r"entry 'Gives up': /givesup: the kernel's EFI stub gave up \(Exit: EFI_LOAD_ERROR\)$",
                r"a9.conf:6: protocol 'sideways'"):
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    # One failure, one line: the cause, with the entry as its context (no "cannot boot" echo).
    for title in ("Missing kernel", "Missing initrd", "Truncated kernel", "Too old", "No memory", "Gives up"):
        lines = [l for _, l in res.lines if "handoff: error: entry '%s'" % title in l]
        qemu.expect_eq(len(lines), 1, "error lines for entry '%s' (%r)" % (title, lines), res)
    qemu.expect(res.time_of(r"booting 'Good' by stub \(protocol auto\)") is not None,
                "the good entry boots (its bad protocol line skipped, auto chosen)", res)
    qemu.expect_linux_saw(res, good)


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_gives_up_after_exit_boot_services_resets():
    """A kernel whose stub calls ExitBootServices, which fails, and then gives
    up by Exit(): the firmware may be half shut down (UEFI 2.10 §7.4.6), so
    handoff does not go back to its menu but says why on the console it still
    has and resets the machine (QEMU runs with -no-reboot: it exits). The
    menu never comes back and the other entry never boots."""
    kernel = open(root_path(KERNEL), "rb").read()
    entries = {
        "a1.conf": entry("Gives up late", "x", protocol="handover", linux="/givesup", sort_key="a1"),
        "a2.conf": entry("Good", "console=ttyS0 handoff.marker=not-after-a-reset panic=-1", sort_key="a2"),
    }
    tree = esp.loader_tree(entries, "timeout menu-force\n",
                           {"givesup": gives_up_at_handover(kernel, EXIT_BOOT_CALL_64)})
    res = boot(tree, keys=[(MENU, b"1")], timeout=120, extra_args=qemu.CPU_LOG_ARGS)
    expect_reset_after_exit_boot(res, "Gives up late", "Good")


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_damaged_file_says_so():
    """A handoff.efi whose packed image is damaged (a bit of its header
    changed, as by a bad sector: the code section's execute flag, which no
    other check would see): the CRC-32 refuses it, the unpacker says so in
    one line and hands the error back to the firmware; nothing of the loader
    runs."""
    data = bytearray(open(root_path(LOADER), "rb").read())
    roff = next(roff for name, _, _, _, roff in measured.pe_sections(data)[2] if name == ".image")
    qemu.expect_eq(bytes(data[roff:roff + 4]), b"HOPK", ".image starts with the packed image", None)
    data[roff + 44 + 8 + 3] ^= 0x20  # src/core/pack.h: the first section's IMAGE_SCN_MEM_EXECUTE
    tree = esp.loader_tree({"a.conf": entry("Linux", "console=ttyS0 panic=-1")}, files={},
                           loader=bytes(data))
    res = qemu.run_qemu(esp.image(tree), 60, stop_on=r"Boot Manager Menu|boot menu|UEFI Interactive Shell")
    qemu.expect(res.time_of(r"^handoff: this file is damaged: install it again$") is not None,
                "the unpacker's line", res)
    qemu.expect(res.time_of(MENU) is None and res.init is None, "nothing of the loader ran", res)


MENU = r"handoff [0-9.]+ boot menu"


def expect_reset_after_exit_boot(res, title, other):
    """Entry @title's stub gave up after ExitBootServices: the reason on the
    serial console, then the reset (QEMU exits under -no-reboot) by
    ResetSystem, not by a triple fault (the run logs CPU exceptions:
    qemu.CPU_LOG_ARGS); one menu only, and entry @other never booted."""
    qemu.expect(not res.timed_out, "QEMU exited by itself (the reset, under -no-reboot)", res)
    qemu.expect(not qemu.first_exception(res)[1], "the reset was ResetSystem's, not a triple fault", res)
    qemu.expect_eq(res.exit_code, 0, "QEMU's exit status (a guest reset)", res)
    qemu.expect(res.time_of(r"handoff: error: entry '%s': the kernel's EFI stub gave up after "
                            r"ExitBootServices \(EFI_LOAD_ERROR\): resetting$" % title) is not None,
                "the reason, said before the reset", res)
    qemu.expect_eq(sum(1 for _, l in res.lines if re.search(MENU, l)), 1, "menus drawn (the first only)", res)
    qemu.expect(res.time_of(r"booting '%s'" % other) is None and res.init is None, "nothing booted after it", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_failed_default_menu_comes_back_by_itself():
    """An unattended machine: the default entry fails after the countdown; the
    menu comes back on its own with the cause under it and no countdown (so it
    does not loop on the broken entry). A key press then boots another entry."""
    good = "console=ttyS0 handoff.marker=after-default-failed panic=-1"
    tree = esp.loader_tree({"a1.conf": entry("Broken", "x", linux="/nope/vmlinuz", sort_key="a1"),
                            "a2.conf": entry("Good", good, sort_key="a2")}, "timeout 1\ndefault a1\n")
    res = boot(tree, keys=[(r"Problems: entry 'Broken': /nope/vmlinuz: cannot open", b"2", 2.0)])
    qemu.expect_eq(res.keys_pending, [], "the menu came back with the reason under it", res)
    failed = res.time_of(r"/nope/vmlinuz: cannot open")
    booted = res.time_of(r"booting 'Good'")
    qemu.expect(failed is not None and booted is not None, "the default failed, then the good entry booted", res)
    countdown = [l for t, l in res.lines if failed < t < booted and re.search(r"Boot in \d+ s", l)]
    qemu.expect(not countdown, "no countdown after the failure, got %r" % countdown[:1], res)
    qemu.expect_eq(sum(1 for _, l in res.lines if "handoff: entry 'Broken': loading" in l), 1,
                   "the broken default was tried once, not again by a countdown", res)
    qemu.expect_linux_saw(res, good)


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_menu_keys_and_editor():
    """Arrow down stops the countdown, 'e' edits the command line, Enter boots."""
    first = "console=ttyS0 handoff.marker=menu-first panic=-1"
    second = "console=ttyS0 handoff.marker=menu-second panic=-1"
    tree = esp.loader_tree({"m1.conf": entry("First", first, sort_key="m1"),
                            "m2.conf": entry("Second", second, sort_key="m2")},
                           "timeout 20\ndefault m1\neditor yes\n")
    res = boot(tree, keys=[
        (r"Boot in \d+ s", b"\x1b[B"),
        (r"> Second", b"e"),
        (r"options: .*menu-second", b" handoff.edited=yes\r", 0.3),
    ])
    qemu.expect_eq(res.keys_pending, [], "menu keys sent", res)
    qemu.expect_linux_saw(res, second + " handoff.edited=yes")


@case.needs(LOADER, KERNEL, INITRD)
def test_loader_honours_boot_loader_interface_requests():
    """What `bootctl set-default`, `set-oneshot` and `systemctl reboot
    --boot-loader-menu=` write: the first boot's Linux sets LoaderEntryOneShot,
    LoaderConfigTimeoutOneShot and LoaderEntryDefault (efivarfs, non-volatile);
    the second boot shows the menu once and boots the one-shot entry, which
    then no longer exists; the third boots the LoaderEntryDefault entry at once.
    Three QEMU runs share one OVMF variable store."""
    setter = ("console=ttyS0 handoff.marker=bli-setter panic=-1 handoff.setvar=LoaderEntryOneShot=oneshot.conf "
              "handoff.setvar=LoaderConfigTimeoutOneShot=1 handoff.setvar=LoaderEntryDefault=persistent")
    oneshot = "console=ttyS0 handoff.marker=bli-oneshot panic=-1"
    persistent = "console=ttyS0 handoff.marker=bli-default panic=-1"
    tree = esp.loader_tree({"setter.conf": entry("Setter", setter, sort_key="a"),
                            "oneshot.conf": entry("One shot", oneshot, sort_key="b"),
                            "persistent.conf": entry("Persistent", persistent, sort_key="c")},
                           "timeout 0\ndefault setter\n")
    img = esp.image(tree)
    menu = r"handoff [0-9.]+ boot menu"

    first = qemu.run_qemu(img, TIMEOUT, name="1-setter")
    qemu.expect_eq(qemu.expect_init(first).get("loader", {}).get("LoaderEntrySelected"), "setter",
                   "first boot: loader.conf's default", first)
    for var in ("LoaderEntryOneShot", "LoaderConfigTimeoutOneShot", "LoaderEntryDefault"):
        qemu.expect(first.time_of(r"HANDOFF-INIT set %s$" % var) is not None, "first boot's Linux set %s" % var, first)
    vars_after_first = os.path.join(first.run_dir, "OVMF_VARS.fd")

    second = qemu.run_qemu(img, TIMEOUT, name="2-oneshot", vars_file=vars_after_first)
    init = qemu.expect_linux_saw(second, oneshot)
    qemu.expect(second.time_of(menu) is not None, "LoaderConfigTimeoutOneShot shows the menu", second)
    loader = init.get("loader", {})
    qemu.expect_eq(loader.get("LoaderEntrySelected"), "oneshot", "second boot: LoaderEntryOneShot's entry", second)
    qemu.expect_eq(loader.get("LoaderEntryOneShot"), "", "LoaderEntryOneShot deleted by the loader", second)
    qemu.expect_eq(loader.get("LoaderConfigTimeoutOneShot"), "", "LoaderConfigTimeoutOneShot deleted", second)

    third = qemu.run_qemu(img, TIMEOUT, name="3-default", vars_file=os.path.join(second.run_dir, "OVMF_VARS.fd"))
    init = qemu.expect_linux_saw(third, persistent)
    qemu.expect(third.time_of(menu) is None, "no menu: the one-shot timeout was used up", third)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "persistent",
                   "third boot: LoaderEntryDefault over loader.conf's default", third)


def odd_length(data):
    """@data with zero bytes appended up to an odd length (the kernel skips
    zeros between archives, so the padding is harmless to it)."""
    return data if len(data) % 2 else data + b"\0"


def extra_archive(content):
    """An uncompressed newc cpio holding /extra.bin: the kernel only finds its
    "070701" magic at a 4-byte aligned offset, so a misplaced second initrd
    is not unpacked and /extra.bin is missing."""
    buf = io.BytesIO()
    c = initramfs.Cpio(buf)
    c.file("extra.bin", content)
    c.trailer()
    return odd_length(buf.getvalue())


def two_initrds_test(protocol):
    """Two initrds of odd lengths: the second starts 4-byte aligned after the first."""
    options = "console=ttyS0 handoff.marker=two-initrds-%s panic=-1" % protocol
    extra = hashlib.shake_256(b"handoff second initrd").digest(100003)  # odd size
    first = odd_length(open(root_path(INITRD), "rb").read())
    second = extra_archive(extra)
    qemu.expect(len(first) % 4 and len(second) % 4, "both initrds have lengths that are not multiples of 4")
    tree = esp.loader_tree({"two.conf": entry("Two initrds", options, protocol, initrds=("/one.img", "/two.img"))},
                           "timeout 0\n", {"one.img": first, "two.img": second})
    res = boot(tree)
    init = qemu.expect_linux_saw(res, options)   # the first archive: /payload.bin intact
    qemu.expect_eq(init.get("extra_sha256"), hashlib.sha256(extra).hexdigest(),
                   "SHA-256 of /extra.bin from the second initrd (4-byte aligned after the first)", res)
    qemu.expect(res.time_of(r"booting 'Two initrds' by %s .*2 initrd" % protocol) is not None,
                "booted by %s with 2 initrds" % protocol, res)


case.each(globals(), two_initrds_test, {"test_loader_two_odd_initrds_stub": ("stub",),
                                        "test_loader_two_odd_initrds_legacy": ("legacy",)},
          needs=(LOADER, KERNEL, INITRD))


def ucs2(hexstr):
    return bytes.fromhex(hexstr).decode("utf-16-le")


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_loader_boot_loader_interface_variables():
    """Every Boot Loader Interface variable the README lists, read back from
    Linux's efivarfs and checked against what it must say: the GPT the disk
    really has, the firmware the kernel reports, the README's feature bits,
    the entries in menu order."""
    options = "console=ttyS0 handoff.marker=bli-vars panic=-1"
    tree = esp.loader_tree({"b-second.conf": entry("Second", "x", sort_key="b"),
                            "a-first.conf": entry("First", options, sort_key="a")}, "timeout 0\n")
    img = disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), tree)
    res = qemu.run_qemu(img, TIMEOUT)
    init = qemu.expect_linux_saw(res, options)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    s = {k: b.decode("utf-16-le").rstrip("\0") for k, b in v.items() if k != "LoaderFeatures"}
    version = open(root_path("VERSION")).read().strip()
    qemu.expect_eq(s.get("LoaderInfo"), "handoff " + version, "LoaderInfo", res)
    m = [l for _, l in res.lines if re.search(r"efi: EFI v(\d+)\.(\d+) by (.+)$", l)]
    qemu.expect(m, "the kernel reports the firmware", res)
    major, minor, vendor = re.search(r"efi: EFI v(\d+)\.(\d+) by (.+)$", m[0]).groups()
    qemu.expect_eq(s.get("LoaderFirmwareType"), "UEFI %s.%s" % (major, minor.ljust(2, "0")),
                   "LoaderFirmwareType (the kernel's 'EFI vX.Y')", res)
    qemu.expect(re.fullmatch(re.escape(vendor.strip()) + r" \d+\.\d\d", s.get("LoaderFirmwareInfo", "")),
                "LoaderFirmwareInfo is '%s <revision>', got %r" % (vendor.strip(), s.get("LoaderFirmwareInfo")), res)
    features = int.from_bytes(v.get("LoaderFeatures", b""), "little")
    want = sum(1 << b for b in (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 11))  # README: bits 0-9, 11 of systemd's numbering
    qemu.expect_eq((len(v.get("LoaderFeatures", b"")), features), (8, want), "LoaderFeatures (u64)", res)
    qemu.expect_eq(s.get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTX64.EFI", "LoaderImageIdentifier",
                   res)
    qemu.expect_eq(s.get("LoaderDevicePartUUID", "").lower(), gpt.partition(img, 1)["guid"].lower(),
                   "LoaderDevicePartUUID is the ESP's GPT partition GUID", res)
    entries = v.get("LoaderEntries", b"").decode("utf-16-le").split("\0")
    qemu.expect_eq(entries, ["a-first", "b-second", "auto-reboot-to-firmware-setup", ""],
                   "LoaderEntries: ids in menu order, then OVMF's firmware-setup entry, each NUL-terminated", res)
    qemu.expect_eq(s.get("LoaderEntrySelected"), "a-first", "LoaderEntrySelected", res)
    qemu.expect_eq(s.get("HandoffBootScheme"), "stub", "HandoffBootScheme", res)
    t_init, t_exec = s.get("LoaderTimeInitUSec", ""), s.get("LoaderTimeExecUSec", "")
    qemu.expect(t_init.isdigit() and t_exec.isdigit() and 0 < int(t_init) <= int(t_exec),
                "LoaderTimeInitUSec %r <= LoaderTimeExecUSec %r, both microseconds" % (t_init, t_exec), res)
