"""The compatibility matrix: build/probe.img booted by every loader and scheme.

Each cell boots the probe (docs/probe.md) with a command-line marker
and an initrd whose SHA-256 is computed here, and asserts what the probe
reported on COM1: the entry it was started by, the exact command line, the
initrd's size and checksum, no errors (the probe powers off through
isa-debug-exit with 0, QEMU status 1), and boot_params.secure_boot where
handoff's loaders or its stub filled boot_params. `make matrix` (run.py --write-matrix)
turns the cells' reports into docs/compatibility.md.

Cells: handoff with protocol stub/handover/legacy/auto, systemd-boot, GRUB,
OVMF starting probe.img as \\EFI\\BOOT\\BOOTX64.EFI, and QEMU's -kernel through
OVMF (the wrapped probe.img and the bare bzImage without a PE header); on
32-bit OVMF (ovmf-ia32, mixed mode) handoffia32.efi with each protocol and
GRUB's i386-efi build, the only other loader that boots a 64-bit kernel there;
on U-Boot's UEFI (u-boot-qemu, from a GPT disk) handoff with each protocol,
U-Boot starting probe.img itself, and systemd-boot, which fails there
(EXPECTED_FAILURES: the cell asserts how).
"""
import hashlib
import json
import os
import random

from harness import case, disk, esp, loaders, paths, qemu, tool
from harness.paths import LOADER, LOADER32, PROBE, PROBE_BARE, PROBE_NONRELOC, STUB, TOOL, root_path

TIMEOUT = 150
INITRD_SIZE = 256 * 1024 + 3   # not a multiple of 4: the probe must hash exactly this many bytes


# Cells whose loader pads each initrd with zeros to 4 bytes (`handoff uki`
# does, so that concatenated cpio archives stay aligned).
INITRD_PADDED_TO_4 = {"ovmf_uki"}


def make_initrd(cell):
    """A pseudo-random initrd (seeded by the cell name); returns its path and
    the size and SHA-256 the probe must report."""
    rnd = random.Random("handoff-matrix-" + cell)
    data = bytes(rnd.getrandbits(8) for _ in range(INITRD_SIZE))
    path = os.path.join(case.workdir(), "initrd.bin")
    with open(path, "wb") as f:
        f.write(data)
    if cell in INITRD_PADDED_TO_4:
        data += bytes(-len(data) % 4)
    return path, len(data), hashlib.sha256(data).hexdigest()


def marker_cmdline(cell):
    return "console=ttyS0 handoff.probe=%s quiet" % cell


# The firmware of a cell, by its name: handoffia32_* and grub_ia32 run on
# 32-bit OVMF (mixed mode), uboot_* on U-Boot's UEFI, the others on OVMF.
FIRMWARE = {"ovmf": "OVMF", "ia32": "OVMF 32-bit (mixed mode)", "uboot": "U-Boot 2023.01 (u-boot-qemu)"}


def cell_firmware(cell):
    if cell.startswith("handoffia32_") or cell == "grub_ia32":
        return "ia32"
    return "uboot" if cell.startswith("uboot_") else "ovmf"


def boot_esp(cell, files):
    """Boot an ESP holding @files on the firmware of @cell: a bare FAT image
    for OVMF; U-Boot boots from a partition: the ESP of a GPT disk."""
    fw = cell_firmware(cell)
    extra = EXPECTED_FAILURES[cell][1] if cell in EXPECTED_FAILURES else ()
    if fw == "uboot":
        img = disk.gpt_disk(os.path.join(case.workdir(), "disk.img"), esp.tree(files))
        return qemu.run_qemu(img, TIMEOUT, firmware="uboot", extra_args=extra)
    return qemu.run_qemu(esp.image(esp.tree(files)), TIMEOUT, ia32=fw == "ia32", extra_args=extra)


# --- how each loader is set up --------------------------------------------

def run_handoff(cell, image, cmdline, initrd, protocol):
    ia32 = cell_firmware(cell) == "ia32"
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions %s\nprotocol %s\n" % (cmdline, protocol)
    return boot_esp(cell, {**esp.loader_files(LOADER32 if ia32 else LOADER, "timeout 0\ndefault probe.conf\n",
                                              "ia32" if ia32 else "x64"),
                           "probe.img": image, "initrd.bin": initrd, "loader/entries/probe.conf": conf.encode()})


def run_sdboot(cell, image, cmdline, initrd):
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions %s\n" % cmdline
    return boot_esp(cell, {**esp.loader_files(loaders.need(loaders.SDBOOT), "timeout 0\ndefault probe.conf\n"),
                           "probe.img": image, "initrd.bin": initrd, "loader/entries/probe.conf": conf.encode()})


def grub_efi(cmdline, target="x86_64-efi"):
    """A standalone GRUB whose embedded grub.cfg finds the ESP and boots the
    probe at once; target i386-efi for 32-bit firmware."""
    cfg = ("set timeout=0\ninsmod all_video\ninsmod fat\ninsmod linux\n"
           "search --no-floppy --file --set=root /probe.img\n"
           "linux /probe.img %s\ninitrd /initrd.bin\nboot\n" % cmdline)
    return loaders.grub_standalone(os.path.join(case.workdir(), "grub-%s.efi" % target), cfg, target,
                                   "part_gpt part_msdos fat search search_fs_file linux all_video normal")


def run_grub(cell, image, cmdline, initrd):
    return boot_esp(cell, {"EFI/BOOT/BOOTX64.EFI": grub_efi(cmdline), "probe.img": image, "initrd.bin": initrd})


def run_grub32(cell, image, cmdline, initrd):
    return boot_esp(cell, {"EFI/BOOT/BOOTIA32.EFI": grub_efi(cmdline, "i386-efi"), "probe.img": image,
                           "initrd.bin": initrd})


def run_fallback(cell, image, cmdline, initrd):
    """Firmware starts probe.img itself: no initrd; OVMF passes no load options,
    U-Boot its bootargs."""
    return boot_esp(cell, {"EFI/BOOT/BOOTX64.EFI": image})


def run_ovmf_uki(cell, image, cmdline, initrd):
    """Firmware starts a UKI built by `handoff uki` around the bare probe:
    command line and initrd come from its .cmdline and .initrd sections."""
    uki = tool.uki(os.path.join(case.workdir(), "probe-uki.efi"), image, initrd, cmdline)
    return boot_esp(cell, {"EFI/BOOT/BOOTX64.EFI": uki})


def run_qemu_kernel(cell, image, cmdline, initrd):
    return qemu.run_qemu(None, TIMEOUT, kernel=image, initrd=initrd, append=cmdline)


# --- the cells ------------------------------------------------------------
# (name, loader, scheme asked for, image, runner, entry the probe must report,
#  the command line the probe must see: {c} is ours; a line without {c}: the
#  firmware's own, and no initrd; "": neither command line nor initrd)
# Debian's GRUB 2.06 boots by the 32-bit protocol (its linuxefi handover path
# is only taken under shim) and puts BOOT_IMAGE= in front; systemd-boot 252
# puts initrd=<path> in front (and also serves the initrd by LoadFile2); OVMF's
# -kernel path appends initrd=initrd (and serves it by LoadFile2 too).
# U-Boot starts BOOTX64.EFI with its "bootargs" variable as LoadOptions (its
# default on qemu-x86_64 is UBOOT_BOOTARGS).
UBOOT_BOOTARGS = "root=/dev/sdb3 init=/sbin/init rootwait ro"

CELLS = [
    ("handoff_stub", "handoff", "protocol stub", PROBE, lambda *a: run_handoff(*a, "stub"), "stub", "{c}"),
    ("handoff_handover", "handoff", "protocol handover", PROBE, lambda *a: run_handoff(*a, "handover"), "handover",
     "{c}"),
    ("handoff_legacy", "handoff", "protocol legacy", PROBE, lambda *a: run_handoff(*a, "legacy"), "legacy64", "{c}"),
    ("handoff_auto", "handoff", "protocol auto", PROBE, lambda *a: run_handoff(*a, "auto"), "stub", "{c}"),
    ("handoff_auto_bare", "handoff", "protocol auto, bzImage without PE header", PROBE_BARE,
     lambda *a: run_handoff(*a, "auto"), "handover", "{c}"),
    # not relocatable, pref_address 1 MiB, where OVMF's pages sit: the probe
    # checks it runs at pref_address (legacy: moved there after the exit) or
    # above it (EFI entries: its own EFI code would move it)
    ("handoff_nonreloc_auto", "handoff", "protocol auto, not relocatable", PROBE_NONRELOC,
     lambda *a: run_handoff(*a, "auto"), "stub", "{c}"),
    ("handoff_nonreloc_handover", "handoff", "protocol handover, not relocatable", PROBE_NONRELOC,
     lambda *a: run_handoff(*a, "handover"), "handover", "{c}"),
    ("handoff_nonreloc_legacy", "handoff", "protocol legacy, not relocatable", PROBE_NONRELOC,
     lambda *a: run_handoff(*a, "legacy"), "legacy64", "{c}"),
    ("sdboot", "systemd-boot (Debian 252)", "linux/initrd entry", PROBE, run_sdboot, "stub",
     "initrd=\\initrd.bin {c}"),
    ("grub", "GRUB (Debian 2.06)", "linux/initrd", PROBE, run_grub, "boot32", "BOOT_IMAGE=/probe.img {c}"),
    ("grub_bare", "GRUB (Debian 2.06)", "linux/initrd, bzImage without PE header", PROBE_BARE, run_grub,
     "boot32", "BOOT_IMAGE=/probe.img {c}"),
    ("ovmf_bootx64", "OVMF", "\\EFI\\BOOT\\BOOTX64.EFI", PROBE, run_fallback, "stub", ""),
    ("ovmf_uki", "OVMF", "\\EFI\\BOOT\\BOOTX64.EFI = `handoff uki` of the bare probe", PROBE_BARE, run_ovmf_uki,
     "stub", "{c}"),
    ("qemu_kernel", "QEMU -kernel", "-kernel/-initrd/-append", PROBE, run_qemu_kernel, "stub",
     "{c} initrd=initrd"),
    ("qemu_kernel_bare", "QEMU -kernel", "-kernel, bzImage without PE header", PROBE_BARE,
     run_qemu_kernel, "handover", "{c}"),
    # 32-bit OVMF, 64-bit CPU (mixed mode): the entries are the 32-bit ones
    ("handoffia32_stub", "handoffia32", "protocol stub (.compat IA-32 entry)", PROBE,
     lambda *a: run_handoff(*a, "stub"), "stub32", "{c}"),
    ("handoffia32_handover", "handoffia32", "protocol handover", PROBE,
     lambda *a: run_handoff(*a, "handover"), "handover32", "{c}"),
    ("handoffia32_legacy", "handoffia32", "protocol legacy", PROBE,
     lambda *a: run_handoff(*a, "legacy"), "boot32", "{c}"),
    ("handoffia32_auto", "handoffia32", "protocol auto", PROBE,
     lambda *a: run_handoff(*a, "auto"), "stub32", "{c}"),
    ("handoffia32_nonreloc_auto", "handoffia32", "protocol auto (.compat IA-32 entry), not relocatable",
     PROBE_NONRELOC, lambda *a: run_handoff(*a, "auto"), "stub32", "{c}"),
    ("handoffia32_nonreloc_handover", "handoffia32", "protocol handover, not relocatable", PROBE_NONRELOC,
     lambda *a: run_handoff(*a, "handover"), "handover32", "{c}"),
    ("handoffia32_nonreloc_legacy", "handoffia32", "protocol legacy, not relocatable", PROBE_NONRELOC,
     lambda *a: run_handoff(*a, "legacy"), "boot32", "{c}"),
    ("grub_ia32", "GRUB i386-efi (Debian 2.06)", "linux/initrd", PROBE, run_grub32, "boot32",
     "BOOT_IMAGE=/probe.img {c}"),
    # U-Boot's UEFI (docs/compatibility.md "U-Boot")
    ("uboot_handoff_stub", "handoff", "protocol stub", PROBE, lambda *a: run_handoff(*a, "stub"), "stub", "{c}"),
    ("uboot_handoff_handover", "handoff", "protocol handover", PROBE, lambda *a: run_handoff(*a, "handover"),
     "handover", "{c}"),
    ("uboot_handoff_legacy", "handoff", "protocol legacy", PROBE, lambda *a: run_handoff(*a, "legacy"),
     "legacy64", "{c}"),
    ("uboot_handoff_auto", "handoff", "protocol auto", PROBE, lambda *a: run_handoff(*a, "auto"), "stub", "{c}"),
    ("uboot_bootx64", "U-Boot", "\\EFI\\BOOT\\BOOTX64.EFI", PROBE, run_fallback, "stub", UBOOT_BOOTARGS),
    ("uboot_sdboot", "systemd-boot (Debian 252)", "linux/initrd entry", PROBE, run_sdboot, "stub",
     "initrd=\\initrd.bin {c}"),
]

# Cells that fail for a reason outside handoff and the probe, kept in the
# matrix as the other loaders' results: {cell: (why, QEMU arguments, check)}.
# The cell passes only when the probe never ran and check(res) finds the
# failure happened as said; the matrix then says "fails (expected): why".
CR4_OSFXSR = 1 << 9   # Intel SDM vol. 3A §2.5: SSE instructions raise #UD while it is clear
X86_UD = 6            # invalid opcode


def expect_sse_fault(res):
    """systemd-boot 252 is built with SSE: its first SSE instruction raises #UD
    (U-Boot's 64-bit build installs no handler: a triple fault follows), with
    CR4.OSFXSR clear as U-Boot left it, after U-Boot said it started it."""
    qemu.expect(res.time_of(r"Booting /efi\\boot\\bootx64\.efi") is not None, "U-Boot started BOOTX64.EFI", res)
    exc, triple = qemu.first_exception(res)
    qemu.expect(exc is not None, "QEMU logged no CPU exception (%s)" % qemu.CPU_LOG, res)
    vector, rip, cr4 = exc
    qemu.expect_eq(vector, X86_UD, "first CPU exception (vector) at %#x" % rip, res)
    qemu.expect(cr4 is not None and not cr4 & CR4_OSFXSR, "CR4.OSFXSR clear at the #UD, CR4=%r" % cr4, res)
    qemu.expect(triple, "the #UD ends in a triple fault (%s)" % qemu.CPU_LOG, res)


EXPECTED_FAILURES = {
    "uboot_sdboot": ("systemd-boot's first SSE instruction raises #UD (invalid opcode): U-Boot leaves "
                     "CR4.OSFXSR clear", qemu.CPU_LOG_ARGS, expect_sse_fault),
}


def cell_file(name):
    return os.path.join(paths.TESTS_OUT, "test_matrix.test_matrix_%s" % name, "cell.json")


def record(name, loader, scheme, res, verdict):
    """What the probe saw, for docs/compatibility.md (run.py --write-matrix)."""
    probe = res.probe if res is not None else None
    with open(os.path.join(case.workdir(), "cell.json"), "w") as f:
        json.dump(dict(cell=name, loader=loader, scheme=scheme, probe=probe, verdict=verdict,
                       log=res.log_path if res is not None else None), f, indent=1)


def check_cell(name, loader, scheme, image, runner, want_entry, want_cmdline):
    cmdline = marker_cmdline(name)
    initrd, size, sha = make_initrd(name)
    record(name, loader, scheme, None, "did not boot")
    res = runner(name, root_path(image), cmdline, initrd)
    record(name, loader, scheme, res, "no HANDOFF-PROBE line")
    if name in EXPECTED_FAILURES:
        check_expected_failure(name, loader, scheme, res)
        return
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line on COM1 (the probe never ran, or crashed)", res)
    qemu.expect_eq(p.get("entry"), want_entry, "probe entry", res)
    qemu.expect_eq(p.get("cmdline"), want_cmdline.format(c=cmdline), "command line the probe saw", res)
    if "{c}" in want_cmdline:
        qemu.expect_eq(p.get("initrd_size"), size, "initrd size", res)
        qemu.expect_eq(p.get("initrd_sha256"), sha, "initrd SHA-256", res)
    else:
        qemu.expect_eq(p.get("initrd_size"), 0, "initrd size (the firmware passes none)", res)
    qemu.expect_eq(p.get("errors"), [], "probe errors", res)
    if image == PROBE_NONRELOC:
        # the probe checked its place (kernel_not_at_pref_address); this checks it knew
        qemu.expect_eq((p.get("relocatable"), p.get("pref_address")), (False, "0x100000"),
                       "relocatable_kernel and pref_address the probe saw", res)
        if want_entry in ("legacy64", "boot32"):
            qemu.expect_eq(p.get("kernel_addr"), "0x100000", "load address (pref_address)", res)
    qemu.expect_eq(p.get("fw_bits"), 32 if cell_firmware(name) == "ia32" else 64, "firmware word size (system table)",
                   res)
    # issue 21: wherever handoff's code fills boot_params (its loaders, and its
    # stub inside probe.img, whoever started it) it says what Secure Boot is:
    # off here, so 2 (efi_secureboot_mode_disabled); the IA-32 .compat entry
    # builds its own boot_params.
    if want_entry != "stub32" and (loader.startswith("handoff") or want_entry == "stub"):
        qemu.expect_eq(p.get("secure_boot"), 2, "boot_params.secure_boot", res)
    qemu.expect_eq(res.debug_exit, 0, "isa-debug-exit value (0: no errors)", res)
    record(name, loader, scheme, res, "pass")


def check_expected_failure(name, loader, scheme, res):
    """The cell fails as EXPECTED_FAILURES says, and nothing else happened."""
    why, _args, check = EXPECTED_FAILURES[name]
    qemu.expect(res.probe is None, "the probe must not have run (expected failure: %s)" % why, res)
    check(res)
    record(name, loader, scheme, res, "fails (expected): " + why)


# Cells that fail today for a reason outside the probe, listed so nobody counts
# them as passing: they are not collected as tests (run.py only takes test_*)
# until removed from here. HANDOFF_MATRIX_PENDING=1 collects them anyway.
PENDING = {}


def _make(cell):
    name, loader, scheme, image, runner, want_entry, want_cmdline = cell

    @case.needs(image, *([LOADER] if loader == "handoff" else []),
                *([LOADER32] if name.startswith("handoffia32") else []),
                *([TOOL, STUB] if runner is run_ovmf_uki else []),
                *([TOOL] if cell_firmware(name) == "uboot" else []))  # `handoff disk` makes its GPT disk
    def test():
        check_cell(name, loader, scheme, image, runner, want_entry, want_cmdline)
    test.__name__ = test.__qualname__ = "test_matrix_" + name
    test.__doc__ = "%s on %s, %s: %s" % (loader, FIRMWARE[cell_firmware(name)], scheme,
                                         "fails: " + EXPECTED_FAILURES[name][0] if name in EXPECTED_FAILURES
                                         else "the probe reports entry " + want_entry)
    return test


for _cell in CELLS:
    _prefix = "pending_matrix_" if _cell[0] in PENDING and not os.environ.get("HANDOFF_MATRIX_PENDING") \
        else "test_matrix_"
    globals()[_prefix + _cell[0]] = _make(_cell)


# --- docs/compatibility.md --------------------------------------------------

def _fmt_probe(p):
    if not p:
        return "-", "-", "-", "-", "-"
    init = "%d B" % p.get("initrd_size", 0) if p.get("initrd_size") else "none"
    errs = ", ".join(p.get("errors") or []) or "none"
    extra = "e820 %s, EFI map %s, systab %s, screen %s, loader %s" % (
        p.get("e820"), p.get("efi_memmap"), "yes (%s-bit)" % p.get("fw_bits") if p.get("efi_systab") else "no",
        p.get("screen"), p.get("type_of_loader"))
    if p.get("efi_sig"):
        extra += ", efi_info %s" % p["efi_sig"]
    cmdline = "`%s`" % p["cmdline"].replace("`", "'") if p.get("cmdline") else "none"
    return p.get("entry", "-"), cmdline, init, errs, extra


NOTES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "matrix-notes.md")


def write_doc(path, results):
    """Write the matrix from the cells' cell.json files and run.py's results."""
    ok = {r["name"].split("::")[-1][len("test_matrix_"):]: r for r in results
          if r["name"].startswith("test_matrix::")}
    rows = []
    for name, loader, scheme, _image, _runner, want_entry, _args in CELLS:
        data = {}
        if os.path.isfile(cell_file(name)):
            with open(cell_file(name)) as f:
                data = json.load(f)
        r = ok.get(name)
        if r is None:
            status = "pending: " + PENDING[name] if name in PENDING else "not run"
            data = {}
        elif not r["ok"]:
            status = "FAIL: " + r["reason"]
        else:
            status = "fails (expected): " + EXPECTED_FAILURES[name][0] if name in EXPECTED_FAILURES else "pass"
        entry, cmdline, init, errs, extra = _fmt_probe(data.get("probe"))
        rows.append("| %s | %s | %s | %s (expected %s) | %s | %s | %s | %s | %s |" % (
            FIRMWARE[cell_firmware(name)], loader, scheme.replace("\\", "\\\\"),
            entry, "none" if name in EXPECTED_FAILURES else want_entry,
            cmdline.replace("|", "/"), init, errs, extra, status.replace("|", "/")))
    text = ["# Compatibility matrix", "",
            "Generated by `make matrix` (tests/boot/test_matrix.py; the notes after the table are",
            "tests/boot/matrix-notes.md): `build/probe.img` booted under QEMU (TCG) on each firmware",
            "by each loader and scheme, with a command-line marker and an initrd of known SHA-256.",
            "The probe reports what it was handed (docs/probe.md); a cell passes when the entry,",
            "command line and initrd checksum are right and the probe found no errors. A cell",
            "that \"fails (expected)\" is another loader's failure, asserted as it happens.", "",
            "| firmware | loader | scheme | probe entered by | command line | initrd | errors "
            "| what else the probe saw | result |",
            "|---|---|---|---|---|---|---|---|---|"] + rows + [""]
    with open(NOTES) as f:
        text.append(f.read())
    with open(path, "w") as f:
        f.write("\n".join(text))
