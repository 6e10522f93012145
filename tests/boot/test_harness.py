"""Self-tests of the boot harness (tests/harness).

The boots go through known-good loaders (systemd-boot, OVMF's own -kernel
path) and check the HANDOFF-INIT report, so a failure here means the harness
or the environment is broken, not handoff.efi; the GPT disk is the one thing
made by handoff's own tool (`handoff disk`), as every partitioned disk of the
tests is. The tests without QEMU check the harness's pieces against what
other programs (mtools, sfdisk) read.
"""
import hashlib
import json
import os
import shutil
import subprocess

from harness import case, disk, esp, gpt, initramfs, loaders, qemu
from harness.paths import INITRD, KERNEL, TOOL, root_path

TIMEOUT = 240  # TCG boots take ~15-25 s on an idle core; leave room for a loaded CI


def check_init(res, options, marker):
    """The common assertions on a HANDOFF-INIT report: systemd-boot and
    QEMU put more in front of the options (initrd=...)."""
    init = qemu.expect_linux_saw(res, options, exact=False, fb=None)
    qemu.expect_in("handoff.marker=" + marker, init["cmdline"].split(), "marker in cmdline", res)
    case.note("HANDOFF-INIT at %.1fs, qemu done at %.1fs" % (res.init_time, res.duration))
    return init


def sdboot_esp(entries, loader_conf):
    """ESP tree with systemd-boot as the fallback loader, kernel and initrd.

    entries: {"name.conf": text}. Returns the tree's directory.
    """
    return esp.loader_tree(entries, loader_conf, loader=loaders.need(loaders.SDBOOT))


@case.needs(KERNEL, INITRD)
def test_sdboot_entry():
    """systemd-boot as \\EFI\\BOOT\\BOOTX64.EFI on a bare FAT image, timeout 0."""
    options = "console=ttyS0 handoff.marker=sdboot-1 panic=-1"
    tree = sdboot_esp({"sdboot-1.conf": esp.entry("Harness sdboot-1", options)},
                      "timeout 0\ndefault sdboot-1.conf\n")
    res = qemu.run_qemu(esp.image(tree), TIMEOUT)
    init = check_init(res, options, "sdboot-1")
    qemu.expect(init.get("fb", "") != "", "fb: expected a framebuffer (GOP via EFI stub), got ''",
                res)
    qemu.expect_eq(res.exit_code, 0, "qemu exit code (poweroff)", res)


@case.needs(TOOL, KERNEL, INITRD)
def test_sdboot_menu_keys_gpt():
    """Drive systemd-boot's menu over serial (ESC [ B, then CR) on a GPT disk
    made by `handoff disk`.

    systemd-boot lists these two entries as "top" then "lower" (it sorts file
    names in reverse); "top" is the default, so booting "lower" proves the
    arrow key moved the selection and Enter started it.
    """
    opt_top = "console=ttyS0 handoff.marker=menu-top panic=-1"
    opt_low = "console=ttyS0 handoff.marker=menu-lower panic=-1"
    tree = sdboot_esp({"b-top.conf": esp.entry("Harness top entry", opt_top),
                       "a-lower.conf": esp.entry("Harness lower entry", opt_low)},
                      "timeout 30\ndefault b-top.conf\n")
    img = disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), tree)
    res = qemu.run_qemu(img, 120, keys=[
        (r"Harness lower entry", b"\x1b[B"),     # menu drawn: move down
        (r"Harness lower entry", b"\r", 0.5),    # redrawn highlighted: boot it
    ])
    qemu.expect_eq(res.keys_pending, [], "menu keys not all sent", res)
    check_init(res, opt_low, "menu-lower")


# --- the harness's pieces, without QEMU -----------------------------------

def mtype(img, path, offset=0):
    """A file from a FAT file system by mtools itself (not through the harness)."""
    r = subprocess.run(["mtype", "-i", "%s@@%d" % (img, offset), "::" + path], capture_output=True,
                       env=dict(os.environ, MTOOLS_SKIP_CHECK="1"))
    qemu.expect(r.returncode == 0, "mtype %s: %s" % (path, r.stderr.decode(errors="replace")))
    return r.stdout


def test_harness_esp_tree_on_a_fat_image():
    """esp.loader_tree + esp.image: every file of the map on the FAT image,
    byte for byte (bytes as given, paths copied), entries as esp.entry wrote them."""
    payload = os.urandom(70001)
    text = esp.entry("T", "opts x=1", "legacy", sort_key="k", initrds=("/a", "/b"))
    qemu.expect_eq(text, "title T\nlinux /debian/vmlinuz\nsort-key k\ninitrd /a\ninitrd /b\noptions opts x=1\n"
                   "protocol legacy\n", "entry text")
    tree = esp.loader_tree({"t.conf": text}, "timeout 3\n", {"deep/er/p.bin": payload, "EFI/Linux/": None},
                           loader="VERSION", kernel="VERSION", initrd="README.md")
    img = esp.image(tree)
    version = open(root_path("VERSION"), "rb").read()
    for path, want in (("/EFI/BOOT/BOOTX64.EFI", version), ("/debian/vmlinuz", version),
                       ("/debian/initrd.img", open(root_path("README.md"), "rb").read()),
                       ("/loader/loader.conf", b"timeout 3\n"), ("/loader/entries/t.conf", text.encode()),
                       ("/deep/er/p.bin", payload)):
        qemu.expect_eq(mtype(img, path), want, "%s on the FAT image" % path)
    qemu.expect_eq(disk.fat_names(img, "/EFI/Linux"), [], "an empty directory is there, empty")


@case.needs(TOOL)
def test_harness_gpt_disk_read_back():
    """disk.build (by `handoff disk`): the harness's GPT reader agrees with
    sfdisk on every partition, and each partition holds its files (mtools
    for the FAT ESP, debugfs for the ext4 XBOOTLDR)."""
    data = os.urandom(300001)
    wd = case.workdir()
    img = disk.build(os.path.join(wd, "disk.img"), {**esp.loader_files("VERSION"), "x/y.bin": data},
                     {"k/linux": data})
    sectors, first, last, parts = gpt.read(img)
    qemu.expect_eq(sectors * 512, os.path.getsize(img), "sectors")
    sf = json.loads(subprocess.run(["sfdisk", "--json", img], capture_output=True, text=True, check=True).stdout)
    theirs = [(p["type"].upper(), p["uuid"].upper(), p["start"], p["size"])
              for p in sf["partitiontable"]["partitions"]]
    ours = [(p["type"], p["guid"], p["first"], p["last"] - p["first"] + 1) for p in parts]
    qemu.expect_eq(ours, theirs, "partitions (type, GUID, start, sectors): gpt.read against sfdisk")
    qemu.expect_eq([p["type"] for p in parts], [gpt.ESP_TYPE, gpt.XBOOTLDR_TYPE], "partition types")
    qemu.expect_eq(mtype(img, "/x/y.bin", gpt.partition_offset(img, 1)), data, "a file on the ESP")
    qemu.expect_eq(disk.fat_names(img, "/loader", partition=1), ["loader.conf"], "disk.fat_names on partition 1")
    got = subprocess.run(["debugfs", "-R", "cat /k/linux", "%s?offset=%d" % (img, gpt.partition_offset(img, 2))],
                         capture_output=True, check=True).stdout
    qemu.expect_eq(got, data, "a file on the ext4 XBOOTLDR")


@case.needs(TOOL)
def test_harness_gpt_reader_refuses_damage():
    """The GPT reader fails on a damaged entry array, header or protective MBR."""
    wd = case.workdir()
    good = disk.gpt_disk(os.path.join(wd, "good.img"), esp.tree(esp.loader_files("VERSION")))
    gpt.read(good)
    for what, offset in (("primary entry array", 2 * 512 + 40), ("backup header", -512 + 30), ("MBR", 450)):
        bad = os.path.join(wd, "bad.img")
        shutil.copyfile(good, bad)
        with open(bad, "r+b") as f:
            f.seek(offset, os.SEEK_SET if offset >= 0 else os.SEEK_END)
            b = f.read(1)
            f.seek(-1, os.SEEK_CUR)
            f.write(bytes([b[0] ^ 0x5a]))
        try:
            gpt.read(bad)
        except AssertionError:
            continue
        qemu.fail("gpt.read accepted a damaged %s" % what)


def test_harness_serial_parsing():
    """What run_qemu makes of serial output: escape sequences stripped (a
    cursor jump starts a line), tagged JSON found or its error named, the
    isa-debug-exit value from QEMU's status."""
    qemu.expect_eq(qemu.strip_ansi("\x1b[2J\x1b[1;1Hmenu\x1b[0m\r\n\x1b[7m> A\x1b[0m"), "\nmenu\n> A", "strip_ansi")
    obj, err = qemu.parse_tagged('x HANDOFF-INIT {"a": [1, "}"]} tail', "HANDOFF-INIT")
    qemu.expect_eq((obj, err), ({"a": [1, "}"]}, None), "a tagged report")
    obj, err = qemu.parse_tagged('HANDOFF-PROBE {"a": ', "HANDOFF-PROBE")
    qemu.expect(obj is None and "HANDOFF-PROBE JSON" in err, "a cut report is an error: %r" % err)
    qemu.expect_eq(qemu.parse_tagged("HANDOFF-INIT set LoaderEntryOneShot", "HANDOFF-INIT"),
                   (None, "no JSON after HANDOFF-INIT"), "a tagged line without JSON")
    res = qemu.Result(serial_text="", exit_code=7, timed_out=False, duration=1.0, lines=[(0.5, "a"), (0.7, "b 1")])
    qemu.expect_eq((res.debug_exit, res.time_of(r"b \d"), res.time_of("c")), (3, 0.7, None), "Result")
    qemu.expect_eq(qemu.Result(serial_text="", exit_code=0, timed_out=False, duration=1.0).debug_exit, None,
                   "a poweroff is no isa-debug-exit value")


def test_harness_init_report_decoding():
    """The fields of a HANDOFF-INIT report that the host decodes from the
    guest's raw bytes (initramfs.decode_report()): efivarfs files split by
    their sizes (4 attribute bytes, then the value), UCS-2 strings, the
    Secure Boot bytes, the zero page's fields; a report whose sizes do not
    add up is an error, not a wrong value."""
    bli = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
    gv = "/sys/firmware/efi/efivars/"
    info = bytes([6, 0, 0, 0]) + "handoff 9\0".encode("utf-16-le")
    feat = bytes([6, 0, 0, 0]) + bytes([0x7f, 0, 0, 0, 0, 0, 0, 0])
    sb = bytes([6, 0, 0, 0, 1])
    zero = bytearray(81)
    zero[0:4] = b"EL64"
    zero[0x1ec - 0x1c0] = 3
    zero[0x210 - 0x1c0] = 0xff
    sizes = "%sLoaderInfo-%s %d %sLoaderFeatures-%s %d %sSecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c %d" % (
        gv, bli, len(info), gv, bli, len(feat), gv, len(sb))
    line = "HANDOFF-INIT " + json.dumps({"cmdline": "x", "efivar_sizes": sizes,
                                         "efivar_hex": (info + feat + sb).hex(), "bp_hex": bytes(zero).hex()})
    obj, err = qemu.parse_tagged(line, "HANDOFF-INIT")
    qemu.expect_eq(err, None, "decoding error")
    qemu.expect_eq(obj["bli_hex"], {"LoaderInfo": "handoff 9\0".encode("utf-16-le").hex(),
                                    "LoaderFeatures": "7f00000000000000"}, "bli_hex")
    qemu.expect_eq(obj["loader"]["LoaderInfo"], "handoff 9", "loader.LoaderInfo")
    qemu.expect_eq(obj["loader"]["LoaderEntrySelected"], "", "a variable the loader did not set")
    qemu.expect_eq((obj["secureboot"], obj["setupmode"]), ("1", ""), "SecureBoot, SetupMode")
    qemu.expect_eq((obj["bp_efi_sig"], obj["bp_secure_boot"], obj["bp_type_of_loader"]), ("EL64", 3, 0xff),
                   "zero page fields")
    for bad in (sizes.replace(" %d " % len(feat), " %d " % (len(feat) + 1)), sizes + " " + gv + "x"):
        obj, err = qemu.parse_tagged(line.replace(json.dumps(sizes), json.dumps(bad)), "HANDOFF-INIT")
        qemu.expect(obj is None and "efivar_sizes" in (err or ""), "sizes %r: %r" % (bad, err))
    obj, err = qemu.parse_tagged('HANDOFF-INIT {"efivar_sizes": "", "efivar_hex": "", "bp_hex": ""}',
                                 "HANDOFF-INIT")
    qemu.expect_eq((obj["loader"]["LoaderInfo"], obj["bp_type_of_loader"], obj["secureboot"]), ("", None, ""),
                   "a report without EFI variables or a zero page (AArch64, no efivarfs)")


@case.needs(INITRD)
def test_harness_expected_payload_checksum():
    """The checksum the boot tests expect is that of /payload.bin in the
    archive (taken out with cpio), and of the payload the harness generates."""
    out = subprocess.run("gzip -dc %s | cpio -i --quiet --to-stdout payload.bin" % root_path(INITRD), shell=True,
                         capture_output=True, check=True).stdout
    want = initramfs.expected_payload_sha256(INITRD)
    qemu.expect_eq(hashlib.sha256(out).hexdigest(), want, "SHA-256 of payload.bin in %s" % INITRD)
    qemu.expect_eq(initramfs.payload_sha256(), want, "initramfs.payload_sha256()")


def test_harness_cases_become_tests():
    """case.each: one test per row, named by the row, with the needs and the
    docstring given, calling the function with the row's arguments."""
    ns, calls = {"__name__": "m"}, []

    def fn(a, b):
        """doc"""
        calls.append((a, b))
    case.each(ns, fn, {"test_one": (1, 2), "test_two": (3, 4)}, needs=("x",))
    qemu.expect_eq(sorted(ns), ["__name__", "test_one", "test_two"], "names")
    t = ns["test_two"]
    t()
    qemu.expect_eq((t.__name__, t.__module__, t.__doc__, t.needs, calls), ("test_two", "m", "doc", ["x"], [(3, 4)]),
                   "the test made for a row")
