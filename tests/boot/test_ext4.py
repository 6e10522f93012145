"""Boot from ext4: a GPT disk whose ESP holds only handoff, and an ext4
XBOOTLDR partition with the entries, Debian's kernel and the initramfs (built
by `handoff disk ... --xbootldr-fs ext4`). handoff reads the partition with its
own ext4 driver; every scheme must boot and the kernel must see an intact
initrd and exactly the configured command line.
"""
import os
import re
import shutil
import subprocess

import qemu
from test_loader import check_linux_saw, INITRD, KERNEL, LOADER

TOOL = "build/handoff"
TIMEOUT = 240


def ext4_disk(protocol, options):
    wd = qemu.workdir()
    esp, xb = os.path.join(wd, "esp"), os.path.join(wd, "xbootldr")
    for d in (esp, xb):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(os.path.join(esp, "EFI/BOOT"))
    os.makedirs(os.path.join(esp, "loader"))
    os.makedirs(os.path.join(xb, "loader/entries"))
    os.makedirs(os.path.join(xb, "debian"))
    shutil.copyfile(qemu.root_path(LOADER), os.path.join(esp, "EFI/BOOT/BOOTX64.EFI"))
    with open(os.path.join(esp, "loader/loader.conf"), "w") as f:
        f.write("timeout 0\n")
    shutil.copyfile(qemu.root_path(KERNEL), os.path.join(xb, "debian/vmlinuz"))
    shutil.copyfile(qemu.root_path(INITRD), os.path.join(xb, "debian/initrd.img"))
    with open(os.path.join(xb, "loader/entries/debian-ext4.conf"), "w") as f:
        f.write("title Debian on ext4\nlinux /debian/vmlinuz\ninitrd /debian/initrd.img\n"
                "options %s\nprotocol %s\n" % (options, protocol))
    img = os.path.join(wd, "disk.img")
    r = subprocess.run([qemu.root_path(TOOL), "disk", "-o", img, "--esp", esp, "--xbootldr", xb,
                        "--xbootldr-fs", "ext4"], capture_output=True, text=True)
    qemu.expect(r.returncode == 0, "handoff disk failed: %s" % r.stderr)
    return img


def ext4_test(protocol):
    options = "console=ttyS0 handoff.marker=ext4-%s panic=-1" % protocol
    res = qemu.run_qemu(ext4_disk(protocol, options), TIMEOUT)
    qemu.expect(res.time_of(r"entry 'Debian on ext4': loading /debian/vmlinuz from partition") is not None,
                "the kernel is read from the ext4 partition", res)
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
