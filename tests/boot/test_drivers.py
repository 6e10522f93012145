"""UEFI drivers from the ESP (issue 32 "Drivers"): a GPT disk whose XBOOTLDR
partition is btrfs (mkfs.btrfs --rootdir, never mounted) with the entry,
Debian's kernel and the initramfs; the ESP holds the loader and Debian's
btrfs driver from the refind package (tests/boot/fetch-refind.sh). The
firmware has no btrfs driver and handoff none of its own, so Linux boots only
when the loader has loaded the driver and connected it to the partition.
systemd-boot boots the same disk with the driver in \\EFI\\systemd\\drivers.
Under Secure Boot the unsigned driver is refused by name and an entry on the
ESP still boots.
"""
import os
import subprocess

from harness import case, disk, esp, gpt, qemu
from harness.esp import entry
from harness.paths import CACHE, INITRD, KERNEL, LOADER, TOOL, root_path
import test_secureboot

TIMEOUT = 240
BTRFS_DRIVER = CACHE + "/refind/btrfs_x64.efi"
HANDOFF_DIR = "EFI/handoff/drivers/btrfs_x64.efi"
SYSTEMD_DIR = "EFI/systemd/drivers/btrfs_x64.efi"


def btrfs_disk(esp_files, entries):
    """A GPT disk: the ESP from @esp_files, partition 2 (XBOOTLDR) a btrfs of
    @entries, the kernel and the initrd (esp.boot_files()' places)."""
    wd = case.workdir()
    boot = esp.tree(esp.boot_files(entries), os.path.join(wd, "xbootldr"))
    # handoff disk lays out the partitions (its XBOOTLDR as ext4, sized for
    # the tree with room to spare); the partition's bytes are then replaced.
    img = disk.gpt_disk(os.path.join(wd, "disk.img"), esp.tree(esp_files, os.path.join(wd, "esp")),
                        boot, "ext4", size_mib=96)
    part = gpt.partition(img, 2)
    offset, size = part["first"] * gpt.SECTOR, (part["last"] - part["first"] + 1) * gpt.SECTOR
    fs = os.path.join(wd, "btrfs.img")
    with open(fs, "wb") as f:
        f.truncate(size)
    subprocess.run(["mkfs.btrfs", "-q", "-f", "--mixed", "-L", "xbootldr", "--rootdir", boot, fs],
                   check=True, capture_output=True)
    with open(fs, "rb") as src, open(img, "r+b") as dst:
        dst.seek(offset)
        dst.write(src.read())
    os.unlink(fs)
    return img


def boots_from_btrfs(esp_files, marker, loader_line):
    options = "console=ttyS0 handoff.marker=%s panic=-1" % marker
    img = btrfs_disk(esp_files, {"btrfs.conf": entry("Debian on btrfs", options)})
    res = qemu.run_qemu(img, TIMEOUT)
    if loader_line:
        qemu.expect(res.time_of(loader_line) is not None, "the loader said: %s" % loader_line, res)
        qemu.expect(res.time_of(r"entry 'Debian on btrfs': loading /debian/vmlinuz from partition 2\b")
                    is not None, "the kernel is read from the btrfs partition (2)", res)
    # systemd-boot adds initrd= for the kernel's stub; handoff passes the line as written
    qemu.expect_linux_saw(res, options, exact=loader_line is not None)


def driver_test(where):
    """handoff loads the driver from @where and boots the entry on btrfs."""
    files = {**esp.loader_files(), where: root_path(BTRFS_DRIVER)}
    boots_from_btrfs(files, "btrfs-" + where.split("/")[1],
                     r"driver \\EFI\\%s\\drivers\\btrfs_x64\.efi started" % where.split("/")[1])


case.each(globals(), driver_test,
          {"test_driver_btrfs_xbootldr_from_" + d.split("/")[1]: (d,) for d in (HANDOFF_DIR, SYSTEMD_DIR)},
          needs=(TOOL, LOADER, KERNEL, INITRD, BTRFS_DRIVER))


@case.needs(TOOL, LOADER, KERNEL, INITRD, BTRFS_DRIVER)
def test_driver_btrfs_disk_without_driver_has_no_entry():
    """The control: without the driver the btrfs partition's entry is not found."""
    img = btrfs_disk(esp.loader_files(), {"btrfs.conf": entry("Debian on btrfs", "console=ttyS0")})
    res = qemu.run_qemu(img, 90, stop_on=r"no boot entries|boot menu")
    qemu.expect(res.time_of(r"Debian on btrfs") is None and res.time_of(r"HANDOFF-INIT") is None,
                "no btrfs entry offered or booted without the driver", res)
    qemu.expect(res.time_of(r"no boot entries|boot menu") is not None, "the loader said it found nothing", res)


@case.needs(TOOL, KERNEL, INITRD, BTRFS_DRIVER, "/usr/lib/systemd/boot/efi/systemd-bootx64.efi")
def test_driver_btrfs_disk_boots_with_systemd_boot():
    """The reference: systemd-boot with the driver in \\EFI\\systemd\\drivers boots the same disk."""
    files = {esp.FALLBACK["x64"]: "/usr/lib/systemd/boot/efi/systemd-bootx64.efi",
             "loader/loader.conf": b"timeout 0\n", SYSTEMD_DIR: root_path(BTRFS_DRIVER)}
    boots_from_btrfs(files, "btrfs-systemd-boot", None)


@case.needs(TOOL, LOADER, KERNEL, INITRD, BTRFS_DRIVER)
def test_driver_unsigned_refused_under_secure_boot():
    """Secure Boot: the unsigned driver is refused by name, the loader goes on
    and boots the signed kernel from an entry on the ESP."""
    wd = case.workdir()
    k = test_secureboot.kernels()
    signed = os.path.join(wd, "vmlinuz.signed.efi")
    with open(signed, "wb") as f:
        f.write(k["signed"])
    options = "console=ttyS0 handoff.marker=driver-refused panic=-1"
    esp_files = {esp.FALLBACK["x64"]: test_secureboot.signed_loader(), "loader/loader.conf": b"timeout 0\n",
                 HANDOFF_DIR: root_path(BTRFS_DRIVER), "debian/vmlinuz": signed, "debian/initrd.img": INITRD,
                 "loader/entries/esp.conf": entry("Debian on the ESP", options).encode()}
    img = btrfs_disk(esp_files, {"btrfs.conf": entry("Debian on btrfs", "console=ttyS0", sort_key="0")})
    res = qemu.run_qemu(img, TIMEOUT, secure_boot=True)
    qemu.expect(res.time_of(r"driver \\EFI\\handoff\\drivers\\btrfs_x64\.efi: refused by Secure Boot")
                is not None, "the driver refused by name", res)
    qemu.expect(res.time_of(r"Debian on btrfs") is None, "no entry from the partition it would have read", res)
    qemu.expect_linux_saw(res, options)
