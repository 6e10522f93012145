"""The compatibility matrix: build/probe.img booted by every loader and scheme.

Each cell boots the probe (docs/probe.md) with a command-line marker
and an initrd whose SHA-256 is computed here, and asserts what the probe
reported on COM1: the entry it was started by, the exact command line, the
initrd's size and checksum, and no errors (the probe powers off through
isa-debug-exit with 0, QEMU status 1). `make matrix` (run.py --write-matrix)
turns the cells' reports into docs/compatibility.md.

Cells: handoff with protocol stub/handover/legacy/auto, systemd-boot, GRUB,
OVMF starting probe.img as \\EFI\\BOOT\\BOOTX64.EFI, and QEMU's -kernel through
OVMF (the wrapped probe.img and the bare bzImage without a PE header).
"""
import hashlib
import json
import os
import random
import shutil
import subprocess

import qemu

PROBE = "build/probe.img"
PROBE_BARE = "build/probe/probe-bare.img"
LOADER = "build/handoff.efi"
TOOL = "build/handoff"
STUB = "build/handoff-stub.efi"
SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
GRUB_MKSTANDALONE = "grub-mkstandalone"
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
    path = os.path.join(qemu.workdir(), "initrd.bin")
    with open(path, "wb") as f:
        f.write(data)
    if cell in INITRD_PADDED_TO_4:
        data += bytes(-len(data) % 4)
    return path, len(data), hashlib.sha256(data).hexdigest()


def marker_cmdline(cell):
    return "console=ttyS0 handoff.probe=%s quiet" % cell


def esp_tree(files):
    """files: {path in ESP: source path or bytes}. Returns the tree directory."""
    tree = os.path.join(qemu.workdir(), "esp")
    shutil.rmtree(tree, ignore_errors=True)
    for path, src in files.items():
        dst = os.path.join(tree, path)
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        if isinstance(src, bytes):
            with open(dst, "wb") as f:
                f.write(src)
        else:
            shutil.copyfile(src, dst)
    return tree


def boot_esp(files):
    img = qemu.make_esp(esp_tree(files), os.path.join(qemu.workdir(), "esp.img"))
    return qemu.run_qemu(img, TIMEOUT)


# --- how each loader is set up --------------------------------------------

def run_handoff(cell, image, cmdline, initrd, protocol):
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions %s\nprotocol %s\n" % (cmdline, protocol)
    return boot_esp({"EFI/BOOT/BOOTX64.EFI": qemu.root_path(LOADER), "probe.img": image, "initrd.bin": initrd,
                     "loader/loader.conf": b"timeout 0\ndefault probe.conf\n",
                     "loader/entries/probe.conf": conf.encode()})


def run_sdboot(cell, image, cmdline, initrd):
    if not os.path.isfile(SDBOOT):
        raise qemu.HarnessError("%s missing: install the Debian package 'systemd-boot-efi'" % SDBOOT)
    conf = "title probe\nlinux /probe.img\ninitrd /initrd.bin\noptions %s\n" % cmdline
    return boot_esp({"EFI/BOOT/BOOTX64.EFI": SDBOOT, "probe.img": image, "initrd.bin": initrd,
                     "loader/loader.conf": b"timeout 0\ndefault probe.conf\n",
                     "loader/entries/probe.conf": conf.encode()})


def grub_efi(cmdline):
    """A standalone GRUB (grub-mkstandalone, package grub-common) whose
    embedded grub.cfg finds the ESP and boots the probe at once."""
    if shutil.which(GRUB_MKSTANDALONE) is None:
        raise qemu.HarnessError("grub-mkstandalone not found: install the Debian packages "
                                "'grub-common' and 'grub-efi-amd64-bin'")
    cfg = os.path.join(qemu.workdir(), "grub.cfg")
    with open(cfg, "w") as f:
        f.write("set timeout=0\ninsmod all_video\ninsmod fat\ninsmod linux\n"
                "search --no-floppy --file --set=root /probe.img\n"
                "linux /probe.img %s\ninitrd /initrd.bin\nboot\n" % cmdline)
    out = os.path.join(qemu.workdir(), "grubx64.efi")
    p = subprocess.run([GRUB_MKSTANDALONE, "-O", "x86_64-efi", "-o", out,
                        "--modules=part_gpt part_msdos fat search search_fs_file linux all_video normal",
                        "--locales=", "--fonts=", "--themes=", "boot/grub/grub.cfg=" + cfg],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise qemu.HarnessError("grub-mkstandalone failed: %s" % (p.stderr or p.stdout).strip())
    return out


def run_grub(cell, image, cmdline, initrd):
    return boot_esp({"EFI/BOOT/BOOTX64.EFI": grub_efi(cmdline), "probe.img": image, "initrd.bin": initrd})


def run_ovmf(cell, image, cmdline, initrd):
    """Firmware starts probe.img itself: no load options, no initrd."""
    return boot_esp({"EFI/BOOT/BOOTX64.EFI": image})


def run_ovmf_uki(cell, image, cmdline, initrd):
    """Firmware starts a UKI built by `handoff uki` around the bare probe:
    command line and initrd come from its .cmdline and .initrd sections."""
    uki = os.path.join(qemu.workdir(), "probe-uki.efi")
    p = subprocess.run([qemu.root_path(TOOL), "uki", "--linux", image, "--initrd", initrd, "--cmdline", cmdline,
                        "--stub", qemu.root_path(STUB), "-o", uki], capture_output=True, text=True)
    if p.returncode != 0:
        raise qemu.HarnessError("handoff uki failed: %s" % (p.stderr or p.stdout).strip())
    return boot_esp({"EFI/BOOT/BOOTX64.EFI": uki})


def run_qemu_kernel(cell, image, cmdline, initrd):
    return qemu.run_qemu(None, TIMEOUT, kernel=image, initrd=initrd, append=cmdline)


# --- the cells ------------------------------------------------------------
# (name, loader, scheme asked for, image, runner, entry the probe must report,
#  the command line the probe must see: {c} is ours, None: the loader passes
#  neither command line nor initrd)
# Debian's GRUB 2.06 boots by the 32-bit protocol (its linuxefi handover path
# is only taken under shim) and puts BOOT_IMAGE= in front; systemd-boot 252
# puts initrd=<path> in front (and also serves the initrd by LoadFile2); OVMF's
# -kernel path appends initrd=initrd (and serves it by LoadFile2 too).

CELLS = [
    ("handoff_stub", "handoff", "protocol stub", PROBE, lambda *a: run_handoff(*a, "stub"), "stub", "{c}"),
    ("handoff_handover", "handoff", "protocol handover", PROBE, lambda *a: run_handoff(*a, "handover"), "handover",
     "{c}"),
    ("handoff_legacy", "handoff", "protocol legacy", PROBE, lambda *a: run_handoff(*a, "legacy"), "legacy64", "{c}"),
    ("handoff_auto", "handoff", "protocol auto", PROBE, lambda *a: run_handoff(*a, "auto"), "stub", "{c}"),
    ("handoff_auto_bare", "handoff", "protocol auto, bzImage without PE header", PROBE_BARE,
     lambda *a: run_handoff(*a, "auto"), "handover", "{c}"),
    ("sdboot", "systemd-boot (Debian 252)", "linux/initrd entry", PROBE, run_sdboot, "stub",
     "initrd=\\initrd.bin {c}"),
    ("grub", "GRUB (Debian 2.06)", "linux/initrd", PROBE, run_grub, "boot32", "BOOT_IMAGE=/probe.img {c}"),
    ("grub_bare", "GRUB (Debian 2.06)", "linux/initrd, bzImage without PE header", PROBE_BARE, run_grub,
     "boot32", "BOOT_IMAGE=/probe.img {c}"),
    ("ovmf_bootx64", "OVMF", "\\EFI\\BOOT\\BOOTX64.EFI", PROBE, run_ovmf, "stub", None),
    ("ovmf_uki", "OVMF", "\\EFI\\BOOT\\BOOTX64.EFI = `handoff uki` of the bare probe", PROBE_BARE, run_ovmf_uki,
     "stub", "{c}"),
    ("qemu_kernel", "QEMU -kernel + OVMF", "-kernel/-initrd/-append", PROBE, run_qemu_kernel, "stub",
     "{c} initrd=initrd"),
    ("qemu_kernel_bare", "QEMU -kernel + OVMF", "-kernel, bzImage without PE header", PROBE_BARE,
     run_qemu_kernel, "handover", "{c}"),
]


def cell_file(name):
    return os.path.join(qemu.TESTS_OUT, "test_matrix.test_matrix_%s" % name, "cell.json")


def record(name, loader, scheme, res, verdict):
    """What the probe saw, for docs/compatibility.md (run.py --write-matrix)."""
    probe = res.probe if res is not None else None
    with open(os.path.join(qemu.workdir(), "cell.json"), "w") as f:
        json.dump(dict(cell=name, loader=loader, scheme=scheme, probe=probe, verdict=verdict,
                       log=res.log_path if res is not None else None), f, indent=1)


def check_cell(name, loader, scheme, image, runner, want_entry, want_cmdline):
    cmdline = marker_cmdline(name)
    initrd, size, sha = make_initrd(name)
    record(name, loader, scheme, None, "did not boot")
    res = runner(name, qemu.root_path(image), cmdline, initrd)
    record(name, loader, scheme, res, "no HANDOFF-PROBE line")
    p = res.probe
    if p is None:
        qemu.fail("no HANDOFF-PROBE line on COM1 (the probe never ran, or crashed)", res)
    qemu.expect_eq(p.get("entry"), want_entry, "probe entry", res)
    if want_cmdline is not None:
        qemu.expect_eq(p.get("cmdline"), want_cmdline.format(c=cmdline), "command line the probe saw", res)
        qemu.expect_eq(p.get("initrd_size"), size, "initrd size", res)
        qemu.expect_eq(p.get("initrd_sha256"), sha, "initrd SHA-256", res)
    else:
        qemu.expect_eq(p.get("cmdline"), "", "command line (firmware passes none)", res)
        qemu.expect_eq(p.get("initrd_size"), 0, "initrd size (firmware passes none)", res)
    qemu.expect_eq(p.get("errors"), [], "probe errors", res)
    qemu.expect_eq(res.debug_exit, 0, "isa-debug-exit value (0: no errors)", res)
    record(name, loader, scheme, res, "pass")


# Cells that fail today for a reason outside the probe, listed so nobody counts
# them as passing: they are not collected as tests (run.py only takes test_*)
# until removed from here. HANDOFF_MATRIX_PENDING=1 collects them anyway.
PENDING = {}


def _make(cell):
    name, loader, scheme, image, runner, want_entry, want_cmdline = cell

    @qemu.needs(image, *([LOADER] if loader == "handoff" else []), *([TOOL, STUB] if runner is run_ovmf_uki else []))
    def test():
        check_cell(name, loader, scheme, image, runner, want_entry, want_cmdline)
    test.__name__ = test.__qualname__ = "test_matrix_" + name
    test.__doc__ = "%s, %s: the probe reports entry %s" % (loader, scheme, want_entry)
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
        p.get("e820"), p.get("efi_memmap"), "yes" if p.get("efi_systab") else "no", p.get("screen"),
        p.get("type_of_loader"))
    cmdline = "`%s`" % p["cmdline"].replace("`", "'") if p.get("cmdline") else "none"
    return p.get("entry", "-"), cmdline, init, errs, extra


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
        else:
            status = "pass" if r["ok"] else "FAIL: " + r["reason"]
        entry, cmdline, init, errs, extra = _fmt_probe(data.get("probe"))
        rows.append("| %s | %s | %s (expected %s) | %s | %s | %s | %s | %s |" % (
            loader, scheme.replace("\\", "\\\\"), entry, want_entry, cmdline.replace("|", "/"), init, errs, extra,
            status.replace("|", "/")))
    text = ["# Compatibility matrix", "",
            "Generated by `make matrix` (tests/boot/test_matrix.py): `build/probe.img` booted under",
            "QEMU/OVMF (TCG) by each loader and scheme, with a command-line marker and an initrd of",
            "known SHA-256. The probe reports what it was handed (docs/probe.md); a cell",
            "passes when the entry, command line and initrd checksum are right and the probe found",
            "no errors.", "",
            "| loader | scheme | probe entered by | command line | initrd | errors | what else the probe saw | result |",
            "|---|---|---|---|---|---|---|---|"] + rows + [""]
    with open(path, "w") as f:
        f.write("\n".join(text))
