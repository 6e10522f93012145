"""Large unified kernel images from handoff's menu (issue 24): booting an
image never holds more copies of it than systemd-boot does. A systemd-stub
UKI whose initrd is about half the guest's RAM boots from \\EFI\\Linux: the
loader's read buffer is gone before the image starts, so the firmware's
loaded copy and the kernel's copy of the initrd are the only two. (Three
copies do not fit: on the old loader the kernel's EFI stub reports
EFI_OUT_OF_RESOURCES for the initrd.) A UKI of handoff's own stub boots from
the loader's buffer, its .initrd taken there by the kernel: one copy (the
kernel's LoadFile2 copy beside the buffer fitted only where KASLR left a
free range large enough).
"""
import os
import re
import shutil

from harness import case, esp, initramfs, loaders, qemu, tool
from harness.paths import KERNEL, LOADER, STUB, TOOL, root_path

TIMEOUT = 300
DIRECT = r"a UKI of handoff's stub: its sections boot from the buffer read"
LF2_COPY = r"EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path"
# A UKI of ~255 MiB in 896 MiB of RAM: two copies of it fit beside OVMF and the
# kernel, three do not (on the old loader: "the image returned
# (EFI_OUT_OF_RESOURCES)", the kernel's stub failing to copy its initrd).
PAD_MIB = int(os.environ.get("HANDOFF_UKI_MEM_PAD", "240"))     # initrd padding: the UKI is ~PAD_MIB + 14 MiB
MEMORY_MIB = int(os.environ.get("HANDOFF_UKI_MEM_RAM", "896"))  # guest RAM


def big_uki(stub):
    """A UKI on @stub whose .initrd is the test initramfs padded with PAD_MIB
    MiB of incompressible data (uncompressed)."""
    wd = case.workdir()
    initrd = os.path.join(wd, "initrd-pad.cpio")
    with open(initrd + ".sha256", "w") as f:
        f.write(initramfs.build(initrd, pad_mib=PAD_MIB) + "\n")
    cmdline = "console=ttyS0 handoff.marker=uki-big panic=-1"
    return tool.uki(os.path.join(wd, "big.efi"), KERNEL, initrd, cmdline, stub=stub), cmdline, initrd


def expect_initrd_in_place(res):
    """The kernel took the .initrd where handoff read it (handover, linux_load.c): its EFI stub made no
    copy by LoadFile2 (with that copy the old loader depended on where KASLR put the kernel), and its
    RAMDISK starts on a page (Linux frees it page by page)."""
    qemu.expect(res.time_of(r"stub: booting the embedded kernel by handover") is not None,
                "the embedded kernel boots by handover", res)
    qemu.expect(res.time_of(LF2_COPY) is None, "the kernel's EFI stub did not copy the initrd (LoadFile2)", res)
    ramdisk = [m for m in (re.search(r"RAMDISK: \[mem (0x[0-9a-f]+)-", ln) for _, ln in res.lines) if m]
    qemu.expect(len(ramdisk) == 1 and int(ramdisk[0].group(1), 16) % 4096 == 0,
                "the kernel's RAMDISK is one page-aligned range", res)


def big_uki_from(loader, stub, scheme_line, direct=None):
    """@stub's UKI in \\EFI\\Linux, started by @loader from its menu; @direct:
    whether handoff boots it from its buffer (a UKI of its own stub) or not."""
    uki, cmdline, initrd = big_uki(stub)
    tree = esp.tree({"EFI/BOOT/BOOTX64.EFI": loader(), "EFI/Linux/big.efi": uki, "loader/loader.conf": b"timeout 0\n"})
    img = esp.image(tree)
    shutil.rmtree(tree)  # ~250 MiB each: only the image is kept
    os.unlink(uki)
    res = qemu.run_qemu(img, TIMEOUT, memory=MEMORY_MIB, stop_on=r"Problems: |HANDOFF-INIT ")
    os.unlink(img)
    if scheme_line:
        qemu.expect(res.time_of(scheme_line) is not None, "handoff boots the UKI: %s" % scheme_line, res)
    if direct is not None:
        qemu.expect_eq(res.time_of(DIRECT) is not None, direct, "booted from handoff's buffer (boot_uki.c)", res)
    if direct:
        expect_initrd_in_place(res)
    qemu.expect_linux_saw(res, cmdline, initrd=initrd)
    os.unlink(initrd)


case.each(globals(), big_uki_from, {
    "test_big_systemd_stub_uki_from_handoff": (lambda: root_path(LOADER), loaders.SDSTUB, r"booting '.*' by stub",
                                               False),
    "test_big_handoff_stub_uki_from_handoff": (lambda: root_path(LOADER), STUB, r"booting '.*' by stub", True),
    # the reference: systemd-boot boots the same image in the same RAM
    "test_big_systemd_stub_uki_from_systemd_boot": (lambda: loaders.need(loaders.SDBOOT), loaders.SDSTUB, None),
}, needs=(TOOL, LOADER, STUB, KERNEL, loaders.SDSTUB, loaders.SDBOOT))
