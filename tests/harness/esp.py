"""ESP trees: a fresh directory holding the files a boot needs, the text of
a Boot Loader Specification entry, and a bare FAT image of a tree (mtools:
no root, no loop device). OVMF boots \\EFI\\BOOT\\BOOTX64.EFI from a bare FAT
image through its removable-media path; a test that needs a partition table
uses disk.gpt_disk() instead.

A file map is {path in the tree: bytes (the contents) or str (a file to copy,
relative to the repository root or absolute)}; a path ending in "/" with the
value None is an empty directory."""
import os
import shutil

from . import case, host, paths

FALLBACK = {"x64": "EFI/BOOT/BOOTX64.EFI", "ia32": "EFI/BOOT/BOOTIA32.EFI", "aa64": "EFI/BOOT/BOOTAA64.EFI"}
# Where boot_files() puts the kernel and the initrd, as an entry names them.
ESP_KERNEL, ESP_INITRD = "/debian/vmlinuz", "/debian/initrd.img"


def write(d, files):
    """Add @files (a file map) to the directory @d."""
    for rel, src in files.items():
        dst = os.path.join(d, rel)
        if src is None:
            os.makedirs(dst, exist_ok=True)
            continue
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if isinstance(src, bytes):
            with open(dst, "wb") as f:
                f.write(src)
        else:
            shutil.copyfile(paths.root_path(src), dst)


def tree(files, path=None):
    """A fresh directory (default: this test's workdir()/esp) holding @files."""
    path = path or os.path.join(case.workdir(), "esp")
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    write(path, files)
    return path


def entry(title, options, protocol=None, linux=ESP_KERNEL, initrds=(ESP_INITRD,), sort_key=None, extra=""):
    """A Type #1 entry's text (BLS): title, linux, sort-key, initrds, options, protocol, then @extra."""
    text = "title %s\nlinux %s\n" % (title, linux)
    if sort_key:
        text += "sort-key %s\n" % sort_key
    text += "".join("initrd %s\n" % i for i in initrds)
    text += "options %s\n" % options
    if protocol:
        text += "protocol %s\n" % protocol
    return text + extra


def loader_files(loader=paths.LOADER, loader_conf="timeout 0\n", arch="x64"):
    """A loader as the firmware's fallback for @arch, and \\loader\\loader.conf."""
    return {FALLBACK[arch]: loader, "loader/loader.conf": loader_conf.encode()}


def boot_files(entries, kernel=paths.KERNEL, initrd=paths.INITRD):
    """$BOOT: @entries ({file name: text}) in \\loader\\entries, the kernel and
    the initrd where entry() points by default (none when None)."""
    files = {}
    if kernel:
        files[ESP_KERNEL[1:]] = kernel
    if initrd:
        files[ESP_INITRD[1:]] = initrd
    files.update({"loader/entries/" + name: text.encode() for name, text in entries.items()})
    return files


def loader_tree(entries, loader_conf="timeout 0\n", files=None, loader=paths.LOADER, arch="x64",
                kernel=paths.KERNEL, initrd=paths.INITRD, path=None):
    """An ESP with @loader as the fallback loader, Debian's kernel and initrd,
    @entries and loader.conf, and further @files (a file map, last: it may
    replace any of these)."""
    return tree({**loader_files(loader, loader_conf, arch), "loader/entries/": None,
                 **boot_files(entries, kernel, initrd), **(files or {})}, path)


def _tree_size(d):
    total = 0
    for dp, dns, fns in os.walk(d):
        total += 4096 * (len(dns) + 1)
        for f in fns:
            total += os.path.getsize(os.path.join(dp, f)) + 4096
    return total


def image(src_dir, out_img=None, size_mib=64, label="HANDOFF"):
    """A FAT image (default: workdir()/esp.img) of the tree @src_dir, by mtools.

    FAT32 (mformat -F) for images >= 64 MiB, else mformat's own choice (FAT16
    or FAT12). The size grows past size_mib if the tree does not fit.
    Returns out_img.
    """
    host.need_tool("mformat", "mtools")
    out_img = out_img or os.path.join(case.workdir(), "esp.img")
    need = (_tree_size(src_dir) * 11 // 10 >> 20) + 8
    size_mib = max(size_mib, need)
    tmp = out_img + ".tmp"
    if os.path.exists(tmp):
        os.unlink(tmp)
    with open(tmp, "wb") as f:
        f.truncate(size_mib << 20)
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    cmd = ["mformat", "-i", tmp, "-v", label[:11]]
    if size_mib >= 64:
        cmd.append("-F")
    cmd.append("::")
    host.run(cmd, env)
    for name in sorted(os.listdir(src_dir)):
        host.run(["mcopy", "-i", tmp, "-s", "-p", "-Q", "-D", "o", os.path.join(src_dir, name), "::/"], env)
    os.replace(tmp, out_img)
    return out_img
