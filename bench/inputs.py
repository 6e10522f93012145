"""What the benchmark (bench/bench.py) boots, each rebuilt only when its inputs
change (a .key file beside it): the busybox initramfs with the benchmark's
/init, padded to each size; standalone GRUB images; UKIs; one GPT disk per
(loader, size), made by `handoff disk` (tests/harness/disk.py) with the same
layout for every loader."""
import hashlib
import os
import re
import shutil
import struct
import zlib

from harness import disk, esp, gpt, initramfs, loaders, paths, tool
from harness.loaders import SDBOOT

KERNEL = paths.root_path(paths.KERNEL)
HANDOFF = paths.root_path(paths.LOADER)
HANDOFF32 = paths.root_path(paths.LOADER32)
STUB = paths.root_path(paths.STUB)
TOOL = paths.root_path(paths.TOOL)

LOADERS = ("handoff-stub", "handoff-handover", "handoff-legacy", "handoff-uki", "handoff-uki-menu",
           "sdboot-uki-menu", "handoff-ext4", "systemd-boot", "grub", "handoffia32-stub",
           "handoffia32-handover", "handoffia32-legacy", "grub-ia32")
# Loaders booted on 32-bit OVMF (mixed mode).
IA32 = ("handoffia32-stub", "handoffia32-handover", "handoffia32-legacy", "grub-ia32")
# The same handoff UKI as handoff-uki, as the only entry (Type #2, \EFI\Linux) of a loader's menu.
UKI_MENU = {"handoff-uki-menu": HANDOFF, "sdboot-uki-menu": SDBOOT}
UKI_PATH = "EFI/Linux/debian.efi"
DISK_MIB = 1024           # ESP 1022 MiB, 4 KiB clusters; holds the 256 MiB UKI beside the 256 MiB initrd
LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

INIT_SCRIPT = r'''#!/bin/sh
echo BENCH-INIT
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
for m in /lib/modules/*.ko; do [ -f "$m" ] && insmod "$m" 2>/dev/null; done
mount -t efivarfs efivarfs /sys/firmware/efi/efivars 2>/dev/null
for v in LoaderTimeInitUSec LoaderTimeMenuUSec LoaderTimeExecUSec LoaderInfo StubInfo; do
    f=/sys/firmware/efi/efivars/$v-%s
    [ -f "$f" ] && echo "BENCH-VAR $v=$(tail -c +5 "$f" | tr -d '\000')"
done
echo BENCH-DONE
poweroff -f
sleep 5
''' % LOADER_GUID

GRUB_MODULES = ("part_gpt fat normal linux search search_fs_file all_video efi_gop efi_uga video_bochs video_cirrus "
                "gzio")

GRUB_MODULES = ("part_gpt fat normal linux search search_fs_file all_video efi_gop efi_uga video_bochs video_cirrus "
                "gzio")


_digests = {}


def chunks(path):
    """A file's bytes, 16 MiB at a time (initrds and disks of hundreds of MiB)."""
    with open(path, "rb") as f:
        while True:
            b = f.read(16 << 20)
            if not b:
                return
            yield b


def file_digest(path):
    """SHA-256 of a file, remembered per (path, size, mtime) for this run."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _digests:
        h = hashlib.sha256()
        for b in chunks(path):
            h.update(b)
        _digests[key] = h.hexdigest()
    return _digests[key]


def up_to_date(out, paths, extra=""):
    """True when @out was built from exactly these inputs; else records them for
    stamp() and returns False. Inputs: the files' contents and @extra."""
    key = hashlib.sha256(("\n".join([extra] + [file_digest(p) for p in paths])).encode()).hexdigest()
    up_to_date.pending[out] = key
    try:
        with open(out + ".key") as f:
            return os.path.isfile(out) and f.read().strip() == key
    except OSError:
        return False


up_to_date.pending = {}


def stamp(out):
    with open(out + ".key", "w") as f:
        f.write(up_to_date.pending.pop(out) + "\n")
    return out


def build_initrd(work, mib):
    """busybox initramfs with BENCH's /init, padded to `mib` MiB, uncompressed."""
    out = os.path.join(work, "initrd-%d.cpio" % mib)
    recipe = [initramfs.__file__]
    if up_to_date(out, recipe, INIT_SCRIPT):
        return out
    base = os.path.join(work, "initrd-base.cpio")
    if not up_to_date(base, recipe, INIT_SCRIPT):
        initramfs.build(base, pad_mib=0, init_script=INIT_SCRIPT, compress=False)
        stamp(base)
    base_mib = (os.path.getsize(base) + (1 << 20) - 1) >> 20
    initramfs.build(out + ".part", pad_mib=max(1, mib - base_mib), init_script=INIT_SCRIPT, compress=False)
    os.replace(out + ".part", out)
    return stamp(out)


def build_grub(work, cmdline, target="x86_64-efi", name="grubx64.efi"):
    """A standalone GRUB image with its config embedded (memdisk)."""
    cfg = ("set timeout=0\n"
           "insmod part_gpt\ninsmod fat\ninsmod all_video\n"
           "search --no-floppy --set=root --file /debian/vmlinuz\n"
           "linux /debian/vmlinuz %s\n"
           "initrd /debian/initrd.img\n"
           "boot\n" % cmdline)
    return loaders.grub_standalone(os.path.join(work, name), cfg, target, "part_gpt fat", GRUB_MODULES)


def build_uki(work, initrd, mib, cmdline):
    return tool.uki(os.path.join(work, "uki-%d.efi" % mib), KERNEL, initrd, cmdline)


def boot_files(initrd, cmdline, protocol=None):
    """$BOOT: the Type #1 entry, the kernel and the initrd."""
    return esp.boot_files({"debian.conf": esp.entry("Debian", cmdline, protocol)}, KERNEL, initrd)


def esp_files(loader_efi, initrd, cmdline, protocol=None, arch="x64"):
    """The ESP: @loader_efi as the fallback loader, loader.conf, and $BOOT."""
    return {**esp.loader_files(loader_efi, "timeout 0\n", arch), **boot_files(initrd, cmdline, protocol)}


def make_disk(img, files, xbootldr=None):
    """A GPT disk of DISK_MIB by `handoff disk` from the ESP's files and the
    ext4 XBOOTLDR's; the trees go once it is written."""
    trees = img + ".trees"
    disk.build(img, files, xbootldr, size_mib=DISK_MIB, trees=trees)
    shutil.rmtree(trees)
    return img


def build_disk(work, loader, mib, initrd, grub, grub32, cmdline):
    """The disk for (loader, size): the loader as the firmware's fallback,
    the entry (with the scheme of a handoff-SCHEME), the kernel and the
    initrd; handoff-ext4 has all but handoff on an ext4 XBOOTLDR. The UKI
    carries the initrd inside itself, and its ESP still holds the same files
    so the layout is the same; handoff-uki-menu and sdboot-uki-menu have the
    same UKI in \\EFI\\Linux as their menu's only entry (no Type #1 entry)."""
    if loader not in LOADERS:
        raise SystemExit("bench: unknown loader %r (known: %s)" % (loader, ", ".join(LOADERS)))
    img = os.path.join(work, "disk-%s-%d.img" % (loader, mib))
    binary = {"handoff-uki": STUB, "handoff-uki-menu": STUB, "sdboot-uki-menu": STUB, "systemd-boot": SDBOOT,
              "grub": grub, "grub-ia32": grub32, "handoffia32-stub": HANDOFF32, "handoffia32-handover": HANDOFF32,
              "handoffia32-legacy": HANDOFF32}.get(loader, HANDOFF)
    used = [binary, KERNEL, TOOL, initrd] + ([UKI_MENU[loader]] if loader in UKI_MENU else [])
    if up_to_date(img, used, "%s %s %d" % (loader, cmdline, DISK_MIB)):
        return img
    if loader == "handoff-ext4":
        return stamp(make_disk(img, esp.loader_files(HANDOFF), boot_files(initrd, cmdline, "handover")))
    if loader == "handoff-uki":
        binary = build_uki(work, initrd, mib, cmdline)
    if loader in UKI_MENU:  # the kernel and initrd stay (same layout), but no Type #1 entry: the UKI is the menu
        uki = build_uki(work, initrd, mib, cmdline)
        files = {**esp.loader_files(UKI_MENU[loader]), **esp.boot_files({}, KERNEL, initrd), UKI_PATH: uki}
        return stamp(make_disk(img, files))
    protocol = loader.split("-", 1)[1] if loader.startswith("handoff") and loader != "handoff-uki" else None
    files = esp_files(binary, initrd, cmdline, protocol, "ia32" if loader in IA32 else "x64")
    return stamp(make_disk(img, files))


def fat_geometry(img):
    """The ESP's (partition 1) FAT layout, from its boot sector."""
    with open(img, "rb") as f:
        f.seek(gpt.partition_offset(img, 1))
        b = f.read(512)
    bps = struct.unpack_from("<H", b, 11)[0]
    spc = b[13]
    reserved = struct.unpack_from("<H", b, 14)[0]
    nfats = b[16]
    fatsz = struct.unpack_from("<H", b, 22)[0] or struct.unpack_from("<I", b, 36)[0]
    return {"bytes_per_sector": bps, "cluster_bytes": bps * spc,
            "data_offset": (reserved + nfats * fatsz) * bps}


def initrd_extent(img):
    """(offset in the partition, length) of /debian/initrd.img; it must be one run of clusters."""
    out = disk.mtools("mshowfat", img, "::/debian/initrd.img", partition=1).stdout.decode()
    runs = re.findall(r"<(\d+)-(\d+)>", out)
    if len(runs) != 1:
        raise SystemExit("bench: initrd is not contiguous on %s: %s" % (img, out.strip()))
    g = fat_geometry(img)
    first = int(runs[0][0])
    return g["data_offset"] + (first - 2) * g["cluster_bytes"], g


def file_crc32(path):
    crc = 0
    for b in chunks(path):
        crc = zlib.crc32(b, crc)
    return crc
