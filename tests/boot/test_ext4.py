"""Boot from ext4: a GPT disk whose ESP holds only handoff, and an ext4
XBOOTLDR partition with the entries, Debian's kernel and the initramfs (built
by `handoff disk ... --xbootldr-fs ext4`). handoff reads the partition with its
own ext4 driver; every scheme must boot and the kernel must see an intact
initrd and exactly the configured command line. A UKI in the partition's
/EFI/Linux boots too, and a kernel with broken metadata gives a message that
names the partition and the structure, then the menu again.
"""
import os
import re
import shutil
import struct
import subprocess

import qemu
from test_loader import check_linux_saw, entry, INITRD, KERNEL, LOADER
from test_uki import make_uki, STUB

TOOL = "build/handoff"
TIMEOUT = 240


def ext4_disk(entries, loader_conf="timeout 0\n", files=None):
    """ESP: handoff and loader.conf. XBOOTLDR (ext4): @entries (name -> text) in
    /loader/entries, and @files (path -> source file; default: the kernel as
    /debian/vmlinuz and the initramfs as /debian/initrd.img)."""
    wd = qemu.workdir()
    esp, xb = os.path.join(wd, "esp"), os.path.join(wd, "xbootldr")
    for d in (esp, xb):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(esp, "EFI/BOOT"))
    os.makedirs(os.path.join(esp, "loader"))
    os.makedirs(xb)
    shutil.copyfile(qemu.root_path(LOADER), os.path.join(esp, "EFI/BOOT/BOOTX64.EFI"))
    with open(os.path.join(esp, "loader/loader.conf"), "w") as f:
        f.write(loader_conf)
    if files is None:
        files = {"debian/vmlinuz": qemu.root_path(KERNEL), "debian/initrd.img": qemu.root_path(INITRD)}
    for dest, src in files.items():
        os.makedirs(os.path.dirname(os.path.join(xb, dest)), exist_ok=True)
        shutil.copyfile(src, os.path.join(xb, dest))
    for name, text in entries.items():
        os.makedirs(os.path.join(xb, "loader/entries"), exist_ok=True)
        with open(os.path.join(xb, "loader/entries", name), "w") as f:
            f.write(text)
    img = os.path.join(wd, "disk.img")
    r = subprocess.run([qemu.root_path(TOOL), "disk", "-o", img, "--esp", esp, "--xbootldr", xb,
                        "--xbootldr-fs", "ext4"], capture_output=True, text=True)
    qemu.expect(r.returncode == 0, "handoff disk failed: %s" % r.stderr)
    return img


def partition_offset(img, number):
    """Byte offset of GPT partition @number (from the primary entry array)."""
    with open(img, "rb") as f:
        f.seek(512)
        hdr = f.read(92)
        entries_lba, entry_size = struct.unpack_from("<Q", hdr, 72)[0], struct.unpack_from("<I", hdr, 84)[0]
        f.seek(entries_lba * 512 + (number - 1) * entry_size + 32)
        return struct.unpack("<Q", f.read(8))[0] * 512


def corrupt_inode(img, part_offset, path):
    """Flip a byte of @path's extent header in its inode (so its metadata_csum no longer matches).
    Return the inode number."""
    dev = "%s?offset=%d" % (img, part_offset)
    out = subprocess.run(["debugfs", "-R", "imap %s" % path, dev], capture_output=True, text=True).stdout
    m = re.search(r"Inode (\d+) is part of block group \d+\s+located at block (\d+), offset (0x[0-9a-f]+)", out)
    qemu.expect(m is not None, "debugfs imap %s: %r" % (path, out))
    with open(img, "r+b") as f:
        f.seek(part_offset + 1024 + 0x18)
        block_size = 1024 << struct.unpack("<I", f.read(4))[0]
        where = part_offset + int(m.group(2)) * block_size + int(m.group(3), 16) + 0x28 + 2  # i_block: eh_entries
        f.seek(where)
        b = f.read(1)
        f.seek(where)
        f.write(bytes([b[0] ^ 0x40]))
    return int(m.group(1))


def ext4_test(protocol):
    options = "console=ttyS0 handoff.marker=ext4-%s panic=-1" % protocol
    res = qemu.run_qemu(ext4_disk({"debian-ext4.conf": entry("Debian on ext4", options, protocol)}), TIMEOUT)
    qemu.expect(res.time_of(r"entry 'Debian on ext4': loading /debian/vmlinuz from partition 2\b") is not None,
                "the kernel is read from the ext4 partition, named by its GPT number (2)", res)
    # Looking for optional paths (\EFI\Linux on the XBOOTLDR) is not an error.
    errors = [l for _, l in res.lines if re.search(r"handoff: (error|warning)", l)]
    qemu.expect(not errors, "no error or warning on a healthy ext4 XBOOTLDR, got %r" % errors[:3], res)
    qemu.expect(res.time_of(r"booting 'Debian on ext4' by %s" % protocol) is not None,
                "booted by %s" % protocol, res)
    init = check_linux_saw(res, options)
    uuid = init.get("loader", {}).get("LoaderDevicePartUUID", "")
    qemu.expect(re.fullmatch(r"[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}", uuid) is not None,
                "LoaderDevicePartUUID is the ESP's GPT partition GUID, got %r" % uuid, res)


@qemu.needs(TOOL, LOADER, KERNEL, INITRD)
def test_ext4_xbootldr_stub():
    ext4_test("stub")


@qemu.needs(TOOL, LOADER, KERNEL, INITRD)
def test_ext4_xbootldr_handover():
    ext4_test("handover")


@qemu.needs(TOOL, LOADER, KERNEL, INITRD)
def test_ext4_xbootldr_legacy():
    ext4_test("legacy")


@qemu.needs(TOOL, LOADER, KERNEL, INITRD)
def test_ext4_bad_metadata_returns_to_menu():
    """A kernel whose inode fails its checksum: the loader names the partition,
    the inode and the check, and the menu comes back; a good entry then boots."""
    good = "console=ttyS0 handoff.marker=ext4-after-corrupt panic=-1"
    img = ext4_disk({"a1.conf": entry("Corrupt kernel", "x", linux="/debian/vmlinuz-bad", sort_key="a1"),
                     "a2.conf": entry("Good", good, sort_key="a2")},
                    loader_conf="timeout menu-force\n",
                    files={"debian/vmlinuz": qemu.root_path(KERNEL), "debian/vmlinuz-bad": qemu.root_path(KERNEL),
                           "debian/initrd.img": qemu.root_path(INITRD)})
    ino = corrupt_inode(img, partition_offset(img, 2), "/debian/vmlinuz-bad")
    menu = r"handoff [0-9.]+ boot menu"
    res = qemu.run_qemu(img, TIMEOUT, keys=[(menu, b"1"), (menu, b"2")])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back)", res)
    qemu.expect(res.time_of(r"partition 2: inode %d: checksum mismatch" % ino) is not None,
                "the driver names the partition, inode %d and the failed check" % ino, res)
    qemu.expect(res.time_of(r"entry 'Corrupt kernel': /debian/vmlinuz-bad: cannot open: EFI_VOLUME_CORRUPTED") is not None,
                "the loader names the entry and the file", res)
    qemu.expect(res.time_of(r"booting 'Good' by") is not None, "the good entry boots after the error", res)
    check_linux_saw(res, good)


@qemu.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_ext4_uki_type2():
    """A UKI in /EFI/Linux of an ext4 XBOOTLDR that has no loader/entries at all:
    handoff finds it, titles it from its .osrel and starts it."""
    cmdline = "console=ttyS0 handoff.marker=ext4-uki panic=-1"
    uki = make_uki(os.path.join(qemu.workdir(), "uki.efi"), cmdline,
                   os_release='NAME="Handoff Test"\nPRETTY_NAME="Handoff ext4 UKI"\nID=htest\nVERSION_ID=8\n')
    res = qemu.run_qemu(ext4_disk({}, files={"EFI/Linux/htest-8.efi": uki}), TIMEOUT)
    qemu.expect(res.time_of(r"booting 'Handoff ext4 UKI \(8\)' by stub") is not None,
                "handoff lists the Type #2 entry of the ext4 partition and starts it", res)
    check_linux_saw(res, cmdline)
