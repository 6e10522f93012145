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
import struct
import subprocess

from harness import case, disk, esp, gpt, qemu, tool
from harness.esp import entry
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL

TIMEOUT = 240


def ext4_disk(entries, loader_conf="timeout 0\n", files=None):
    """ESP: handoff and loader.conf. XBOOTLDR (ext4): @entries (name -> text) in
    /loader/entries, and @files (a file map; default: the kernel as
    /debian/vmlinuz and the initramfs as /debian/initrd.img)."""
    boot = esp.boot_files(entries) if files is None else {**esp.boot_files(entries, None, None), **files}
    return disk.build(os.path.join(case.workdir(), "disk.img"), esp.loader_files(loader_conf=loader_conf), boot)


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
    """The kernel, initrd and entry on an ext4 XBOOTLDR, booted by @protocol."""
    options = "console=ttyS0 handoff.marker=ext4-%s panic=-1" % protocol
    res = qemu.run_qemu(ext4_disk({"debian-ext4.conf": entry("Debian on ext4", options, protocol)}), TIMEOUT)
    qemu.expect(res.time_of(r"entry 'Debian on ext4': loading /debian/vmlinuz from partition 2\b") is not None,
                "the kernel is read from the ext4 partition, named by its GPT number (2)", res)
    # Looking for optional paths (\EFI\Linux on the XBOOTLDR) is not an error.
    errors = [l for _, l in res.lines if re.search(r"handoff: (error|warning)", l)]
    qemu.expect(not errors, "no error or warning on a healthy ext4 XBOOTLDR, got %r" % errors[:3], res)
    qemu.expect(res.time_of(r"booting 'Debian on ext4' by %s" % protocol) is not None,
                "booted by %s" % protocol, res)
    init = qemu.expect_linux_saw(res, options)
    uuid = init.get("loader", {}).get("LoaderDevicePartUUID", "")
    qemu.expect(re.fullmatch(r"[0-9a-f]{8}-([0-9a-f]{4}-){3}[0-9a-f]{12}", uuid) is not None,
                "LoaderDevicePartUUID is the ESP's GPT partition GUID, got %r" % uuid, res)


case.each(globals(), ext4_test, {"test_ext4_xbootldr_" + s: (s,) for s in ("stub", "handover", "legacy")},
          needs=(TOOL, LOADER, KERNEL, INITRD))


@case.needs(TOOL, LOADER, KERNEL, INITRD)
def test_ext4_bad_metadata_returns_to_menu():
    """A kernel whose inode fails its checksum: the loader names the partition,
    the inode and the check, and the menu comes back; a good entry then boots."""
    good = "console=ttyS0 handoff.marker=ext4-after-corrupt panic=-1"
    img = ext4_disk({"a1.conf": entry("Corrupt kernel", "x", linux="/debian/vmlinuz-bad", sort_key="a1"),
                     "a2.conf": entry("Good", good, sort_key="a2")},
                    loader_conf="timeout menu-force\n",
                    files={"debian/vmlinuz": KERNEL, "debian/vmlinuz-bad": KERNEL, "debian/initrd.img": INITRD})
    ino = corrupt_inode(img, gpt.partition_offset(img, 2), "/debian/vmlinuz-bad")
    menu = r"handoff [0-9.]+ boot menu"
    res = qemu.run_qemu(img, TIMEOUT, keys=[(menu, b"1"), (menu, b"2")])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back)", res)
    qemu.expect(res.time_of(r"partition 2: inode %d: checksum mismatch" % ino) is not None,
                "the driver names the partition, inode %d and the failed check" % ino, res)
    qemu.expect(res.time_of(r"entry 'Corrupt kernel': /debian/vmlinuz-bad: cannot open: EFI_VOLUME_CORRUPTED")
                is not None, "the loader names the entry and the file", res)
    qemu.expect(res.time_of(r"booting 'Good' by") is not None, "the good entry boots after the error", res)
    qemu.expect_linux_saw(res, good)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_ext4_uki_type2():
    """A UKI in /EFI/Linux of an ext4 XBOOTLDR that has no loader/entries at all:
    handoff finds it, titles it from its .osrel and starts it."""
    cmdline = "console=ttyS0 handoff.marker=ext4-uki panic=-1"
    uki = tool.uki(os.path.join(case.workdir(), "uki.efi"), initrd=INITRD, cmdline=cmdline,
                   os_release='NAME="Handoff Test"\nPRETTY_NAME="Handoff ext4 UKI"\nID=htest\nVERSION_ID=8\n')
    res = qemu.run_qemu(ext4_disk({}, files={"EFI/Linux/htest-8.efi": uki}), TIMEOUT)
    qemu.expect(res.time_of(r"booting 'Handoff ext4 UKI \(8\)' by stub") is not None,
                "handoff lists the Type #2 entry of the ext4 partition and starts it", res)
    qemu.expect_linux_saw(res, cmdline)
