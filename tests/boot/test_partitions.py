"""Which partitions may supply boot entries (issue 21): the ESP handoff was
started from, XBOOTLDR partitions (tests/boot/test_ext4.py) and partitions
the ESP's loader.conf names by PARTUUID (boot-partition), nothing else.

The attacker: a Linux data partition (a separate /tmp or /home, writable by
any local user) with an entry of the same id as the real one, sort-key 0, the
same kernel and initrd and its own command line. The real entry must boot,
whether the default is left to the menu order, given exactly, by a glob or as
@saved; the kernel's command line (HANDOFF-INIT) tells which one booted. The
Debian layout with kernels in place in an ext4 /boot works when loader.conf
names that partition (handoff disk --root names it), and naming the data
partition makes handoff read it (so it is the naming that decides).
"""
import os

from harness import case, disk, esp, gpt, qemu
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, TOOL

TIMEOUT = 240
REAL = "console=ttyS0 handoff.marker=partitions-real panic=-1"
EVIL = "console=ttyS0 handoff.marker=partitions-evil panic=-1"


def data_tree():
    """The attacker's partition: /loader/entries/debian.conf first in menu
    order (sort-key 0), with the kernel and initrd it names."""
    return esp.tree(esp.boot_files({"debian.conf": entry("Evil", EVIL, sort_key="0")}),
                    os.path.join(case.workdir(), "data"))


def evil_disk(loader_conf):
    """ESP: handoff, @loader_conf and the real entry debian.conf; a Linux data
    partition (partition 2) with the attacker's entry."""
    esp_dir = esp.loader_tree({"debian.conf": entry("Debian", REAL)}, loader_conf)
    return disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), esp_dir, data=data_tree())


def expect_real(res):
    """The real entry booted: its command line exactly, the initrd intact, its id selected."""
    init = qemu.expect_linux_saw(res, REAL)
    qemu.expect(res.time_of(r"booting 'Debian' by") is not None, "handoff boots the real entry", res)
    qemu.expect(res.time_of(r"booting 'Evil'") is None, "the data partition's entry is not booted", res)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "debian", "LoaderEntrySelected", res)
    return init


def last_booted(init):
    """LoaderEntryLastBooted (non-volatile, so not in the report's "loader" part), decoded."""
    h = init.get("bli_hex", {}).get("LoaderEntryLastBooted")
    return bytes.fromhex(h).decode("utf-16-le").rstrip("\0") if h else None


def data_ignored(loader_conf):
    """A same-id entry with sort-key 0 on a Linux data partition does not take
    the real entry's place."""
    img = evil_disk(loader_conf)
    qemu.expect_eq([p["type"] for p in gpt.read(img)[3]], [gpt.ESP_TYPE, "0FC63DAF-8483-4772-8E79-3D69D8477DE4"],
                   "an ESP and a partition of type Linux filesystem data")
    expect_real(qemu.run_qemu(img, TIMEOUT))


case.each(globals(), data_ignored, {
    "test_partitions_data_ignored_first_in_order": ("timeout 0\n",),
    "test_partitions_data_ignored_default_exact": ("timeout 0\ndefault debian\n",),
    "test_partitions_data_ignored_default_glob": ("timeout 0\ndefault deb*\n",),
}, needs=(TOOL, LOADER, KERNEL, INITRD))


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_partitions_data_ignored_default_saved():
    """default @saved: the first boot saves the real entry's id, the second
    boots by that id; the same id on the data partition never wins."""
    img = evil_disk("timeout 0\ndefault @saved\n")
    res = qemu.run_qemu(img, TIMEOUT, name="1-first")
    init = expect_real(res)
    qemu.expect_eq(last_booted(init), "debian", "LoaderEntryLastBooted", res)
    res = qemu.run_qemu(img, TIMEOUT, name="2-saved", vars_file=os.path.join(res.run_dir, "OVMF_VARS.fd"))
    expect_real(res)


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_partitions_named_root_in_place():
    """Debian's layout: the kernel and initrd stay in the ext4 root's /boot, the
    entry in /boot/loader/entries, the ESP holds only handoff. handoff disk
    --root names the root partition in the image's loader.conf and it boots;
    the data partition's same-id entry is still ignored."""
    esp_dir = esp.tree(esp.loader_files(loader_conf="timeout 0\ndefault debian\n"))
    root = esp.tree({"boot/vmlinuz-6.1": KERNEL, "boot/initrd.img-6.1": INITRD,
                     "boot/loader/entries/debian.conf":
                         entry("Debian", REAL, linux="/vmlinuz-6.1", initrds=("/initrd.img-6.1",)).encode(),
                     "etc/hostname": b"guest\n"}, os.path.join(case.workdir(), "root"))
    img = disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), esp_dir, root=root, data=data_tree())
    parts = gpt.read(img)[3]
    conf = disk.mtools("mtype", img, "::/loader/loader.conf", partition=1).stdout.decode()
    qemu.expect("boot-partition %s" % parts[1]["guid"].lower() in conf.splitlines(),
                "the image's loader.conf names the root partition: %r" % conf)
    res = qemu.run_qemu(img, TIMEOUT)
    expect_real(res)
    qemu.expect(res.time_of(r"entry 'Debian': loading /boot/vmlinuz-6\.1 from partition 2\b") is not None,
                "the kernel is read from the named ext4 root (partition 2)", res)


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_partitions_named_data_is_read():
    """The control: once loader.conf names the data partition's PARTUUID, its
    entry is read (and, first in order, boots); so what kept it out above is
    the rule, not the partition's contents."""
    img = evil_disk("timeout 0\n")
    uuid = gpt.read(img)[3][1]["guid"].lower()
    conf = os.path.join(case.workdir(), "loader.conf")
    with open(conf, "w") as f:
        f.write("timeout 0\nboot-partition %s\n" % uuid)
    disk.mtools("mcopy", img, "-o", conf, "::/loader/loader.conf", partition=1)
    res = qemu.run_qemu(img, TIMEOUT)
    qemu.expect_linux_saw(res, EVIL)
    qemu.expect(res.time_of(r"entry 'Evil': loading /debian/vmlinuz from partition 2\b") is not None,
                "the named data partition (2) supplied the entry", res)
