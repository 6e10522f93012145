"""A UKI of handoff's stub with a section systemd-stub acts on and handoff's
stub cannot (.dtbauto, .hwids, .efifw: a device tree or firmware picked by
the machine's hardware IDs) is refused by name, not booted without it:
started by the firmware, and from handoff's menu (the loader runs the stub's
path on its buffer, src/efi/boot_uki.c), the same words. (`handoff uki` and
`inspect` say the same: tests/cli/cmd_images.py.)"""
import os

from harness import case, esp, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path

TIMEOUT = 300
OPTIONS = "console=ttyS0 handoff.marker=uki-sections panic=-1"
SAID = r"stub: UKI has a \.hwids section, which handoff's stub does not handle"


def refused(from_menu):
    wd = case.workdir()
    uki = tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Hwids UKI"')
    data = open(tool.add_section(uki, os.path.join(wd, "hwids.efi"), ".hwids", b"\0" * 64, wd), "rb").read()
    if from_menu:
        img = esp.image(esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/u.efi": data}, loader=root_path(LOADER)))
    else:
        img = esp.image(esp.tree({"EFI/BOOT/BOOTX64.EFI": data}))
    res = qemu.run_qemu(img, TIMEOUT, stop_on=SAID)
    qemu.expect(res.time_of(SAID) is not None, "the UKI is refused, naming .hwids", res)
    qemu.expect(res.time_of(r"HANDOFF-INIT") is None, "Linux did not start", res)


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_uki_section_refused_started_by_firmware():
    refused(from_menu=False)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_section_refused_from_menu():
    refused(from_menu=True)
