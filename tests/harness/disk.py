"""Partitioned disks, made by the project's own tool (`build/handoff disk`:
protective MBR, both GPTs, a FAT32 ESP, optionally an XBOOTLDR, a root and a
data partition), so that every boot from a partitioned disk exercises it; and
reading them back: the partitions by the harness's own reader (gpt.py), the
files on a FAT partition, or on a bare FAT image, by mtools."""
import os
import subprocess

from . import case, esp, gpt, tool


def gpt_disk(out, esp_dir, xbootldr=None, xbootldr_fs=None, root=None, size_mib=None, esp_size_mib=None,
             data=None, arch=None):
    """A GPT disk image @out: the ESP from the tree @esp_dir, then the optional
    XBOOTLDR (vfat or ext4), root and data (ext4) partitions from their trees.
    A root with loader entries is named in the image's loader.conf (handoff
    disk does that); a data partition never is. @arch: `--arch` (the tool adds
    its loader for that machine as the ESP's fallback loader)."""
    args = ["disk", "-o", out, "--esp", esp_dir]
    if arch:
        args += ["--arch", arch]
    if esp_size_mib:
        args += ["--esp-size", str(esp_size_mib)]
    if size_mib:
        args += ["--size", str(size_mib)]
    if xbootldr:
        args += ["--xbootldr", xbootldr]
    if xbootldr_fs:
        args += ["--xbootldr-fs", xbootldr_fs]
    if root:
        args += ["--root", root]
    if data:
        args += ["--data", data]
    tool.handoff(*args)
    return out


def mtools(prog, img, *args, partition=None, check=True):
    """An mtools program (mdir, mcopy, mshowfat, ...) on @img: a bare FAT
    image, or its GPT partition number @partition. The completed process
    (bytes); AssertionError when it fails and @check."""
    target = img if partition is None else "%s@@%d" % (img, gpt.partition_offset(img, partition))
    r = subprocess.run([prog, "-i", target, *args], capture_output=True,
                       env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    if check and r.returncode != 0:
        raise AssertionError("%s -i %s %s: %s" % (prog, target, " ".join(args), r.stderr.decode(errors="replace")))
    return r


def fat_names(img, directory, partition=None, check=True):
    """The names in @directory of a FAT file system, sorted, as FAT stores them."""
    out = mtools("mdir", img, "-b", "::" + directory, partition=partition, check=check).stdout.decode()
    return sorted(os.path.basename(line.strip()) for line in out.splitlines() if line.strip())


def build(out, esp_files, xbootldr_files=None, xbootldr_fs="ext4", size_mib=None, trees=None, arch=None):
    """gpt_disk() from file maps (esp.py): the ESP's, and the XBOOTLDR's when
    given. The trees are made in @trees (default: workdir())."""
    trees = trees or case.workdir()
    esp_dir = esp.tree(esp_files, os.path.join(trees, "esp"))
    xbootldr = esp.tree(xbootldr_files, os.path.join(trees, "xbootldr")) if xbootldr_files is not None else None
    return gpt_disk(out, esp_dir, xbootldr, xbootldr_fs if xbootldr else None, size_mib=size_mib, arch=arch)
