"""Unified kernel images built by `handoff uki` boot Debian's kernel from OVMF
directly, from systemd-boot and from handoff (\\EFI\\Linux, BLS Type #2), and a
kernel without an EFI stub boots from the same stub by the handover protocol.
Each boot checks what the kernel and its initramfs saw. A UKI with signed PCR
policies carries, for each boot phase, the policy of the PCR 11 value Linux
reads once it is up, signed with its .pcrpkey.
"""
import base64
import hashlib
import json
import os
import re
import struct
import subprocess

import measured
from harness import case, esp, loaders, qemu, tool
from harness.paths import INITRD, KERNEL, LOADER, STUB, TOOL, root_path

TIMEOUT = 240


# src/efi/boot_uki.c: a UKI of handoff's stub from the menu is not started, its sections boot from the buffer
DIRECT = r"a UKI of handoff's stub: its sections boot from the buffer read"


def make_uki(cmdline, kernel=KERNEL, os_release=None):
    return tool.uki(os.path.join(case.workdir(), "uki.efi"), kernel, INITRD, cmdline, os_release)


def kernel_without_efi_stub():
    """Debian's kernel with its PE header removed: bytes 0x00-0x3f and the PE
    header zeroed, so only the bzImage remains."""
    k = bytearray(open(root_path(KERNEL), "rb").read())
    pe = struct.unpack_from("<I", k, 0x3C)[0]
    k[0:0x40] = bytes(0x40)
    k[pe:0x1F1] = bytes(0x1F1 - pe)
    path = os.path.join(case.workdir(), "vmlinuz-nostub")
    with open(path, "wb") as f:
        f.write(k)
    return path


def esp_with(files):
    return esp.image(esp.tree(files))


def uki_from_ovmf(marker, kernel, scheme, why):
    """OVMF starts the UKI as \\EFI\\BOOT\\BOOTX64.EFI; its stub boots the
    embedded kernel by @scheme, handover when the kernel has no EFI stub."""
    cmdline = "console=ttyS0 handoff.marker=%s panic=-1" % marker
    uki = make_uki(cmdline, kernel=kernel())
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": uki}), TIMEOUT)
    qemu.expect_linux_saw(res, cmdline)
    qemu.expect(res.time_of(r"stub: booting the embedded kernel by %s" % scheme) is not None, why, res)


case.each(globals(), uki_from_ovmf, {
    "test_uki_from_ovmf": ("uki-ovmf", lambda: KERNEL, "stub", "the stub starts Debian's kernel by its own EFI stub"),
    "test_uki_without_efi_stub_boots_by_handover": ("uki-nostub", kernel_without_efi_stub, "handover",
                                                    "no EFI stub in the kernel: the stub uses the handover protocol"),
}, needs=(TOOL, STUB, KERNEL, INITRD))


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_uki_from_systemd_boot():
    cmdline = "console=ttyS0 handoff.marker=uki-sdboot panic=-1"
    uki = make_uki(cmdline)
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": loaders.need(loaders.SDBOOT),
                                  "EFI/Linux/debian-uki.efi": uki,
                                  "loader/loader.conf": b"timeout 0\n"}), TIMEOUT)
    qemu.expect_linux_saw(res, cmdline)


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_from_handoff_type2():
    """handoff lists the UKI by its .osrel PRETTY_NAME and starts it."""
    cmdline = "console=ttyS0 handoff.marker=uki-handoff panic=-1"
    uki = make_uki(cmdline,
                   os_release='NAME="Handoff Test"\nPRETTY_NAME="Handoff Test UKI"\nID=htest\nVERSION_ID=7\n')
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": root_path(LOADER),
                                  "EFI/Linux/htest-7.efi": uki,
                                  "EFI/Linux/not-a-uki.efi": root_path(LOADER),
                                  "loader/loader.conf": b"timeout 0\n"}), TIMEOUT)
    qemu.expect(res.time_of(r"booting 'Handoff Test UKI \(7\)' by stub") is not None,
                "handoff titles the Type #2 entry from .osrel (PRETTY_NAME, VERSION_ID)", res)
    qemu.expect(res.time_of(DIRECT) is not None, "handoff boots its own stub's UKI from the buffer it read", res)
    qemu.expect_linux_saw(res, cmdline)


def ramdisk_size(res):
    """The initrd size Linux reserved, from its "RAMDISK: [mem A-B]" line."""
    for _, line in res.lines:
        m = re.search(r"RAMDISK: \[mem (0x[0-9a-f]+)-(0x[0-9a-f]+)\]", line)
        if m:
            return int(m.group(2), 16) - int(m.group(1), 16) + 1
    qemu.fail("no 'RAMDISK: [mem ...]' line from the kernel", res)


def bare_uki():
    """A UKI with neither .initrd nor .cmdline: both come from outside."""
    return tool.uki(os.path.join(case.workdir(), "bare.efi"))


def expect_one_initrd(res):
    size = os.path.getsize(root_path(INITRD))
    qemu.expect_eq(ramdisk_size(res), (size + 4095) // 4096 * 4096,
                   "initrd bytes Linux reserved (one copy of the initramfs, page-rounded)", res)


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_uki_initrd_from_systemd_boot_loaded_once():
    """systemd-boot names the initrd in initrd= and serves it by LoadFile2: the
    stub must pass it on once."""
    options = "console=ttyS0 handoff.marker=uki-sd-lf2 panic=-1"
    entry = "title bare\nlinux /bare.efi\ninitrd /initrd.img\noptions %s\n" % options
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": loaders.need(loaders.SDBOOT), "bare.efi": bare_uki(),
                                  "initrd.img": root_path(INITRD),
                                  "loader/loader.conf": b"timeout 0\n",
                                  "loader/entries/bare.conf": entry.encode()}), TIMEOUT)
    init = qemu.expect_init(res)
    qemu.expect_in("handoff.marker=uki-sd-lf2", init.get("cmdline", ""), "marker in the command line", res)
    expect_one_initrd(res)
    qemu.expect_linux_saw(res, init.get("cmdline"))


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_initrd_from_its_command_line():
    """No loader initrd: the stub loads initrd= from its own volume."""
    options = "console=ttyS0 initrd=\\debian\\initrd.img handoff.marker=uki-initrd-opt panic=-1"
    entry = "title bare\nefi /EFI/bare.efi\noptions %s\n" % options
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": root_path(LOADER), "EFI/bare.efi": bare_uki(),
                                  "debian/initrd.img": root_path(INITRD),
                                  "loader/loader.conf": b"timeout 0\n",
                                  "loader/entries/bare.conf": entry.encode()}), TIMEOUT)
    expect_one_initrd(res)
    qemu.expect_linux_saw(res, options)


def bli_vars(init):
    return {k: bytes.fromhex(h) for k, h in init.get("bli_hex", {}).items()}


def ucs2(text):
    return (text + "\0").encode("utf-16-le")


def expect_stub_handover(res, init, uki, pcr12, image_id=None):
    """What systemd-stub hands the system, from handoff's stub: .pcrsig and
    .pcrpkey as /.extra/tpm2-pcr-signature.json and tpm2-pcr-public-key.pem
    (mode 0444, the sections' bytes), StubPcrKernelImage "11" (UCS-2 with NUL,
    as systemd's efivar_set_uint_string()), StubPcrKernelParameters "12" only
    when PCR 12 got a command line, StubInfo; LoaderImageIdentifier as given."""
    extra = init.get("dot_extra") or {}
    for name, section in (("tpm2-pcr-signature.json", ".pcrsig"), ("tpm2-pcr-public-key.pem", ".pcrpkey")):
        want = hashlib.sha256(measured.section(uki, section)).hexdigest()
        qemu.expect_eq(extra.get(name), {"sha256": want, "mode": "444"}, "/.extra/%s is %s" % (name, section), res)
    v = bli_vars(init)
    qemu.expect_eq(v.get("StubPcrKernelImage"), ucs2("11"), "StubPcrKernelImage in efivarfs", res)
    qemu.expect_eq(v.get("StubPcrKernelParameters"), ucs2("12") if pcr12 else None, "StubPcrKernelParameters", res)
    qemu.expect(v.get("StubInfo", b"").startswith("handoff-stub ".encode("utf-16-le")), "StubInfo names handoff's "
                "stub: %r" % v.get("StubInfo"), res)
    if image_id:
        qemu.expect_eq(v.get("LoaderImageIdentifier"), ucs2(image_id), "LoaderImageIdentifier", res)


def pcr_keys(wd):
    key, pub = os.path.join(wd, "pcr.pem"), os.path.join(wd, "pcr.pub")
    subprocess.run(["openssl", "genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", key],
                   check=True, capture_output=True)
    subprocess.run(["openssl", "pkey", "-in", key, "-pubout", "-out", pub], check=True, capture_output=True)
    return key, pub


@case.needs(TOOL, STUB, KERNEL, INITRD)
def test_uki_from_ovmf_hands_over_pcr_files_and_variables():
    """A UKI with .pcrsig and .pcrpkey started by OVMF itself, with a TPM and
    no loader: the stub sets LoaderImageIdentifier (no loader did), the Stub*
    variables, and the initrd has both /.extra files."""
    wd = case.workdir()
    key, pub = pcr_keys(wd)
    options = "console=ttyS0 handoff.marker=uki-extra panic=-1"
    uki = tool.uki(os.path.join(wd, "pcr.efi"), KERNEL, INITRD, options, 'PRETTY_NAME="PCR UKI"',
                   extra=("--pcr-private-key", key, "--pcr-public-key", pub))
    res = qemu.run_qemu(esp_with({"EFI/BOOT/BOOTX64.EFI": uki}), TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    expect_stub_handover(res, init, open(uki, "rb").read(), pcr12=False, image_id="\\EFI\\BOOT\\BOOTX64.EFI")


PHASES = ("enter-initrd", "enter-initrd:leave-initrd", "enter-initrd:leave-initrd:sysinit",
          "enter-initrd:leave-initrd:sysinit:ready")


def openssl_verifies(wd, pub_pem, data, sig):
    paths = [os.path.join(wd, n) for n in ("pcrpkey.pem", "pol", "sig")]
    for p, content in zip(paths, (pub_pem, data, sig)):
        with open(p, "wb") as f:
            f.write(content)
    r = subprocess.run(["openssl", "dgst", "-sha256", "-verify", paths[0], "-signature", paths[2], paths[1]],
                       capture_output=True, text=True)
    return r.returncode == 0


@case.needs(TOOL, STUB, LOADER, KERNEL, INITRD)
def test_uki_pcr_policies_sign_the_booted_pcr11():
    """`handoff uki --pcr-private-key --pcr-public-key` (RSA), booted by
    handoff as a Type #2 entry with a TPM: Linux reads PCR 11 before any
    phase is extended (the test initramfs runs no systemd-pcrphase). On the
    host, .pcrsig holds, for each of systemd's default phases, the policy of
    that value extended by the phase's words, and openssl verifies its
    signature against .pcrpkey."""
    wd = case.workdir()
    key, pub = pcr_keys(wd)
    options = "console=ttyS0 handoff.marker=pcr-policies panic=-1"
    uki = tool.uki(os.path.join(wd, "pcr.efi"), KERNEL, INITRD, options, 'PRETTY_NAME="PCR UKI"',
                   extra=("--pcr-private-key", key, "--pcr-public-key", pub))
    data = open(uki, "rb").read()
    img = esp.image(esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/pcr.efi": data}))
    res = qemu.run_qemu(img, TIMEOUT, tpm=True)
    init = qemu.expect_linux_saw(res, options)
    seen = (init.get("pcr_sha256") or {}).get("11", "")
    qemu.expect(re.fullmatch(r"[0-9A-F]{64}", seen) and seen != "0" * 64, "Linux read PCR 11: %r" % seen, res)
    pcrpkey = measured.section(data, ".pcrpkey")
    qemu.expect_eq(pcrpkey, open(pub, "rb").read(), ".pcrpkey is the public key", res)
    expect_stub_handover(res, init, data, pcr12=False, image_id="\\EFI\\BOOT\\BOOTX64.EFI")
    policies = json.loads(measured.section(data, ".pcrsig") or b"{}").get("sha256", [])
    qemu.expect_eq(len(policies), len(PHASES), "one sha256 policy per default phase", res)
    for phase, p in zip(PHASES, policies):
        pol = measured.policy_pcr11(measured.phase_pcr11(bytes.fromhex(seen), phase))
        qemu.expect_eq(p.get("pol"), pol.hex(), "%s: the policy of the booted PCR 11 + the phase" % phase, res)
        qemu.expect(openssl_verifies(wd, pcrpkey, pol, base64.b64decode(p.get("sig", ""))),
                    "%s: the signature verifies against .pcrpkey" % phase, res)
