"""handoff.efi boots Debian's kernel by each scheme; errors return to the menu.

Each boot checks what the booted side saw: the initramfs's HANDOFF-INIT
report (exact command line, /sys/firmware/efi, efivarfs entries, the EFI
framebuffer, the SHA-256 of a 4 MiB file inside the initrd) and handoff's
own line naming the scheme it used.
"""
import os
import random
import shutil

import qemu

LOADER = "build/handoff.efi"
KERNEL = "build/boot-cache/vmlinuz"
INITRD = "build/boot-cache/initramfs.cpio.gz"
TIMEOUT = 240


def expected_sha():
    with open(qemu.root_path(INITRD + ".sha256")) as f:
        return f.read().split()[0]


def esp_tree(entries, loader_conf, extra_files=None):
    """An ESP with handoff as the fallback loader and Debian's kernel in /debian."""
    tree = os.path.join(qemu.workdir(), "esp")
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("EFI/BOOT", "loader/entries", "debian"):
        os.makedirs(os.path.join(tree, d))
    shutil.copyfile(qemu.root_path(LOADER), os.path.join(tree, "EFI/BOOT/BOOTX64.EFI"))
    shutil.copyfile(qemu.root_path(KERNEL), os.path.join(tree, "debian/vmlinuz"))
    shutil.copyfile(qemu.root_path(INITRD), os.path.join(tree, "debian/initrd.img"))
    with open(os.path.join(tree, "loader/loader.conf"), "w") as f:
        f.write(loader_conf)
    for name, text in entries.items():
        with open(os.path.join(tree, "loader/entries", name), "w") as f:
            f.write(text)
    for path, data in (extra_files or {}).items():
        os.makedirs(os.path.dirname(os.path.join(tree, path)), exist_ok=True)
        with open(os.path.join(tree, path), "wb") as f:
            f.write(data)
    return tree


def entry(title, options, protocol=None, linux="/debian/vmlinuz", initrds=("/debian/initrd.img",), extra="",
          sort_key=None):
    text = "title %s\nlinux %s\n" % (title, linux)
    if sort_key:
        text += "sort-key %s\n" % sort_key
    text += "".join("initrd %s\n" % i for i in initrds)
    text += "options %s\n" % options
    if protocol:
        text += "protocol %s\n" % protocol
    return text + extra


def boot(tree, keys=(), timeout=TIMEOUT):
    img = qemu.make_esp(tree, os.path.join(qemu.workdir(), "esp.img"))
    return qemu.run_qemu(img, timeout, keys=keys)


def check_linux_saw(res, options):
    """What the kernel and its initramfs report, compared with what was configured."""
    init = qemu.expect_init(res)
    qemu.expect_eq(init.get("cmdline"), options, "kernel command line (exactly the configured options)", res)
    qemu.expect_eq(init.get("efi"), True, "/sys/firmware/efi exists", res)
    qemu.expect(isinstance(init.get("efivars"), int) and init["efivars"] > 0,
                "efivarfs lists variables (runtime services work), got %r" % init.get("efivars"), res)
    qemu.expect_in("EFI", init.get("fb", ""), "/proc/fb names the EFI framebuffer", res)
    qemu.expect_eq(init.get("payload_sha256"), expected_sha(), "SHA-256 of /payload.bin from the initrd", res)
    return init


def check_loader_vars(res, init, scheme, entry_id):
    """The Boot Loader Interface variables Linux sees after handoff (efivarfs)."""
    v = init.get("loader", {})
    qemu.expect(v.get("LoaderInfo", "").startswith("handoff "), "LoaderInfo: %r" % v.get("LoaderInfo"), res)
    qemu.expect_eq(v.get("HandoffBootScheme"), scheme, "HandoffBootScheme", res)
    qemu.expect_eq(v.get("LoaderEntrySelected"), entry_id, "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTX64.EFI", "LoaderImageIdentifier", res)


def scheme_test(protocol, want_scheme):
    options = "console=ttyS0 handoff.marker=%s-1 panic=-1" % protocol
    tree = esp_tree({"debian.conf": entry("Debian", options, protocol)}, "timeout 0\n")
    res = boot(tree)
    init = check_linux_saw(res, options)
    qemu.expect(res.time_of(r"handoff: booting 'Debian' by %s\b" % want_scheme) is not None,
                "handoff says it boots by %s" % want_scheme, res)
    check_loader_vars(res, init, want_scheme, "debian")


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_stub():
    scheme_test("stub", "stub")


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_handover():
    scheme_test("handover", "handover")


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_legacy():
    scheme_test("legacy", "legacy")


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_auto_picks_stub():
    scheme_test("auto", "stub")


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_errors_return_to_menu():
    """Each broken entry gets its message and the menu again; then a good one boots.

    Also: a malformed line in the good entry is reported with file:line and
    skipped, and the rest of the entry still counts.
    """
    good = "console=ttyS0 handoff.marker=after-errors panic=-1"
    kernel = open(qemu.root_path(KERNEL), "rb").read()
    rnd = random.Random(7)
    garbage = bytes(rnd.getrandbits(8) for _ in range(65536))
    entries = {
        "a1.conf": entry("Missing kernel", "x", linux="/nope/vmlinuz", sort_key="a1"),
        "a2.conf": entry("Missing initrd", "x", initrds=("/debian/initrd.img", "/nope.img"), sort_key="a2"),
        "a3.conf": entry("Garbage kernel", "x", linux="/garbage.bin", sort_key="a3"),
        "a4.conf": entry("Truncated kernel", "x", protocol="handover", linux="/truncated", sort_key="a4"),
        "a5.conf": entry("Good", good, extra="protocol sideways\n", sort_key="a5"),
    }
    tree = esp_tree(entries, "timeout menu-force\n",
                    {"garbage.bin": garbage, "truncated": kernel[:len(kernel) // 3]})
    menu = r"handoff [0-9.]+ boot menu"
    res = boot(tree, keys=[
        (menu, b"1"), (r"Press any key", b" "),
        (menu, b"2"), (r"Press any key", b" "),
        (menu, b"3"), (r"Press any key", b" "),
        (menu, b"4"), (r"Press any key", b" "),
        (menu, b"5"),
    ])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back each time)", res)
    for msg in (r"entry 'Missing kernel': cannot load /nope/vmlinuz",
                r"initrd /nope.img: cannot open",
                r"entry 'Missing initrd': initrd missing, not booting",
                r"/garbage.bin: neither a bzImage",
                r"/truncated: truncated: syssize says",
                r"a5.conf:6: protocol 'sideways'"):
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    qemu.expect(res.time_of(r"booting 'Good' by stub \(protocol auto\)") is not None,
                "the good entry boots (its bad protocol line skipped, auto chosen)", res)
    check_linux_saw(res, good)


@qemu.needs(LOADER, KERNEL, INITRD)
def test_loader_menu_keys_and_editor():
    """Arrow down stops the countdown, 'e' edits the command line, Enter boots."""
    first = "console=ttyS0 handoff.marker=menu-first panic=-1"
    second = "console=ttyS0 handoff.marker=menu-second panic=-1"
    tree = esp_tree({"m1.conf": entry("First", first, sort_key="m1"),
                     "m2.conf": entry("Second", second, sort_key="m2")},
                    "timeout 20\ndefault m1\neditor yes\n")
    res = boot(tree, keys=[
        (r"Boot in \d+ s", b"\x1b[B"),
        (r"> Second", b"e"),
        (r"options: .*menu-second", b" handoff.edited=yes\r", 0.3),
    ])
    qemu.expect_eq(res.keys_pending, [], "menu keys sent", res)
    check_linux_saw(res, second + " handoff.edited=yes")


@qemu.needs(LOADER, KERNEL, INITRD)
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
    tree = esp_tree({"setter.conf": entry("Setter", setter, sort_key="a"),
                     "oneshot.conf": entry("One shot", oneshot, sort_key="b"),
                     "persistent.conf": entry("Persistent", persistent, sort_key="c")},
                    "timeout 0\ndefault setter\n")
    img = qemu.make_esp(tree, os.path.join(qemu.workdir(), "esp.img"))
    menu = r"handoff [0-9.]+ boot menu"

    first = qemu.run_qemu(img, TIMEOUT, name="1-setter")
    qemu.expect_eq(qemu.expect_init(first).get("loader", {}).get("LoaderEntrySelected"), "setter",
                   "first boot: loader.conf's default", first)
    for var in ("LoaderEntryOneShot", "LoaderConfigTimeoutOneShot", "LoaderEntryDefault"):
        qemu.expect(first.time_of(r"HANDOFF-INIT set %s$" % var) is not None, "first boot's Linux set %s" % var, first)
    vars_after_first = os.path.join(first.run_dir, "OVMF_VARS.fd")

    second = qemu.run_qemu(img, TIMEOUT, name="2-oneshot", vars_file=vars_after_first)
    init = check_linux_saw(second, oneshot)
    qemu.expect(second.time_of(menu) is not None, "LoaderConfigTimeoutOneShot shows the menu", second)
    loader = init.get("loader", {})
    qemu.expect_eq(loader.get("LoaderEntrySelected"), "oneshot", "second boot: LoaderEntryOneShot's entry", second)
    qemu.expect_eq(loader.get("LoaderEntryOneShot"), "", "LoaderEntryOneShot deleted by the loader", second)
    qemu.expect_eq(loader.get("LoaderConfigTimeoutOneShot"), "", "LoaderConfigTimeoutOneShot deleted", second)

    third = qemu.run_qemu(img, TIMEOUT, name="3-default", vars_file=os.path.join(second.run_dir, "OVMF_VARS.fd"))
    init = check_linux_saw(third, persistent)
    qemu.expect(third.time_of(menu) is None, "no menu: the one-shot timeout was used up", third)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "persistent",
                   "third boot: LoaderEntryDefault over loader.conf's default", third)
