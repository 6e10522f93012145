"""Boot counting, "default @saved" and the automatic entries.

Boot counting (UAPI.1 "Boot counting"): an entry file NAME+LEFT[-DONE].conf
on the FAT ESP is renamed to one try less before it boots, and the booted
Linux finds the new name in LoaderBootCountPath; checked in the disk image
after QEMU exits (mtools). An entry whose kernel panics falls back to the
next one once its tries are used up. On an ext4 partition (handoff reads ext4
read-only) the entry boots uncounted with a warning.

"default @saved": the entry chosen in the menu is remembered in the
non-volatile LoaderEntryLastBooted and boots next time without a key.

Automatic entries: LoaderEntries lists them after the others; "Power Off The
System" ends QEMU without booting anything; "Reboot Into Firmware Interface"
sets OsIndications, and the next start stops in OVMF's setup instead of
starting handoff.
"""
import os

from harness import case, disk, esp, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, TOOL

TIMEOUT = 240
MENU = r"handoff [0-9.]+ boot menu"
DOWN, ENTER = b"\x1b[B", b"\r"


def esp_files(img):
    """The names in the image's \\loader\\entries, as FAT stores them (mtools)."""
    return disk.fat_names(img, "/loader/entries")


def bli(init):
    """Boot Loader Interface variables from the HANDOFF-INIT report, decoded."""
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    return {k: (b if k == "LoaderFeatures" else b.decode("utf-16-le")) for k, b in v.items()}


def strings(data):
    return data.split("\0")[:-1] if isinstance(data, str) else []


@case.needs(LOADER, KERNEL, INITRD)
def test_bootcount_renames_and_reports():
    options = "console=ttyS0 handoff.marker=counted panic=-1"
    tree = esp.loader_tree({"a-counted+3.conf": entry("Counted", options, sort_key="a"),
                            "b-other.conf": entry("Other", "x", sort_key="b")}, "timeout 0\n")
    img = esp.image(tree)
    res = qemu.run_qemu(img, TIMEOUT)
    v = bli(qemu.expect_linux_saw(res, options))
    qemu.expect_eq(v.get("LoaderEntrySelected", "").rstrip("\0"), "a-counted",
                   "LoaderEntrySelected: the id without the counter", res)
    qemu.expect_eq(v.get("LoaderBootCountPath", "").rstrip("\0"), "\\loader\\entries\\a-counted+2-1.conf",
                   "LoaderBootCountPath: the renamed file", res)
    qemu.expect_eq(strings(v.get("LoaderEntries")), ["a-counted", "b-other", "auto-reboot-to-firmware-setup"],
                   "LoaderEntries: ids without counters, then OVMF's firmware-setup entry", res)
    features = int.from_bytes(v.get("LoaderFeatures", b""), "little")
    qemu.expect(features & (1 << 4) and features & (1 << 9),
                "LoaderFeatures has boot counting (bit 4) and saved entry (bit 9): %#x" % features, res)
    qemu.expect_eq(esp_files(img), ["a-counted+2-1.conf", "b-other.conf"], "the entry file on the ESP", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_bootcount_panicking_entry_falls_back():
    """Tries 2: two boots of a kernel that panics (no root, panic=-1: QEMU
    ends at the reset), then the entry is bad and the good one boots."""
    bad = "console=ttyS0 panic=-1 rdinit=/nonexistent handoff.marker=panics"
    good = "console=ttyS0 handoff.marker=fallback panic=-1"
    tree = esp.loader_tree({"a-new+2.conf": entry("New", bad, sort_key="a"),
                            "b-old.conf": entry("Old", good, sort_key="b")}, "timeout 0\n")
    img = esp.image(tree)
    for i, left in enumerate(("1-1", "0-2"), 1):
        res = qemu.run_qemu(img, TIMEOUT, name="%d-panic" % i)
        qemu.expect(res.time_of(r"booting 'New") is not None, "boot %d: the counted entry first" % i, res)
        qemu.expect(res.time_of(r"Kernel panic") is not None, "boot %d: the kernel panics" % i, res)
        qemu.expect_eq(esp_files(img), ["a-new+%s.conf" % left, "b-old.conf"], "after boot %d" % i, res)
    res = qemu.run_qemu(img, TIMEOUT, name="3-fallback")
    v = bli(qemu.expect_linux_saw(res, good))
    qemu.expect_eq(v.get("LoaderEntrySelected", "").rstrip("\0"), "b-old", "the good entry boots", res)
    qemu.expect_eq(strings(v.get("LoaderEntries"))[:2], ["b-old", "a-new"], "the bad entry sorts last", res)
    qemu.expect("LoaderBootCountPath" not in v, "an uncounted boot sets no LoaderBootCountPath", res)
    qemu.expect_eq(esp_files(img), ["a-new+0-2.conf", "b-old.conf"], "a bad entry is not renamed again", res)


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_bootcount_ext4_boots_uncounted():
    options = "console=ttyS0 handoff.marker=ext4-counted panic=-1"
    img = disk.build(os.path.join(case.workdir(), "disk.img"), esp.loader_files(),
                     esp.boot_files({"c+3.conf": entry("On ext4", options)}))
    res = qemu.run_qemu(img, TIMEOUT)
    v = bli(qemu.expect_linux_saw(res, options))
    qemu.expect(res.time_of(r"entry 'c': /loader/entries/c\+3\.conf is on a read-only volume \(partition 2\): "
                            r"booting without boot counting") is not None,
                "the warning names entry and partition", res)
    qemu.expect_eq(v.get("LoaderEntrySelected", "").rstrip("\0"), "c", "LoaderEntrySelected", res)
    qemu.expect("LoaderBootCountPath" not in v, "no LoaderBootCountPath", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_default_saved_remembers_the_menu_choice():
    first = "console=ttyS0 handoff.marker=saved-first panic=-1"
    second = "console=ttyS0 handoff.marker=saved-second panic=-1"
    tree = esp.loader_tree({"a.conf": entry("A", first, sort_key="a"), "b.conf": entry("B", second, sort_key="b")},
                           "timeout 3\ndefault @saved\n")
    img = esp.image(tree)
    res = qemu.run_qemu(img, TIMEOUT, name="1-choose", keys=[(MENU, DOWN), (r"> B", ENTER)])
    v = bli(qemu.expect_linux_saw(res, second))
    qemu.expect_eq(v.get("LoaderEntryLastBooted", "").rstrip("\0"), "b", "LoaderEntryLastBooted", res)
    res = qemu.run_qemu(img, TIMEOUT, name="2-saved", vars_file=os.path.join(res.run_dir, "OVMF_VARS.fd"))
    v = bli(qemu.expect_linux_saw(res, second))
    qemu.expect_eq(v.get("LoaderEntrySelected", "").rstrip("\0"), "b", "the saved entry boots without a key", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_auto_entries_poweroff_and_firmware():
    tree = esp.loader_tree({"a.conf": entry("A", "console=ttyS0 panic=-1", sort_key="a")},
                           "timeout menu-force\nauto-poweroff yes\nauto-reboot yes\n")
    img = esp.image(tree)
    # menu: A, Reboot Into Firmware Interface, Power Off The System, Reboot The System
    res = qemu.run_qemu(img, 120, name="1-poweroff", keys=[(MENU, DOWN), (r"> Reboot Into", DOWN),
                                                           (r"> Power Off The System", ENTER)])
    qemu.expect(res.time_of(r"> Reboot The System") is None and res.time_of(r"booting ") is None,
                "nothing booted", res)
    qemu.expect(not res.timed_out and res.time_of(r"> Power Off The System") is not None,
                "QEMU ended after choosing Power Off", res)
    res = qemu.run_qemu(img, 120, name="2-firmware", keys=[(MENU, DOWN), (r"> Reboot Into Firmware", ENTER)])
    qemu.expect(not res.timed_out and res.time_of(r"booting ") is None, "the firmware entry resets", res)
    # OVMF consumes OsIndications and shows its setup front page: no handoff menu.
    res = qemu.run_qemu(img, 60, name="3-setup", vars_file=os.path.join(res.run_dir, "OVMF_VARS.fd"),
                        stop_on=r"Device Manager|Boot Manager Menu|handoff [0-9.]+ boot menu")
    qemu.expect(res.time_of(r"Device Manager") is not None, "OVMF's setup front page comes up", res)
    qemu.expect(res.time_of(MENU) is None, "handoff did not start", res)
