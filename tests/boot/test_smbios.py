"""What a VM's host adds through SMBIOS OEM strings (QEMU -smbios type=11), as
systemd-boot and systemd-stub take it: io.systemd.boot.kernel-cmdline-extra
after a Type #1 "linux" entry's options (measured into PCR 12 with them, one
line), io.systemd.stub.kernel-cmdline-extra after a UKI's command line (PCR 12,
an event of its own), whatever Secure Boot says (systemd's rule: only a
confidential VM ignores them, tests/unit/test_smbios.c). And a UKI's .ucode
(`handoff uki --microcode`): the first initrd the kernel gets, measured into
PCR 11 with the other sections. Checked on what Linux and the probe report.
"""
import hashlib
import io
import os

import measured
from harness import case, esp, firmware, qemu, tool
from harness.esp import entry
from harness.initramfs import Cpio
from harness.paths import INITRD, KERNEL, LOADER, PROBE, STUB, TOOL, root_path
from measured_boot import eventlog
from test_secureboot import signed_loader

TIMEOUT = 300
OPTIONS = "console=ttyS0 handoff.marker=smbios panic=-1"
BOOT_EXTRA = "handoff.smbios=boot quiet"
STUB_EXTRA = "handoff.smbios=stub"


def smbios_args(boot=BOOT_EXTRA, stub=STUB_EXTRA):
    """QEMU's OEM strings; a comma in a value would be doubled (QEMU's option syntax)."""
    args = []
    for name, value in (("boot", boot), ("stub", stub)):
        if value is not None:
            args += ["-smbios", "type=11,value=io.systemd.%s.kernel-cmdline-extra=%s" % (name, value)]
    return args


def pcr12_events(res):
    events = measured.parse_event_log(eventlog(res) or b"")
    return [e[3] for e in events if e[0] == 12 and e[1] == measured.EV_IPL]


@case.needs(LOADER, KERNEL, INITRD)
def test_smbios_boot_extra_after_type1_options():
    """A Type #1 entry: its options, a space, the boot extra (the stub extra is
    a UKI's, not this kernel's); PCR 12 is that whole line, one EV_IPL event."""
    img = esp.image(esp.loader_tree({"d.conf": entry("Debian", OPTIONS)}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True, extra_args=smbios_args())
    line = OPTIONS + " " + BOOT_EXTRA
    init = qemu.expect_linux_saw(res, line)
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(line).hex().upper(),
                   "PCR 12 = the entry's options with the SMBIOS extra, as systemd-boot measures them", res)
    qemu.expect_eq(pcr12_events(res), [measured.utf16z(line)], "PCR 12's one event describes that line", res)


def uki_esp(uki, loader):
    files = {"EFI/Linux/u.efi": uki} if loader else {"EFI/BOOT/BOOTX64.EFI": uki}
    if loader:
        files.update(esp.loader_files(loader, "timeout 0\n"))
    return esp.image(esp.tree(files))


def stub_extra_measured(from_menu):
    """A UKI with .cmdline, from OVMF itself or from handoff's menu (Type #2:
    the loader's direct path, which adds no boot extra): .cmdline, a space,
    the stub extra; PCR 12 is the extra alone (the sealed .cmdline is in PCR
    11), StubPcrKernelParameters says 12."""
    uki = tool.uki(os.path.join(case.workdir(), "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="SMBIOS UKI"')
    res = qemu.run_qemu(uki_esp(uki, root_path(LOADER) if from_menu else None), TIMEOUT, tpm=True,
                        extra_args=smbios_args())
    init = qemu.expect_linux_saw(res, OPTIONS + " " + STUB_EXTRA)
    pcrs = init.get("pcr_sha256") or {}
    qemu.expect_eq(pcrs.get("12"), measured.options_pcr12(STUB_EXTRA).hex().upper(),
                   "PCR 12 = the SMBIOS extra, as systemd-stub measures it", res)
    qemu.expect_eq(pcr12_events(res), [measured.utf16z(STUB_EXTRA)], "PCR 12's one event is the extra", res)
    v = {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}
    qemu.expect_eq(v.get("StubPcrKernelParameters"), measured.utf16z("12"), "StubPcrKernelParameters", res)


case.each(globals(), stub_extra_measured, {
    "test_smbios_stub_extra_uki_from_firmware": (False,),
    "test_smbios_stub_extra_uki_from_menu": (True,),
}, needs=(TOOL, STUB, LOADER, KERNEL, INITRD))


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_smbios_stub_extra_under_secure_boot():
    """Secure Boot on: a signed UKI's sealed .cmdline still gets the stub
    extra (systemd-stub ignores SMBIOS only in a confidential VM): how a VM
    user adds console= to a signed image."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    uki = tool.uki(os.path.join(wd, "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="Signed UKI"', stub=None,
                   sign=(key, cert))
    res = qemu.run_qemu(uki_esp(uki, signed_loader()), TIMEOUT, secure_boot=True,
                        extra_args=smbios_args(stub="console=ttyS0,,115200 " + STUB_EXTRA))
    init = qemu.expect_linux_saw(res, OPTIONS + " console=ttyS0,115200 " + STUB_EXTRA)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)


@case.needs(LOADER, KERNEL, INITRD)
def test_smbios_boot_extra_under_secure_boot():
    """Secure Boot on, a signed kernel in a Type #1 entry: the boot extra is
    appended as with Secure Boot off (systemd-boot's rule)."""
    wd = case.workdir()
    key, cert = firmware.snakeoil_key(wd)
    kernel = open(firmware.sbsign(root_path(KERNEL), os.path.join(wd, "vmlinuz.signed"), key, cert), "rb").read()
    img = esp.image(esp.loader_tree({"d.conf": entry("Debian", OPTIONS)}, "timeout 0\n", {"debian/vmlinuz": kernel},
                                    loader=signed_loader()))
    res = qemu.run_qemu(img, TIMEOUT, secure_boot=True, extra_args=smbios_args())
    init = qemu.expect_linux_saw(res, OPTIONS + " " + BOOT_EXTRA)
    qemu.expect_eq(init.get("secureboot"), "1", "Linux's SecureBoot variable", res)


def microcode_cpio():
    """A newc archive as distributions ship early microcode, with a placeholder."""
    f = io.BytesIO()
    c = Cpio(f)
    for d in ("kernel", "kernel/x86", "kernel/x86/microcode"):
        c.dir(d)
    c.file("kernel/x86/microcode/GenuineIntel.bin", b"handoff microcode placeholder\n")
    c.trailer()
    data = f.getvalue()
    path = os.path.join(case.workdir(), "ucode.cpio")
    with open(path, "wb") as out:
        out.write(data)
    return path, data


def ucode_first(from_menu):
    """The probe in a UKI with .ucode and .initrd: the initrd it was handed
    is the microcode archive, padded to 4 bytes, then .initrd, byte for byte."""
    wd = case.workdir()
    path, ucode = microcode_cpio()
    initrd = os.path.join(wd, "initrd.bin")
    with open(initrd, "wb") as f:
        f.write(os.urandom(5000))
    cmdline = "console=ttyS0 handoff.probe=ucode quiet"
    uki = tool.uki(os.path.join(wd, "u.efi"), PROBE, initrd, cmdline, 'PRETTY_NAME="ucode"',
                   extra=("--microcode", path))
    data = open(uki, "rb").read()
    qemu.expect_eq(measured.section(data, ".ucode"), ucode, ".ucode holds the archive", None)
    res = qemu.run_qemu(uki_esp(uki, root_path(LOADER) if from_menu else None), 120)
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line", res)
    want = ucode + bytes(-len(ucode) % 4) + open(initrd, "rb").read()
    qemu.expect_eq((p.get("cmdline"), p.get("initrd_size"), p.get("initrd_sha256")),
                   (cmdline, len(want), hashlib.sha256(want).hexdigest()),
                   "the probe's initrd: .ucode first, then .initrd", res)


case.each(globals(), ucode_first, {
    "test_ucode_is_the_first_initrd_from_firmware": (False,),
    "test_ucode_is_the_first_initrd_from_menu": (True,),
}, needs=(TOOL, STUB, LOADER, PROBE))


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_ucode_measured_into_pcr11():
    """Debian's kernel in a UKI with .ucode, a TPM: it boots (Linux unpacks the
    microcode archive too) and PCR 11 is the sections with .ucode among them,
    in the UKI specification's order, as systemd-stub measures it."""
    path, _ = microcode_cpio()
    uki = tool.uki(os.path.join(case.workdir(), "u.efi"), KERNEL, INITRD, OPTIONS, 'PRETTY_NAME="ucode"',
                   extra=("--microcode", path))
    data = open(uki, "rb").read()
    res = qemu.run_qemu(uki_esp(uki, None), TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, OPTIONS)
    qemu.expect_eq((init.get("pcr_sha256") or {}).get("11"), measured.uki_pcr11(data).hex().upper(),
                   "PCR 11 = the UKI's sections, .ucode included", res)
