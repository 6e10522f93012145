"""AArch64 (issue 34): handoffaa64.efi as \\EFI\\BOOT\\BOOTAA64.EFI on QEMU's
virt machine (cortex-a57, TCG) with Debian's AAVMF boots Debian's arm64
kernel from a Type #1 entry by the kernel's EFI stub, its initrd through
handoff's LoadFile2; an entry asking for an x86 boot protocol is refused by
name and the menu comes back. A UKI that `handoff uki` builds from the arm64
kernel (with handoff-stubaa64.efi, its default for an arm64 Image) boots
from \\EFI\\Linux through the loader's menu (the loader boots its sections
from the buffer it read) and started by the firmware itself as
BOOTAA64.EFI (the AArch64 stub's own code: unpacked, then the embedded
kernel by its EFI stub). A UKI of Debian 12's systemd-stub for arm64, built
by `handoff uki --stub`, boots from \\EFI\\Linux through the menu, started
by the firmware (LoadImage/StartImage). An entry's "devicetree" becomes the device tree
Linux runs on (a file that is none is refused, back to the menu).
A GPT disk that `handoff disk --arch aa64` makes
(the tool adds handoffaa64.efi as BOOTAA64.EFI) boots a Type #1 entry whose
kernel and initrd are on an ext4 XBOOTLDR partition. U-Boot's UEFI
(u-boot-qemu's qemu_arm64 build as -bios) boots the same kind of entry from a
GPT disk.

Each boot checks what Linux saw (the arm64 initramfs's HANDOFF-INIT report):
the exact command line, EFI with efivarfs readable (runtime services), the
initrd's payload SHA-256, and the Boot Loader Interface variables naming the
stub scheme and BOOTAA64.EFI; and the kernel's own EFI stub saying it read
the initrd from handoff's LoadFile2. No display device: no framebuffer to
check.
"""
import os
import struct
import subprocess

from harness import case, disk, esp, net, qemu, tool
from harness.esp import entry
from harness.paths import ARM64, LOADERAA64, SDSTUBAA64, STUBAA64, TOOL

TIMEOUT = 300   # TCG emulates every AArch64 instruction: firmware and kernel take about a minute
MEMORY = 1024
MENU = r"handoff [0-9.]+ boot menu"
STUB_INITRD_LINE = r"EFI stub: Loaded initrd from LINUX_EFI_INITRD_MEDIA_GUID device path"
# src/efi/boot_uki.c: a UKI of handoff's stub from the menu boots from the loader's buffer
FROM_BUFFER = r"a UKI of handoff's stub: its sections boot from the buffer read"
STUB_BOOTS = r"stub: booting the embedded kernel by stub \(1 initrd, \d+ KiB\)"


def aa64_tree(entries, loader_conf):
    """An ESP with handoffaa64.efi as the AArch64 fallback loader and Debian's arm64 kernel and initramfs."""
    return esp.loader_tree(entries, loader_conf, loader=LOADERAA64, arch="aa64", kernel=ARM64[0],
                           initrd=ARM64[1])


def boot_aa64(tree, keys=()):
    return qemu.run_qemu(esp.image(tree), TIMEOUT, keys=keys, firmware="aavmf", memory=MEMORY)


def check_stub_boot(res, options, title, entry_id, image_id="\\EFI\\BOOT\\BOOTAA64.EFI"):
    init = qemu.expect_linux_saw(res, options, ARM64[1], fb=None)
    v = init.get("loader", {})
    qemu.expect(v.get("LoaderInfo", "").startswith("handoff "), "LoaderInfo: %r" % v.get("LoaderInfo"), res)
    qemu.expect_eq(v.get("HandoffBootScheme"), "stub", "HandoffBootScheme", res)
    qemu.expect_eq(v.get("LoaderEntrySelected"), entry_id, "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("LoaderImageIdentifier", "").upper(), image_id, "LoaderImageIdentifier", res)
    qemu.expect(res.time_of(r"handoff: booting '%s' by stub\b" % title) is not None,
                "handoff says it boots by stub", res)
    qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                "the kernel's EFI stub reports reading handoff's LoadFile2 initrd", res)


@case.needs(LOADERAA64, *ARM64)
def test_aa64_entry_boots_by_the_kernels_stub():
    """A Type #1 entry (protocol auto, architecture AA64) boots Debian's
    arm64 kernel by its EFI stub; one for x64, first in the sort order, is
    not shown."""
    options = "console=ttyAMA0 handoff.marker=aa64-entry panic=-1"
    entries = {"a-x64.conf": entry("For x86-64", "console=ttyAMA0", sort_key="a", extra="architecture x64\n"),
               "debian.conf": entry("Debian", options, sort_key="b", extra="architecture AA64\n")}
    res = boot_aa64(aa64_tree(entries, "timeout 0\n"))
    check_stub_boot(res, options, "Debian", "debian")
    qemu.expect(res.time_of(r"a-x64\.conf:\d+: architecture 'x64' is not aa64: entry not shown") is not None,
                "an entry for x86-64 is hidden (UAPI.1 'architecture'), one for AA64 shown", res)


@case.needs(LOADERAA64, *ARM64)
def test_aa64_x86_protocols_refused_back_to_the_menu():
    """'protocol legacy' and 'protocol handover' are refused with why (x86
    boot protocols), each time back to the menu, by itself; then the good
    entry boots when its key is pressed."""
    good = "console=ttyAMA0 handoff.marker=aa64-after-refusals panic=-1"
    entries = {
        "a1.conf": entry("Legacy", "console=ttyAMA0", protocol="legacy", sort_key="a1"),
        "a2.conf": entry("Handover", "console=ttyAMA0", protocol="handover", sort_key="a2"),
        "a3.conf": entry("Good", good, sort_key="a3"),
    }
    res = boot_aa64(aa64_tree(entries, "timeout menu-force\n"),
                    keys=[(MENU, b"1"), (MENU, b"2"), (MENU, b"3")])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back after each refusal)", res)
    for scheme in ("legacy", "handover"):
        msg = r"cannot boot by %s: %s is an x86 boot protocol; AArch64 boots by the kernel's EFI stub" % (scheme,
                                                                                                         scheme)
        qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    for title in ("Legacy", "Handover"):
        qemu.expect(res.time_of(r"handoff: booting '%s'" % title) is None, "entry '%s' not booted" % title, res)
    check_stub_boot(res, good, "Good", "a3")


def arm64_uki(options):
    """`handoff uki` of Debian's arm64 kernel and initramfs with .cmdline
    @options, the stub left to the tool (handoff-stubaa64.efi for an arm64
    Image); its bytes, checked to be an AArch64 image."""
    out = tool.uki(os.path.join(case.workdir(), "arm64-uki.efi"), ARM64[0], ARM64[1], options, stub=None)
    data = open(out, "rb").read()
    pe = int.from_bytes(data[0x3C:0x40], "little")
    assert data[pe + 4:pe + 6] == b"\x64\xaa", "handoff uki chose a stub of machine %r" % data[pe + 4:pe + 6]
    return data


def check_uki_boot(res, options):
    """Linux saw the UKI's .cmdline and the initrd's payload; the kernel's EFI
    stub read the initrd through LoadFile2; StubInfo names handoff's stub."""
    init = qemu.expect_linux_saw(res, options, ARM64[1], fb=None)
    stub_info = bytes.fromhex(init.get("bli_hex", {}).get("StubInfo", ""))
    qemu.expect(stub_info.startswith("handoff-stub ".encode("utf-16-le")), "StubInfo names handoff's stub: %r"
                % stub_info, res)
    qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                "the kernel's EFI stub reports reading the LoadFile2 initrd", res)
    return init


@case.needs(LOADERAA64, STUBAA64, TOOL, *ARM64)
def test_aa64_uki_from_the_menu():
    """A UKI in \\EFI\\Linux (Type #2) is the menu's one entry: handoffaa64.efi
    selects it (timeout 0) and boots its sections from its read buffer by the
    stub's own path; Linux sees the UKI's .cmdline, not a line of the loader's."""
    options = "console=ttyAMA0 handoff.marker=aa64-uki-menu panic=-1"
    tree = esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/arm64-uki.efi": arm64_uki(options)}, loader=LOADERAA64,
                           arch="aa64", kernel=None, initrd=None)
    res = boot_aa64(tree)
    init = check_uki_boot(res, options)
    v = init.get("loader", {})
    qemu.expect_eq(v.get("LoaderEntrySelected"), "arm64-uki.efi", "LoaderEntrySelected", res)
    qemu.expect_eq(v.get("HandoffBootScheme"), "stub", "HandoffBootScheme", res)
    qemu.expect(res.time_of(FROM_BUFFER) is not None, "handoff booted the UKI from its buffer", res)


@case.needs(LOADERAA64, SDSTUBAA64, TOOL, *ARM64)
def test_aa64_systemd_stub_uki_from_the_menu():
    """A UKI whose stub is Debian 12's systemd-stub for arm64, built by
    `handoff uki --stub`, in \\EFI\\Linux: handoffaa64.efi selects it
    (timeout 0) and has the firmware start it (a stub not its own: not booted
    from its buffer); systemd-stub boots the kernel with the UKI's .cmdline
    and .initrd, and names itself in StubInfo."""
    options = "console=ttyAMA0 handoff.marker=aa64-sdstub-uki panic=-1"
    uki = tool.uki(os.path.join(case.workdir(), "sd-uki.efi"), ARM64[0], ARM64[1], options, stub=SDSTUBAA64)
    tree = esp.loader_tree({}, "timeout 0\n", {"EFI/Linux/sd-uki.efi": open(uki, "rb").read()},
                           loader=LOADERAA64, arch="aa64", kernel=None, initrd=None)
    res = boot_aa64(tree)
    init = qemu.expect_linux_saw(res, options, ARM64[1], fb=None)
    qemu.expect_eq(init.get("loader", {}).get("LoaderEntrySelected"), "sd-uki.efi", "LoaderEntrySelected", res)
    qemu.expect(res.time_of(r"handoff: booting '.*' by stub\b") is not None, "handoff starts the UKI by stub", res)
    qemu.expect(res.time_of(FROM_BUFFER) is None, "not booted from handoff's buffer (not handoff's stub)", res)
    stub_info = net.bli_var(init, "StubInfo") or ""
    qemu.expect(stub_info.startswith("systemd-stub "), "StubInfo names systemd-stub: %r" % stub_info, res)
    qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                "the kernel's EFI stub reports reading systemd-stub's LoadFile2 initrd", res)


@case.needs(STUBAA64, TOOL, *ARM64)
def test_aa64_uki_started_by_the_firmware():
    """The same UKI as \\EFI\\BOOT\\BOOTAA64.EFI, started by AAVMF: the
    AArch64 stub's own binary unpacks itself and boots the embedded kernel
    by the kernel's EFI stub, from memory; no loader ran (LoaderImageIdentifier is the
    stub's, set where no loader set one)."""
    options = "console=ttyAMA0 handoff.marker=aa64-uki-firmware panic=-1"
    res = boot_aa64(esp.tree({"EFI/BOOT/BOOTAA64.EFI": arm64_uki(options)}))
    init = check_uki_boot(res, options)
    qemu.expect(res.time_of(STUB_BOOTS) is not None, "the stub says it boots the embedded kernel by stub", res)
    qemu.expect(res.time_of(MENU) is None and res.time_of(FROM_BUFFER) is None, "no loader ran", res)
    qemu.expect_eq(init.get("loader", {}).get("LoaderImageIdentifier", "").upper(), "\\EFI\\BOOT\\BOOTAA64.EFI",
                   "LoaderImageIdentifier (the stub's image)", res)


FDT_BEGIN_NODE, FDT_END_NODE, FDT_PROP, FDT_NOP, FDT_END = 1, 2, 3, 4, 9
DT_MODEL = b"handoff,dtb-test"  # as long as QEMU's "linux,dummy-virt": the blob keeps its layout


def virt_dtb():
    """The device tree QEMU's virt machine gives its firmware, for the
    machine the tests boot (qemu._machine(): same -cpu, -m, pflash), dumped
    by -machine virt,dumpdtb=FILE (QEMU writes it and exits)."""
    run_dir = os.path.join(case.workdir(), "dumpdtb")
    os.makedirs(run_dir, exist_ok=True)
    out = os.path.join(run_dir, "virt.dtb")
    cmd = qemu._machine("aavmf", False, False, None, run_dir, MEMORY)
    i = cmd.index("-machine") + 1
    cmd[i] += ",dumpdtb=" + out
    subprocess.run(cmd + ["-net", "none"], check=True, timeout=60, cwd=run_dir, stdin=subprocess.DEVNULL,
                   stdout=subprocess.DEVNULL)
    with open(out, "rb") as f:
        return f.read()


def set_root_model(dtb, model):
    """@dtb with its root node's "model" property set to @model (NUL added),
    which must be as long as the old value (Devicetree Specification v0.4
    §5.4: the structure block's tokens, big-endian; property names at
    off_dt_strings + nameoff)."""
    magic, _, off_struct, off_strings = struct.unpack_from(">4I", dtb)
    assert magic == 0xd00dfeed, "not a devicetree blob"
    pos, depth = off_struct, 0
    while True:
        token, = struct.unpack_from(">I", dtb, pos)
        pos += 4
        if token == FDT_BEGIN_NODE:
            depth += 1
            pos = (dtb.index(b"\0", pos) + 4) & ~3
        elif token == FDT_END_NODE:
            depth -= 1
        elif token == FDT_PROP:
            size, nameoff = struct.unpack_from(">2I", dtb, pos)
            pos += 8
            name = dtb[off_strings + nameoff:dtb.index(b"\0", off_strings + nameoff)]
            if depth == 1 and name == b"model":
                assert size == len(model) + 1, "model %r" % dtb[pos:pos + size]
                return dtb[:pos] + model + b"\0" + dtb[pos + size:]
            pos = (pos + size + 3) & ~3
        elif token == FDT_END:
            raise AssertionError("the root node has no model property")


@case.needs(LOADERAA64, *ARM64)
def test_aa64_devicetree_is_the_one_linux_sees():
    """'devicetree /virt.dtb': QEMU's own device tree with another model
    string is installed as the devicetree table, and Linux shows that model
    in /proc/device-tree/model. AAVMF on QEMU gives ACPI tables and no device
    tree; arm64 Linux takes a device tree that is more than /chosen over ACPI
    (unless acpi=on or force), so no acpi=off is needed. Before it, an entry
    whose devicetree file is no devicetree (byte-swapped magic) is refused by
    name and the menu comes back."""
    dtb = set_root_model(virt_dtb(), DT_MODEL)
    bad = struct.pack("<I", 0xd00dfeed) + dtb[4:]
    good = "console=ttyAMA0 handoff.marker=aa64-dtb panic=-1"
    entries = {
        "a1.conf": entry("Bad DTB", "console=ttyAMA0", sort_key="a1", extra="devicetree /bad.dtb\n"),
        "a2.conf": entry("DTB", good, sort_key="a2", extra="devicetree /virt.dtb\n"),
    }
    tree = esp.loader_tree(entries, "timeout menu-force\n", files={"virt.dtb": dtb, "bad.dtb": bad},
                           loader=LOADERAA64, arch="aa64", kernel=ARM64[0], initrd=ARM64[1])
    res = boot_aa64(tree, keys=[(MENU, b"1"), (MENU, b"2")])
    qemu.expect_eq(res.keys_pending, [], "all menu keys sent (the menu came back after the refusal)", res)
    msg = (r"/bad\.dtb: magic 0xedfe0dd0, version 17/16, totalsize %u of %u bytes: not a version 17 devicetree"
           % (struct.unpack(">I", dtb[4:8])[0], len(dtb)))
    qemu.expect(res.time_of(msg) is not None, "message %r" % msg, res)
    qemu.expect(res.time_of(r"handoff: booting 'Bad DTB'") is None, "entry 'Bad DTB' not booted", res)
    qemu.expect(res.time_of(r"EFI stub: Using DTB from configuration table") is not None,
                "the kernel's EFI stub takes the devicetree table", res)
    check_stub_boot(res, good, "DTB", "a2")
    qemu.expect_eq(qemu.expect_init(res).get("dt_model"), DT_MODEL.decode(), "/proc/device-tree/model", res)


@case.needs(LOADERAA64, TOOL, *ARM64)
def test_aa64_disk_ext4_xbootldr():
    """`handoff disk --arch aa64`: an ESP tree with only loader.conf (the tool
    adds handoffaa64.efi as \\EFI\\BOOT\\BOOTAA64.EFI) and an ext4 XBOOTLDR
    with the Type #1 entry, Debian's arm64 kernel and initramfs; AAVMF starts
    the loader, which reads the entry, kernel and initrd from partition 2."""
    options = "console=ttyAMA0 handoff.marker=aa64-disk-ext4 panic=-1"
    img = disk.build(os.path.join(case.workdir(), "disk.img"), {"loader/loader.conf": b"timeout 0\n"},
                     esp.boot_files({"debian.conf": entry("Debian", options)}, ARM64[0], ARM64[1]),
                     xbootldr_fs="ext4", arch="aa64")
    qemu.expect_eq(disk.fat_names(img, "/EFI/BOOT", partition=1), ["BOOTAA64.EFI"],
                   "handoff disk put the AArch64 fallback loader on the ESP", None)
    res = qemu.run_qemu(img, TIMEOUT, firmware="aavmf", memory=MEMORY)
    qemu.expect(res.time_of(r"entry 'Debian': loading /debian/vmlinuz from partition 2\b") is not None,
                "the kernel is read from the ext4 XBOOTLDR (GPT partition 2)", res)
    check_stub_boot(res, options, "Debian", "debian")


@case.needs(LOADERAA64, *ARM64)
def test_aa64_http_boot():
    """UEFI HTTP Boot on AArch64: AAVMF fetches handoffaa64.efi over HTTP
    (QEMU's user network, libslirp's boot URL), and handoff fetches
    entries.list, loader.conf, the entry, the arm64 kernel and its initrd
    from the same server, once each, in that order; Linux boots by the
    kernel's EFI stub with the entry's command line and the initrd's bytes,
    and the Boot Loader Interface names the URL."""
    options = "console=ttyAMA0 handoff.marker=aa64-http panic=-1"
    root = esp.loader_tree({"debian.conf": entry("Debian", options)}, "timeout 0\n",
                           {"loader/entries.list": b"loader/entries/debian.conf\n"},
                           path=os.path.join(case.workdir(), "srv"), loader=LOADERAA64, arch="aa64",
                           kernel=ARM64[0], initrd=ARM64[1])
    srv = net.Server(root)
    boot_file = "/" + esp.FALLBACK["aa64"]
    # AAVMF tries PXE over IPv6 first whatever IPv6Support says (64 s without
    # an answer); its IPv6PXESupport switch turns that attempt off.
    no_pxe6 = ["-fw_cfg", "name=opt/org.tianocore/IPv6PXESupport,string=no"]
    res = qemu.run_qemu(None, TIMEOUT, firmware="aavmf", memory=MEMORY,
                        net=net.http_args(srv, loader=boot_file[1:]) + no_pxe6)
    init = qemu.expect_linux_saw(res, options, ARM64[1], fb=None)
    qemu.expect_eq(net.bli_var(init, "LoaderDeviceURL"), "http://%s%s" % (net.SERVER_IP, boot_file),
                   "LoaderDeviceURL", res)
    qemu.expect_eq(init.get("loader", {}).get("HandoffBootScheme"), "stub", "HandoffBootScheme", res)
    qemu.expect(res.time_of(STUB_INITRD_LINE) is not None,
                "the kernel's EFI stub reports reading handoff's LoadFile2 initrd", res)
    qemu.expect_eq(net.gets(srv), [boot_file, "/loader/entries.list", "/loader/loader.conf",
                                   "/loader/entries/debian.conf", esp.ESP_KERNEL, esp.ESP_INITRD],
                   "the files the server was asked for, in order", res)


@case.needs(LOADERAA64, TOOL, *ARM64)
def test_aa64_uboot_boots_by_the_kernels_stub():
    """On U-Boot's UEFI (Debian's u-boot-qemu, qemu_arm64/u-boot.bin as
    -bios on the same virt machine), U-Boot starts handoffaa64.efi as
    \\EFI\\BOOT\\BOOTAA64.EFI from the ESP of a GPT disk, and handoff boots
    Debian's arm64 kernel from a Type #1 entry by its EFI stub, the initrd
    through handoff's LoadFile2; the kernel names U-Boot as its firmware.
    U-Boot's file path for the image has no leading backslash
    ("efi\\boot\\bootaa64.efi"), and LoaderImageIdentifier says what the
    firmware gave."""
    options = "console=ttyAMA0 handoff.marker=aa64-uboot panic=-1"
    tree = aa64_tree({"debian.conf": entry("Debian", options)}, "timeout 0\n")
    img = disk.gpt_disk(os.path.join(case.workdir(), "uboot-disk.img"), tree)
    res = qemu.run_qemu(img, TIMEOUT, firmware="uboot-aa64", memory=MEMORY)
    qemu.expect(res.time_of(r"efi: EFI v[0-9.]+ by Das U-Boot") is not None,
                "the kernel names U-Boot as its EFI firmware", res)
    check_stub_boot(res, options, "Debian", "debian", image_id="EFI\\BOOT\\BOOTAA64.EFI")
