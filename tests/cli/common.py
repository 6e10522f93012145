"""What the CLI tests share: paths, the test registry, running the tool,
checks of its exit and error line, and readers of image bytes that do not use
the tool under test."""
import hashlib
import os
import shutil
import struct
import subprocess
import tempfile

from harness.paths import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(ROOT, "build", "handoff")
CACHE = os.path.join(ROOT, "build", "boot-cache")
KERNEL = os.environ.get("HANDOFF_TEST_KERNEL") or os.path.join(CACHE, "vmlinuz")
KERNEL = KERNEL if os.path.isabs(KERNEL) else os.path.join(ROOT, KERNEL)
INITRD = os.path.join(CACHE, "initramfs.cpio.gz")
LOADER = os.path.join(ROOT, "build", "handoff.efi")
LOADER32 = os.path.join(ROOT, "build", "handoffia32.efi")
LOADERAA64 = os.path.join(ROOT, "build", "handoffaa64.efi")
ARM64_KERNEL = os.path.join(CACHE, "arm64", "vmlinuz")  # Debian's arm64 Image (tests/boot/fetch-arm64.sh)
GRUB32 = "/usr/lib/grub/i386-efi/monolithic/grubia32.efi"
SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
SDSTUB = "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"
CORPUS = os.path.join(HERE, "corpus")
BOOT_TIMEOUT = 150

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


class Tmp:
    """A scratch directory per test (in @base, else TMPDIR's), removed afterwards."""

    def __init__(self, base=None):
        self.base = base

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="handoff-tooltest.", dir=self.base)
        return self.path

    def __exit__(self, *a):
        shutil.rmtree(self.path, ignore_errors=True)


def h(*args, env=None, timeout=300):
    e = dict(os.environ)
    e.update(env or {})
    e.pop("HANDOFF_LOG", None)
    return subprocess.run([TOOL, *args], capture_output=True, env=e, timeout=timeout)


def need(*paths):
    """A test's inputs: missing is a failure, never a skip (make check builds them)."""
    missing = [p for p in paths if not os.path.exists(p)]
    assert not missing, f"required file missing: {', '.join(missing)} (build it first)"


def ok(r, what=""):
    assert r.returncode == 0, f"{what} exit {r.returncode}: {r.stderr.decode(errors='replace')}"
    return r


def fails(r, code=1, needle=None):
    err = r.stderr.decode(errors="replace")
    assert r.returncode == code, f"expected exit {code}, got {r.returncode}: {err}"
    lines = [l for l in err.splitlines() if l and not l.startswith("Try 'handoff")]
    assert len(lines) == 1, f"expected one error line, got {lines!r}"
    assert lines[0].startswith("handoff: "), lines[0]
    if needle:
        assert needle in lines[0], f"{needle!r} not in {lines[0]!r}"
    return lines[0]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def tree_state(root):
    """Path -> (sha256, mtime_ns) for every file, and every directory."""
    state = {}
    for d, dirs, files in os.walk(root):
        for n in dirs:
            state[os.path.relpath(os.path.join(d, n), root) + "/"] = None
        for n in files:
            p = os.path.join(d, n)
            state[os.path.relpath(p, root)] = (sha256(p), os.stat(p).st_mtime_ns)
    return state

# ---- independent readers ---------------------------------------------------

def read_setup_header(data):
    """boot.rst "The real-mode kernel header", read with struct."""
    u8 = lambda o: data[o]
    u16 = lambda o: struct.unpack_from("<H", data, o)[0]
    u32 = lambda o: struct.unpack_from("<I", data, o)[0]
    u64 = lambda o: struct.unpack_from("<Q", data, o)[0]
    v = u16(0x206)
    kv_off = u16(0x20e) + 0x200
    kv = data[kv_off:data.index(b"\0", kv_off)].decode()
    return {
        "boot_protocol": "%d.%02d" % (v >> 8, v & 0xff),
        "setup_sects": u8(0x1f1) or 4,
        "loadflags": u8(0x211),
        "xloadflags": u16(0x236),
        "kernel_alignment": u32(0x230),
        "relocatable": bool(u8(0x234)),
        "pref_address": u64(0x258),
        "init_size": u32(0x260),
        "handover_offset": u32(0x264),
        "cmdline_size": u32(0x238),
        "initrd_addr_max": u32(0x22c),
        "kernel_version": kv,
    }


def read_pe(data):
    """PE/COFF spec §3-4: machine, subsystem, sections, certificate table."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    assert data[pe:pe + 4] == b"PE\0\0"
    machine, nsec = struct.unpack_from("<HH", data, pe + 4)
    opt_size = struct.unpack_from("<H", data, pe + 20)[0]
    opt = pe + 24
    subsystem = struct.unpack_from("<H", data, opt + 68)[0]
    cert_off, cert_size = struct.unpack_from("<II", data, opt + 112 + 4 * 8)
    sections = []
    for i in range(nsec):
        o = opt + opt_size + 40 * i
        name = data[o:o + 8].rstrip(b"\0").decode()
        vsize, va, raw_size, raw_off = struct.unpack_from("<IIII", data, o + 8)
        sections.append({"name": name, "virtual_address": va, "virtual_size": vsize, "raw_size": raw_size})
    signed = False
    off = cert_off
    while cert_size and off + 8 <= cert_off + cert_size:
        length, _rev, ctype = struct.unpack_from("<IHH", data, off)
        signed |= ctype == 2
        off += (length + 7) & ~7
    return {"machine": machine, "subsystem": subsystem, "sections": sections, "signed": signed}

def make_uki(tmp, cmdline="console=ttyS0 quiet", with_initrd=False):
    osrel = os.path.join(tmp, "os-release")
    with open(osrel, "w") as f:
        f.write('NAME="Test"\nPRETTY_NAME="Test OS \\"1\\""\nID=test\nVERSION_ID=1\n')
    cl = os.path.join(tmp, "cmdline")
    with open(cl, "w") as f:
        f.write(cmdline)
    out = os.path.join(tmp, "uki.efi")
    args = ["objcopy", "--add-section", f".osrel={osrel}", "--change-section-vma", ".osrel=0x30000",
            "--add-section", f".cmdline={cl}", "--change-section-vma", ".cmdline=0x31000",
            "--add-section", f".linux={KERNEL}", "--change-section-vma", ".linux=0x2000000"]
    if with_initrd:
        args += ["--add-section", f".initrd={INITRD}", "--change-section-vma", ".initrd=0x3000000"]
    subprocess.run(args + [SDSTUB, out], check=True)
    return out
