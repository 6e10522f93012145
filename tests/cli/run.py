#!/usr/bin/python3
"""CLI tests of build/handoff: every command, every error path, checking
output and the files written. Values are checked against what this script
reads itself (struct over the image bytes, zlib.crc32 over the GPT, sfdisk,
sgdisk, mtools, debugfs), never against the tool's own earlier output.

    tests/cli/run.py [-k SUBSTRING] [--no-boot]

Prints PASS/FAIL per test and "N passed, N failed" last.
"""
import hashlib
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.dirname(HERE), HERE]  # tests/: the harness package; tests/cli: tool_system.py
from harness import gpt, initramfs, qemu  # noqa: E402
from harness.esp import write as write_files  # noqa: E402
from harness.gpt import ESP_TYPE, XBOOTLDR_TYPE  # noqa: E402
from harness.paths import ROOT  # noqa: E402

TOOL = os.path.join(ROOT, "build", "handoff")
CACHE = os.path.join(ROOT, "build", "boot-cache")
KERNEL = os.environ.get("HANDOFF_TEST_KERNEL") or os.path.join(CACHE, "vmlinuz")
KERNEL = KERNEL if os.path.isabs(KERNEL) else os.path.join(ROOT, KERNEL)
INITRD = os.path.join(CACHE, "initramfs.cpio.gz")
LOADER = os.path.join(ROOT, "build", "handoff.efi")
LOADER32 = os.path.join(ROOT, "build", "handoffia32.efi")
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
    """A scratch directory per test, removed afterwards."""

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix="handoff-tooltest.")
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


# ---- general -----------------------------------------------------------------

@test
def version_and_help():
    with open(os.path.join(ROOT, "VERSION")) as f:
        version = f.read().strip()
    assert ok(h("--version")).stdout.decode() == f"handoff {version}\n"
    assert b"Commands:" in ok(h("--help")).stdout
    for cmd in ("inspect", "install", "update", "entry", "status", "set-default", "set-timeout", "disk", "run"):
        r = ok(h(cmd, "--help"), cmd)
        assert r.stdout.startswith(b"Usage: handoff " + cmd.encode()), r.stdout[:80]
        assert r.stderr == b""
    ok(h("entry", "add", "--help"))


@test
def usage_errors_exit_2():
    cases = [
        (), ("frobnicate",), ("inspect",), ("inspect", "a", "b"), ("inspect", "--bogus", KERNEL),
        ("disk", "--esp", "/tmp"), ("disk", "-o", "x.img", "--esp", "/tmp", "--size", "abc"),
        ("disk", "-o", "x.img", "--esp", "/tmp", "--xbootldr", "/tmp", "--xbootldr-fs", "btrfs"),
        ("disk", "-o", "x.img", "--esp", "/tmp", "--xbootldr-fs", "ext4"), ("disk", "-o"),
        ("entry",), ("entry", "frob"), ("entry", "add", "--esp", "/tmp"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--protocol", "pxe"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--version", "../x"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--options", "a\nb"),
        ("entry", "remove", "--esp", "/tmp"), ("entry", "remove", "--esp", "/tmp", "../x"),
        ("run",), ("run", KERNEL, "--timeout", "soon"), ("run", KERNEL, "--protocol", "bios"),
        ("run", "a", "b"), ("install", "--esp", "/tmp", "--variables", "maybe"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--tries", "x"),
        ("entry", "add", "--esp", "/tmp", "--linux", KERNEL, "--in-place", "maybe"),
        ("entry", "add", "--kernel-version", "../1"), ("entry", "remove", "--kernel-version", "1", "extra"),
        ("update", "extra"), ("status", "extra"), ("set-default",), ("set-timeout", "soon"),
        ("set-oneshot", "@saved"), ("set-default", "@bogus"), ("set-default", "a\nb"),
    ]
    for args in cases:
        r = h(*args)
        assert r.returncode == 2, f"{args}: exit {r.returncode} {r.stderr!r}"
        assert r.stderr.startswith(b"handoff"), f"{args}: {r.stderr!r}"
        assert r.stdout == b"", f"{args}: stdout {r.stdout!r}"


# ---- inspect -----------------------------------------------------------------

@test
def inspect_debian_kernel_json():
    with open(KERNEL, "rb") as f:
        data = f.read()
    j = json.loads(ok(h("inspect", "--json", KERNEL)).stdout)
    want = read_setup_header(data)
    assert j["format"] == "bzImage"
    for k, v in want.items():
        assert j[k] == v, f"{k}: {j[k]!r} != {v!r}"
    pe = read_pe(data)
    assert j["pe"]["machine"] == pe["machine"] == 0x8664
    assert j["pe"]["subsystem"] == pe["subsystem"] == 10
    got = [{k: s[k] for k in ("name", "virtual_address", "virtual_size", "raw_size")} for s in j["pe"]["sections"]]
    assert got == pe["sections"], f"{got} != {pe['sections']}"
    assert j["signed"] == pe["signed"]
    assert "XLF_KERNEL_64" in j["xloadflags_names"]
    assert j["size"] == len(data)
    xlf = want["xloadflags"]
    expect = ["stub"] + (["handover"] if xlf & 8 and want["handover_offset"] else []) + (["legacy"] if xlf & 1 else [])
    assert j["schemes"] == expect, j["schemes"]


@test
def inspect_debian_kernel_text():
    out = ok(h("inspect", KERNEL)).stdout.decode()
    with open(KERNEL, "rb") as f:
        want = read_setup_header(f.read())
    assert "bzImage (with PE/COFF masquerade)" in out
    assert want["kernel_version"] in out
    assert f"boot protocol        {want['boot_protocol']}" in out
    assert "handover: yes" in out


@test
def inspect_efi_application():
    j = json.loads(ok(h("inspect", "--json", SDBOOT)).stdout)
    assert j["format"] == "pe"
    assert "boot_protocol" not in j
    assert j["schemes"] == ["stub"]
    assert j["schemes_rejected"]["handover"] == "not a bzImage"
    assert "systemd" in j["sbat"]
    with open(SDBOOT, "rb") as f:
        pe = read_pe(f.read())
    assert [s["name"] for s in j["pe"]["sections"]] == [s["name"] for s in pe["sections"]]
    assert j["signed"] is False


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


@test
def inspect_uki():
    with Tmp() as tmp:
        uki = make_uki(tmp, with_initrd=True)
        j = json.loads(ok(h("inspect", "--json", uki)).stdout)
        with open(KERNEL, "rb") as f:
            want = read_setup_header(f.read())
        assert j["format"] == "uki"
        assert j["boot_protocol"] == want["boot_protocol"]
        assert j["kernel_version"] == want["kernel_version"]
        assert j["uki"]["cmdline"] == "console=ttyS0 quiet"
        assert j["uki"]["osrel"] == {"NAME": "Test", "PRETTY_NAME": 'Test OS "1"', "ID": "test", "VERSION_ID": "1"}
        assert j["uki"]["linux_size"] == os.path.getsize(KERNEL)
        assert j["uki"]["initrd_size"] == os.path.getsize(INITRD)
        assert j["schemes"] == ["stub"]
        text = ok(h("inspect", uki)).stdout.decode()
        assert "format               uki" in text and "Test OS" in text


@test
def inspect_corpus():
    names = sorted(os.listdir(CORPUS))
    assert len(names) >= 20, names
    for n in names:
        p = os.path.join(CORPUS, n)
        for flags in ((), ("--json",)):
            r = h("inspect", *flags, p)
            if n.startswith("ok-"):
                ok(r, n)
                if flags:
                    json.loads(r.stdout)
            else:
                line = fails(r, 1, needle=f"handoff: inspect: {p}: ")
                assert r.stdout == b"", f"{n}: printed {r.stdout[:60]!r}"
                assert "\x1b" not in line


@test
def inspect_synthetic_values():
    """The corpus base image: values mkcorpus.py put there."""
    j = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-synthetic"))).stdout)
    assert j["setup_sects"] == 3 and j["boot_protocol"] == "2.15"
    assert j["handover_offset"] == 0x190 and j["init_size"] == 0x10000
    assert j["xloadflags_names"] == ["XLF_KERNEL_64", "XLF_CAN_BE_LOADED_ABOVE_4G", "XLF_EFI_HANDOVER_64"]
    assert j["kernel_version"] == "6.9.0-corpus (t@x) #1 "
    assert j["signed"] is False
    assert j["schemes"] == ["stub", "handover", "legacy"]
    s = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-signed"))).stdout)
    assert s["signed"] is True
    w = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-weird-section-name"))).stdout)
    assert w["pe"]["sections"][0]["name"] == '"\\\n\x1b\ufffd'
    u = json.loads(ok(h("inspect", "--json", os.path.join(CORPUS, "ok-uki"))).stdout)
    assert u["format"] == "uki" and u["setup_sects"] == 3 and u["schemes"] == ["stub"]
    assert u["uki"]["cmdline"] == "console=ttyS0 quiet"
    assert u["uki"]["osrel"] == {"PRETTY_NAME": 'Corpus "OS"', "NAME": "Corpus", "ID": "corpus"}
    t = ok(h("inspect", os.path.join(CORPUS, "ok-weird-section-name"))).stdout
    assert b"\x1b" not in t and b"\xff" not in t


@test
def inspect_file_errors():
    with Tmp() as tmp:
        fails(h("inspect", os.path.join(tmp, "missing")), 1, "No such file")
        fails(h("inspect", tmp), 1, "is a directory")
        trunc = os.path.join(tmp, "vmlinuz")
        with open(KERNEL, "rb") as f:
            data = f.read()
        for size in (0x100, 0x300, 16384, len(data) // 2):
            with open(trunc, "wb") as f:
                f.write(data[:size])
            fails(h("inspect", "--json", trunc), 1, f"{trunc}: ")
        sparse = os.path.join(tmp, "huge")
        with open(sparse, "wb") as f:
            f.truncate(2 << 30)
        fails(h("inspect", sparse), 1, "more than")


def read_compat_ia32(data):
    """Linux arch/x86/boot/header.S: the ".compat" section's {u8 type, u8 size,
    u16 machine, u32 entry} records; the IA-32 (0x14c) entry, or 0."""
    pe = struct.unpack_from("<I", data, 0x3c)[0]
    nsec = struct.unpack_from("<H", data, pe + 6)[0]
    opt_size = struct.unpack_from("<H", data, pe + 20)[0]
    for i in range(nsec):
        o = pe + 24 + opt_size + 40 * i
        if data[o:o + 8].rstrip(b"\0") == b".compat":
            raw_size, raw_off = struct.unpack_from("<II", data, o + 16)
            sec = data[raw_off:raw_off + raw_size]
            off = 0
            while off + 8 <= len(sec) and sec[off] != 0 and sec[off + 1] >= 8:
                kind, size, machine, entry = struct.unpack_from("<BBHI", sec, off)
                if kind == 1 and machine == 0x14c:
                    return entry
                off += size
    return 0


@test
def inspect_schemes_on_32bit_firmware():
    """schemes_ia32: the .compat IA-32 entry (stub), XLF_EFI_HANDOVER_32
    (handover), XLF_KERNEL_64 (legacy, the 32-bit boot protocol)."""
    with open(KERNEL, "rb") as f:
        data = f.read()
    hdr = read_setup_header(data)
    xlf, compat = hdr["xloadflags"], read_compat_ia32(data)
    j = json.loads(ok(h("inspect", "--json", KERNEL)).stdout)
    assert j["pe"]["compat_entry_ia32"] == compat, (j["pe"]["compat_entry_ia32"], compat)
    expect = (["stub"] if compat else []) + (["handover"] if xlf & 4 and hdr["handover_offset"] else []) + \
        (["legacy"] if xlf & 1 else [])
    assert j["schemes_ia32"] == expect, j["schemes_ia32"]
    assert j["schemes_ia32_rejected"] == {}, j["schemes_ia32_rejected"]
    out = ok(h("inspect", KERNEL)).stdout.decode()
    assert "on 32-bit firmware   stub: yes" in out, out
    with Tmp() as tmp:
        # without XLF_EFI_HANDOVER_32 / as a 32-bit kernel (no XLF_KERNEL_64)
        for flags, scheme, needle in ((xlf & ~4, "handover", "XLF_EFI_HANDOVER_32 not set"),
                                      (4, "legacy", "XLF_KERNEL_64 not set")):
            k = os.path.join(tmp, "k%x" % flags)
            with open(k, "wb") as f:
                f.write(data[:0x236] + struct.pack("<H", flags) + data[0x238:])
            j = json.loads(ok(h("inspect", "--json", k)).stdout)
            assert scheme not in j["schemes_ia32"], j
            assert needle in j["schemes_ia32_rejected"][scheme], j["schemes_ia32_rejected"]
    j = json.loads(ok(h("inspect", "--json", SDBOOT)).stdout)
    assert j["schemes_ia32"] == [] and "IA-32" in j["schemes_ia32_rejected"]["stub"], j
    for app in (LOADER32, GRUB32):
        j = json.loads(ok(h("inspect", "--json", app)).stdout)
        assert j["pe"]["machine"] == 0x14c and j["pe"]["machine_name"] == "i386", app
        assert j["schemes"] == [] and j["schemes_ia32"] == ["stub"], (app, j["schemes"], j["schemes_ia32"])


# ---- install -----------------------------------------------------------------

@test
def install_fresh_and_idempotent():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        r = ok(h("install", "--esp", esp, "--loader", SDBOOT))
        for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(SDBOOT), p
        conf = open(os.path.join(esp, "loader/loader.conf")).read()
        assert "timeout" in conf
        assert os.path.isdir(os.path.join(esp, "loader/entries"))
        assert b"installed" in r.stdout
        before = tree_state(esp)
        r = ok(h("install", "--esp", esp, "--loader", SDBOOT))
        assert tree_state(esp) == before, "second install changed the tree"
        assert r.stdout == b"" and r.stderr == b""
        assert os.listdir(tmp) == ["esp"]


@test
def install_keeps_other_loader():
    with Tmp() as tmp:
        boot = os.path.join(tmp, "EFI", "BOOT")
        os.makedirs(boot)
        other = os.path.join(boot, "BOOTX64.EFI")
        shutil.copy(SDSTUB, other)
        with open(os.path.join(tmp, "keep"), "w") as f:
            f.write("x")
        os.makedirs(os.path.join(tmp, "loader"))
        with open(os.path.join(tmp, "loader", "loader.conf"), "w") as f:
            f.write("timeout 7\n")
        r = ok(h("install", "--esp", tmp, "--loader", SDBOOT))
        assert sha256(other) == sha256(SDSTUB), "another loader was replaced"
        assert b"keeping" in r.stderr and b"--force" in r.stderr
        assert open(os.path.join(tmp, "loader", "loader.conf")).read() == "timeout 7\n"
        ok(h("install", "--esp", tmp, "--loader", SDBOOT, "--force"))
        assert sha256(other) == sha256(SDBOOT)
        # An update of handoff itself replaces the copy it put there.
        ok(h("install", "--esp", tmp, "--loader", SDSTUB))
        assert sha256(other) == sha256(SDSTUB)
        assert sha256(os.path.join(tmp, "EFI/handoff/handoffx64.efi")) == sha256(SDSTUB)


@test
def install_errors():
    with Tmp() as tmp:
        fails(h("install", "--esp", os.path.join(tmp, "nope"), "--loader", SDBOOT), 1, "not a directory")
        fails(h("install", "--esp", tmp, "--loader", os.path.join(tmp, "x.efi")), 1, "loader not found")
        fails(h("install", "--esp", tmp, "--loader", "/etc/hostname"), 1, "not an x86-64 EFI application")
        fails(h("install", "--esp", tmp, "--loader", os.path.join(CORPUS, "bad-section-raw-outside")), 1,
              "outside the file")
        # not the host's efivarfs: a stand-in that does not exist
        fails(h("install", "--esp", tmp, "--loader", SDBOOT, "--variables", "yes",
                env={"HANDOFF_EFIVARS_DIR": os.path.join(tmp + ".none", "efivars")}), 1, "efivars")
        assert os.listdir(tmp) == [], os.listdir(tmp)


@test
def install_for_32bit_firmware():
    """--arch ia32|both: handoffia32.efi and the IA-32 fallback BOOTIA32.EFI."""
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("install", "--esp", esp, "--arch", "ia32"))
        assert sorted(os.listdir(os.path.join(esp, "EFI/BOOT"))) == ["BOOTIA32.EFI"]
        for p in ("EFI/handoff/handoffia32.efi", "EFI/BOOT/BOOTIA32.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADER32), p
        ok(h("install", "--esp", esp, "--arch", "both"))
        for p in ("EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI"):
            assert sha256(os.path.join(esp, p)) == sha256(LOADER), p
        before = tree_state(esp)
        r = ok(h("install", "--esp", esp, "--arch", "both"))
        assert tree_state(esp) == before and r.stdout == b"", "second install changed the tree"
        # another IA-32 loader at the fallback path is kept, as for x64
        shutil.copy(GRUB32, os.path.join(esp, "EFI/BOOT/BOOTIA32.EFI"))
        ok(h("install", "--esp", esp, "--arch", "ia32", "--loader", LOADER32))
        assert sha256(os.path.join(esp, "EFI/BOOT/BOOTIA32.EFI")) == sha256(GRUB32)
        before = tree_state(esp)
        fails(h("install", "--esp", esp, "--arch", "ia32", "--loader", LOADER), 1, "not an IA-32 EFI application")
        fails(h("install", "--esp", esp, "--arch", "x64", "--loader", LOADER32), 1, "not an x86-64 EFI application")
        fails(h("install", "--esp", esp, "--arch", "both", "--loader", LOADER), 2, "--arch x64 or --arch ia32")
        fails(h("install", "--esp", esp, "--arch", "arm64"), 2, "expected x64, ia32 or both")
        assert tree_state(esp) == before, "a refused install wrote something"


# The ESP as the test hook HANDOFF_ESP_PARTITION gives it: number, first sector, sectors, partition GUID.
ESP_PARTITION = "1:2048:131072:c0ffee00-1234-4321-8765-0123456789ab"


@test
def install_boot_variable_32bit_firmware():
    """--variables yes on 32-bit firmware (fw_platform_size 32) names handoffia32.efi."""
    g = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
    with Tmp() as tmp:
        ev, esp = os.path.join(tmp, "efi", "efivars"), os.path.join(tmp, "esp")
        os.makedirs(ev)
        os.makedirs(esp)
        with open(os.path.join(tmp, "efi", "fw_platform_size"), "w") as f:
            f.write("32\n")
        env = {"HANDOFF_EFIVARS_DIR": ev, "HANDOFF_ESP_PARTITION": ESP_PARTITION}
        ok(h("install", "--esp", esp, "--arch", "both", "--variables", "yes", env=env))
        data = open(os.path.join(ev, f"Boot0000-{g}"), "rb").read()
        assert "\\EFI\\handoff\\handoffia32.efi\0".encode("utf-16-le") in data, data


@test
def install_boot_variable():
    """Boot#### and BootOrder through a stand-in efivarfs directory."""
    g = "8be4df61-93ca-11d2-aa0d-00e098032b8c"
    with Tmp() as tmp:
        ev, esp = os.path.join(tmp, "efivars"), os.path.join(tmp, "esp")
        os.makedirs(ev)
        os.makedirs(esp)
        with open(os.path.join(ev, f"Boot0000-{g}"), "wb") as f:
            f.write(struct.pack("<I", 7) + b"firmware entry")
        with open(os.path.join(ev, f"BootOrder-{g}"), "wb") as f:
            f.write(struct.pack("<IHH", 7, 0, 3))
        env = {"HANDOFF_EFIVARS_DIR": ev, "HANDOFF_ESP_PARTITION": ESP_PARTITION}
        ok(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes", env=env))
        data = open(os.path.join(ev, f"Boot0001-{g}"), "rb").read()
        attrs, active, fpl = struct.unpack_from("<IIH", data, 0)
        assert attrs == 7 and active == 1
        desc_end = data.index(b"\0\0", 10)
        desc_end += (desc_end - 10) % 2
        assert data[10:desc_end].decode("utf-16-le") == "handoff"
        dp = data[desc_end + 2:]
        assert len(dp) == fpl
        t, st, ln, part, start, size = struct.unpack_from("<BBHIQQ", dp, 0)
        assert (t, st, ln, part, start, size) == (4, 1, 42, 1, 2048, 131072)
        import uuid
        assert uuid.UUID(bytes_le=dp[24:40]) == uuid.UUID("c0ffee00-1234-4321-8765-0123456789ab")
        assert dp[40:42] == b"\x02\x02"
        t, st, ln = struct.unpack_from("<BBH", dp, 42)
        assert (t, st) == (4, 4)
        assert dp[46:42 + ln].decode("utf-16-le") == "\\EFI\\handoff\\handoffx64.efi\0"
        assert dp[42 + ln:] == b"\x7f\xff\x04\x00"
        order = open(os.path.join(ev, f"BootOrder-{g}"), "rb").read()
        assert struct.unpack("<IHHH", order) == (7, 1, 0, 3)
        before = tree_state(tmp)
        ok(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes", env=env))
        assert tree_state(tmp) == before, "second install --variables yes changed something"
        fails(h("install", "--esp", esp, "--loader", SDBOOT, "--variables", "yes",
                env={"HANDOFF_EFIVARS_DIR": ev}), 1, "not on a FAT file system")


# ---- entry -------------------------------------------------------------------

def kernel_release():
    with open(KERNEL, "rb") as f:
        return read_setup_header(f.read())["kernel_version"].split()[0]


@test
def entry_add_layout():
    with Tmp() as esp:
        rel = kernel_release()
        r = ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD,
                 "--options", "console=ttyS0 quiet", "--entry-token", "tok", "--title", "My Linux"))
        conf = os.path.join(esp, "loader", "entries", f"tok-{rel}.conf")
        assert r.stdout.decode().strip() == conf
        assert sha256(os.path.join(esp, "tok", rel, "linux")) == sha256(KERNEL)
        assert sha256(os.path.join(esp, "tok", rel, "initramfs.cpio.gz")) == sha256(INITRD)
        lines = dict(l.split(None, 1) for l in open(conf).read().splitlines() if l and not l.startswith("#"))
        assert lines["title"] == "My Linux"
        assert lines["version"] == rel
        assert lines["linux"] == f"/tok/{rel}/linux"
        assert lines["initrd"] == f"/tok/{rel}/initramfs.cpio.gz"
        assert lines["options"] == "console=ttyS0 quiet"
        assert "protocol" not in lines
        before = tree_state(esp)
        ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD,
             "--options", "console=ttyS0 quiet", "--entry-token", "tok", "--title", "My Linux"))
        assert tree_state(esp) == before, "adding the same entry again changed files"


def fake_root(tmp, files):
    """A root directory holding only @files (path -> text): what --root reads."""
    root = os.path.join(tmp, "root")
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)
    os.makedirs(root, exist_ok=True)
    return root


MID = "0123456789abcdef0123456789abcdef"


@test
def entry_add_token_fallbacks():
    """kernel-install's order under --root: /etc/kernel/entry-token, the machine
    ID, IMAGE_ID, ID; none of them is a clear error. Nothing of the build host
    (its machine ID, os-release) is read."""
    osrel = 'ID=deb\nIMAGE_ID=appliance\nPRETTY_NAME="Fake OS 1"\n'
    cases = [
        ({"etc/kernel/entry-token": "tok\n", "etc/machine-id": MID + "\n", "usr/lib/os-release": osrel}, "tok"),
        ({"etc/machine-id": MID + "\n", "etc/os-release": osrel}, MID),
        ({"etc/machine-id": "\n", "etc/os-release": osrel}, "appliance"),             # empty machine-id
        ({"etc/machine-id": "uninitialized\n", "usr/lib/os-release": "ID=deb\n"}, "deb"),
    ]
    for files, token in cases:
        with Tmp() as tmp:
            esp = os.path.join(tmp, "esp")
            os.mkdir(esp)
            r = ok(h("entry", "add", "--esp", esp, "--root", fake_root(tmp, files), "--linux", KERNEL,
                     "--version", "1.0"), token)
            conf = os.path.join(esp, "loader", "entries", f"{token}-1.0.conf")
            assert r.stdout.decode().strip() == conf, (r.stdout, conf)
            text = open(conf).read()
            assert f"linux      /{token}/1.0/linux" in text, text
            assert ("machine-id " + MID in text) == (MID in files.get("etc/machine-id", "")), text
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        fails(h("entry", "add", "--esp", esp, "--root", fake_root(tmp, {}), "--linux", KERNEL, "--version", "1"),
              1, "no entry token: no /etc/kernel/entry-token, /etc/machine-id, nor IMAGE_ID= or ID= in os-release")
        assert os.listdir(esp) == [], "nothing written"


@test
def entry_add_defaults_and_protocol():
    with Tmp() as esp:
        root = fake_root(esp + ".root", {"etc/machine-id": MID + "\n",
                                         "etc/os-release": 'PRETTY_NAME="Fake OS 1"\nID=fake\n'})
        ok(h("entry", "add", "--esp", esp, "--root", root, "--linux", KERNEL, "--protocol", "legacy",
             "--version", "1.0"))
        conf = open(os.path.join(esp, "loader", "entries", f"{MID}-1.0.conf")).read()
        assert "protocol   legacy" in conf and f"machine-id {MID}" in conf, conf
        assert f"linux      /{MID}/1.0/linux" in conf and "title      Fake OS 1" in conf, conf
        assert "sort-key   fake" in conf, conf
        shutil.rmtree(esp + ".root")
        fails(h("entry", "add", "--esp", esp, "--linux", SDBOOT, "--protocol", "handover", "--entry-token", "t",
                "--version", "2"), 1, "cannot boot by handover: not a bzImage")
        fails(h("entry", "add", "--esp", esp, "--linux", "/etc/hostname", "--entry-token", "t"), 1,
              "neither a bzImage")
        fails(h("entry", "add", "--esp", os.path.join(esp, "no"), "--linux", KERNEL, "--entry-token", "t"), 1,
              "not a directory")
        fails(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "a/b"), 1, "entry token")
        fails(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "t", "--initrd", "/nonexistent/x"),
              1, "No such file")
        assert not os.path.exists(os.path.join(esp, "loader", "entries", "t-" + kernel_release() + ".conf"))
        r = h("entry", "add", "--esp", esp, "--linux", SDBOOT, "--entry-token", "t")
        assert r.returncode == 2 and b"--version" in r.stderr


@test
def entry_remove_keeps_shared_files():
    with Tmp() as esp:
        for v in ("1", "2"):
            ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", "t", "--version", v,
                 "--initrd", INITRD))
        # A hand-written entry sharing version 1's kernel.
        with open(os.path.join(esp, "loader/entries/manual.conf"), "w") as f:
            f.write("title manual\nlinux /t/1/linux\n")
        ok(h("entry", "remove", "--esp", esp, "t-1"))
        assert not os.path.exists(os.path.join(esp, "loader/entries/t-1.conf"))
        assert os.path.exists(os.path.join(esp, "t/1/linux")), "shared kernel removed"
        assert not os.path.exists(os.path.join(esp, "t/1/initramfs.cpio.gz"))
        ok(h("entry", "remove", "--esp", esp, "t-2.conf"))
        assert not os.path.exists(os.path.join(esp, "t/2")), "empty version directory left"
        ok(h("entry", "remove", "--esp", esp, "manual"))
        assert not os.path.exists(os.path.join(esp, "t")), "empty token directory left"
        fails(h("entry", "remove", "--esp", esp, "t-1"), 1, "no entry 't-1'")
        # An entry pointing outside the ESP: the file there is never touched.
        outside = os.path.join(os.path.dirname(esp), os.path.basename(esp) + ".victim")
        with open(outside, "w") as f:
            f.write("keep")
        try:
            with open(os.path.join(esp, "loader/entries/evil.conf"), "w") as f:
                f.write(f"linux /../{os.path.basename(outside)}\n")
            ok(h("entry", "remove", "--esp", esp, "evil"))
            assert os.path.exists(outside)
        finally:
            os.unlink(outside)


@test
def entry_list_as_the_loader_sees_it():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        for tok, v, proto in (("a", "1", "auto"), ("a", "2", "handover"), ("b", "1", "auto")):
            ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--entry-token", tok, "--version", v,
                 "--protocol", proto, "--initrd", INITRD))
            conf = os.path.join(esp, f"loader/entries/{tok}-{v}.conf")
            text = open(conf).read().replace("sort-key   debian", f"sort-key   {tok}")
            if "sort-key" not in text:
                text += f"sort-key {tok}\n"
            open(conf, "w").write(text)
        write_files(esp, {
            "loader/loader.conf": b"timeout 5\ndefault b-*\nfrobnicate yes\n",
            # Upper case on disk, lower case in the entry: FAT would find it.
            "EFI/TOOLS/SHELL.EFI": open(SDBOOT, "rb").read(),
            "loader/entries/tool.conf": b"title Tool\nefi /efi/tools/shell.efi\nbogus line here\n",
            "loader/entries/broken.conf": b"title Broken\nlinux /missing/linux\ninitrd /missing/initrd\n",
            "loader/entries/sdboot-legacy.conf": b"title Not a bzImage\nlinux /EFI/TOOLS/SHELL.EFI\nprotocol legacy\n",
            "loader/entries/empty.conf": b"title Nothing\n",
        })
        os.makedirs(os.path.join(esp, "EFI/Linux"))
        make_uki(os.path.join(esp, "EFI/Linux"))
        j = json.loads(ok(h("entry", "list", "--esp", esp, "--json")).stdout)
        ids = [e["id"] for e in j["entries"]]
        assert ids[:3] == ["a-2", "a-1", "b-1"], ids
        assert set(ids[3:]) == {"tool", "broken", "sdboot-legacy", "uki.efi"}, ids
        by = {e["id"]: e for e in j["entries"]}
        assert j["default"] == "b-1" and by["b-1"]["default"] and not by["a-2"]["default"]
        assert j["timeout"] == 5
        assert any("frobnicate" in p for p in j["problems"]), j["problems"]
        assert by["a-2"]["protocol"] == "handover" and by["a-2"]["problems"] == []
        assert by["a-1"]["initrd"] == ["/a/1/initramfs.cpio.gz"]
        assert by["tool"]["efi"] == "/efi/tools/shell.efi"
        assert len(by["tool"]["problems"]) == 1 and "bogus" in by["tool"]["problems"][0], by["tool"]["problems"]
        probs = by["broken"]["problems"]
        assert any("linux /missing/linux: file not found" in p for p in probs), probs
        assert any("initrd /missing/initrd: file not found" in p for p in probs), probs
        assert any("cannot boot by legacy" in p for p in by["sdboot-legacy"]["problems"]), by["sdboot-legacy"]
        assert by["uki.efi"]["type"] == "type2" and by["uki.efi"]["title"] == 'Test OS "1"'
        assert by["uki.efi"]["version"] == "1" and by["uki.efi"]["sort_key"] == "test"
        assert [i["path"] for i in j["ignored"]] == ["loader/entries/empty.conf"]
        assert "nothing to boot" in j["ignored"][0]["problems"][0]
        text = ok(h("entry", "list", "--esp", esp)).stdout.decode()
        assert "* " in text and "problem: initrd /missing/initrd: file not found" in text
        assert "ignored by the loader" in text
        fails(h("entry", "list", "--esp", os.path.join(tmp, "none")), 1, "not a directory")
        empty = os.path.join(tmp, "empty")
        os.mkdir(empty)
        assert json.loads(ok(h("entry", "list", "--esp", empty, "--json")).stdout)["entries"] == []


# ---- disk --------------------------------------------------------------------

@test
def disk_esp_only():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        payload = os.urandom(300000)
        write_files(esp, {"EFI/BOOT/BOOTX64.EFI": open(SDBOOT, "rb").read(), "loader/entries/a.conf": b"title a\n",
                          "deep/er/Mixed Case.bin": payload})
        os.makedirs(os.path.join(esp, "empty"))
        img = os.path.join(tmp, "disk.img")
        r = ok(h("disk", "-o", img, "--esp", esp))
        assert b"ESP" in r.stdout
        n, first, last, parts = gpt.read(img)
        assert first == 34 and last == n - 34
        assert len(parts) == 1 and parts[0]["type"] == ESP_TYPE
        assert parts[0]["first"] == 2048 and (parts[0]["last"] + 1) % 2048 == 0
        assert parts[0]["name"] == "EFI System Partition"
        sg = subprocess.run(["sgdisk", "-v", img], capture_output=True, text=True)
        assert "No problems found" in sg.stdout, sg.stdout
        sf = json.loads(subprocess.run(["sfdisk", "--json", img], capture_output=True, text=True, check=True).stdout)
        assert sf["partitiontable"]["label"] == "gpt"
        assert sf["partitiontable"]["partitions"][0]["type"] == ESP_TYPE
        assert sf["partitiontable"]["partitions"][0]["uuid"] == parts[0]["guid"]
        env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
        at = f"{img}@@{parts[0]['first'] * 512}"
        got = subprocess.run(["mtype", "-i", at, "::/deep/er/Mixed Case.bin"], capture_output=True, env=env,
                             check=True).stdout
        assert got == payload
        listing = subprocess.run(["mdir", "-i", at, "::/"], capture_output=True, env=env, text=True, check=True).stdout
        assert "empty" in listing
        part = os.path.join(tmp, "p1")
        subprocess.run(["dd", f"if={img}", f"of={part}", "bs=512", f"skip={parts[0]['first']}",
                        f"count={parts[0]['last'] - parts[0]['first'] + 1}", "status=none"], check=True)
        fsck = subprocess.run(["fsck.vfat", "-n", part], capture_output=True, text=True)
        assert fsck.returncode == 0, fsck.stdout + fsck.stderr
        with open(img, "rb") as f:
            f.seek(parts[0]["first"] * 512 + 82)
            assert f.read(8) == b"FAT32   ", "ESP is not FAT32"
        # Unique GUIDs: a second image gets different ones.
        img2 = os.path.join(tmp, "disk2.img")
        ok(h("disk", "-o", img2, "--esp", esp))
        assert gpt.read(img2)[3][0]["guid"] != parts[0]["guid"]


@test
def disk_with_xbootldr():
    for fs in ("vfat", "ext4"):
        with Tmp() as tmp:
            esp, xbl = os.path.join(tmp, "esp"), os.path.join(tmp, "xbl")
            write_files(esp, {"EFI/BOOT/BOOTX64.EFI": b"x" * 1000})
            data = os.urandom(5 << 20)
            write_files(xbl, {"k/linux": data})
            img = os.path.join(tmp, "d.img")
            ok(h("disk", "-o", img, "--esp", esp, "--xbootldr", xbl, "--xbootldr-fs", fs, "--size", "300"))
            assert os.path.getsize(img) == 300 << 20
            n, first, last, parts = gpt.read(img)
            assert [p["type"] for p in parts] == [ESP_TYPE, XBOOTLDR_TYPE]
            assert parts[1]["first"] == parts[0]["last"] + 1 and parts[1]["first"] % 2048 == 0
            assert parts[1]["last"] <= last
            assert len({p["guid"] for p in parts}) == 2
            part = os.path.join(tmp, "p2")
            subprocess.run(["dd", f"if={img}", f"of={part}", "bs=512", f"skip={parts[1]['first']}",
                            f"count={parts[1]['last'] - parts[1]['first'] + 1}", "status=none"], check=True)
            if fs == "ext4":
                fsck = subprocess.run(["e2fsck", "-fn", part], capture_output=True, text=True)
                assert fsck.returncode == 0, fsck.stdout
                got = subprocess.run(["debugfs", "-R", "cat /k/linux", part], capture_output=True, check=True).stdout
            else:
                env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
                got = subprocess.run(["mtype", "-i", part, "::/k/linux"], capture_output=True, env=env,
                                     check=True).stdout
            assert got == data, f"{fs}: XBOOTLDR contents differ"


@test
def disk_errors_leave_nothing():
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        write_files(esp, {"big": os.urandom(1 << 20)})
        before = sorted(os.listdir(tmp))
        img = os.path.join(tmp, "d.img")
        fails(h("disk", "-o", img, "--esp", esp, "--size", "10"), 1, "too small")
        fails(h("disk", "-o", img, "--esp", os.path.join(tmp, "none")), 1, "not a directory")
        fails(h("disk", "-o", img, "--esp", esp, "--xbootldr", os.path.join(tmp, "none")), 1, "not a directory")
        fails(h("disk", "-o", os.path.join(tmp, "nodir", "d.img"), "--esp", esp), 1, "d.img")
        fails(h("disk", "-o", esp, "--esp", esp), 1, "is a directory")
        # A file system tool failing midway: no partial image, no temp file.
        fails(h("disk", "-o", img, "--esp", esp, env={"PATH": "/nonexistent"}), 1, "mkfs.vfat")
        assert sorted(os.listdir(tmp)) == before, os.listdir(tmp)
        # An existing image is replaced only by a complete one.
        with open(img, "wb") as f:
            f.write(b"old")
        fails(h("disk", "-o", img, "--esp", esp, env={"PATH": "/nonexistent"}), 1)
        assert open(img, "rb").read() == b"old"


# ---- run ---------------------------------------------------------------------

def init_report(out):
    """The test initramfs's HANDOFF-INIT report in `handoff run`'s output, or None."""
    for line in out.decode(errors="replace").splitlines():
        report, _ = qemu.parse_tagged(line, "HANDOFF-INIT")
        if report is not None:
            return report
    return None


def payload_sha():
    return initramfs.expected_payload_sha256(INITRD)


def sdboot_esp(tmp, options):
    esp = os.path.join(tmp, "esp")
    write_files(esp, {"EFI/BOOT/BOOTX64.EFI": open(SDBOOT, "rb").read(), "loader/loader.conf": b"timeout 0\n"})
    ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD, "--options", options,
         "--entry-token", "t", "--version", "1"))
    return esp


@test
def run_disk_image_with_systemd_boot():
    """disk + run plumbing, with systemd-boot reading the same BLS entries."""
    with Tmp() as tmp:
        esp = sdboot_esp(tmp, "console=ttyS0 handoff.debug_exit=5")
        img = os.path.join(tmp, "d.img")
        ok(h("disk", "-o", img, "--esp", esp))
        digest = sha256(img)
        r = h("run", img, "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
        rep = init_report(r.stdout)
        assert rep, r.stdout[-2000:]
        assert r.returncode == 5, f"exit {r.returncode}: {r.stderr!r}"
        assert "handoff.debug_exit=5" in rep["cmdline"] and rep["efi"] is True
        assert rep["payload_sha256"] == payload_sha()
        assert sha256(img) == digest, "run modified the image"


@test
def run_kernel_file_with_loader_option():
    """A kernel TARGET is staged with --loader and an entry from --initrd/--options."""
    r = h("run", KERNEL, "--loader", SDBOOT, "--initrd", INITRD, "--options", "console=ttyS0 handoff.debug_exit=7",
          "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
    rep = init_report(r.stdout)
    assert rep and r.returncode == 7, f"exit {r.returncode}: {r.stderr!r} {r.stdout[-1500:]!r}"
    assert rep["payload_sha256"] == payload_sha()


@test
def run_timeout_and_errors():
    with Tmp() as tmp:
        before = set(os.listdir(tempfile.gettempdir()))
        r = h("run", SDBOOT, "--timeout", "3", env={"TMPDIR": tmp}, timeout=60)
        fails(r, 124, "timed out after 3 s")
        assert os.listdir(tmp) == [], "run left its work directory"
        fails(h("run", SDBOOT, env={"HANDOFF_OVMF_DIR": tmp}), 1, "install the Debian package ovmf")
        fails(h("run", SDBOOT, env={"HANDOFF_QEMU": os.path.join(tmp, "qemu")}), 1, "qemu-system-x86")
        fails(h("run", SDBOOT, "--timeout", "30", "--", "-bogus-option"), 1, "QEMU failed")
        fails(h("run", "/etc/hostname"), 1, "not a disk image")
        fails(h("run", os.path.join(tmp, "missing")), 1, "No such file")
        r = h("run", SDBOOT, "--protocol", "handover")
        assert r.returncode == 2, r.stderr
        assert set(os.listdir(tempfile.gettempdir())) - before == set()


def fake_qemu(tmp, script):
    """An executable standing in for QEMU (HANDOFF_QEMU), running @script."""
    path = os.path.join(tmp, "fake-qemu")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + script + "\n")
    os.chmod(path, 0o755)
    return path


def children(pid):
    try:
        with open("/proc/%d/task/%d/children" % (pid, pid)) as f:
            return [int(x) for x in f.read().split()]
    except OSError:
        return []


def gone(pid, within):
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open("/proc/%d/stat" % pid) as f:
                if f.read().split(") ", 1)[1].startswith("Z"):
                    return True
        except OSError:
            return True
        time.sleep(0.1)
    return False


@test
def run_kills_a_qemu_that_ignores_sigterm():
    """--timeout sends SIGTERM, then SIGKILL after a grace period: QEMU can hang
    on a SIGTERM that arrives while OVMF starts (seen in make check)."""
    with Tmp() as tmp:
        q = fake_qemu(tmp, "trap '' TERM\nexec sleep 60")
        t0 = time.monotonic()
        r = h("run", SDBOOT, "--timeout", "1", env={"HANDOFF_QEMU": q, "TMPDIR": tmp}, timeout=30)
        took = time.monotonic() - t0
        fails(r, 124, "timed out after 1 s")
        assert took < 20, f"took {took:.1f} s"


@test
def run_killed_leaves_no_qemu():
    """A `handoff run` killed with SIGKILL (a test harness's timeout) takes QEMU with it."""
    with Tmp() as tmp:
        q = fake_qemu(tmp, "exec sleep 60")
        e = dict(os.environ, HANDOFF_QEMU=q, TMPDIR=tmp)
        p = subprocess.Popen([TOOL, "run", SDBOOT], env=e, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        end = time.monotonic() + 20
        while not children(p.pid) and time.monotonic() < end:
            time.sleep(0.1)
        kids = children(p.pid)
        p.kill()
        p.wait()
        assert kids, "handoff run started no QEMU"
        assert all(gone(k, 5) for k in kids), f"QEMU {kids} outlived handoff run"


# ---- uki, wrap: malformed inputs and failures leave outputs alone -------------

STUB = os.path.join(ROOT, "build", "handoff-stub.efi")


def dir_state(d):
    """Names in @d with their sha256 and mtime: a temporary file left behind,
    or an output touched, shows up as a difference."""
    return {n: (sha256(os.path.join(d, n)), os.stat(os.path.join(d, n)).st_mtime_ns) for n in sorted(os.listdir(d))}


@test
def uki_and_wrap_on_the_malformed_corpus():
    """Every image of the corpus as --linux: refused with one line naming the
    file (the existing output untouched, nothing left beside it), or, for a
    kernel whose bzImage header is sound, a well-formed result carrying the
    kernel's bytes unchanged (read back with this script's own PE reader)."""
    need(STUB)
    for name in sorted(os.listdir(CORPUS)):
        src = os.path.join(CORPUS, name)
        data = open(src, "rb").read()
        for cmd in ("uki", "wrap"):
            with Tmp() as tmp:
                out = os.path.join(tmp, "out.efi")
                with open(out, "wb") as f:
                    f.write(b"the previous image")
                before = dir_state(tmp)
                r = h(cmd, "--linux", src, "-o", out)
                if r.returncode != 0:
                    line = fails(r, 1)
                    assert src in line, f"{cmd} {name}: the error does not name the file: {line!r}"
                    assert dir_state(tmp) == before, f"{cmd} {name}: output touched or temporary file left"
                    continue
                img = open(out, "rb").read()
                pe = read_pe(img)
                assert pe["machine"] == 0x8664 and pe["subsystem"] == 10, f"{cmd} {name}: {pe}"
                if cmd == "uki":
                    sec = [x for x in pe["sections"] if x["name"] == ".linux"]
                    assert len(sec) == 1 and sec[0]["virtual_size"] == len(data), f"uki {name}: .linux {sec}"
                else:
                    # wrap.h: from the setup header to syssize's end the bzImage is carried unchanged
                    end = ((data[0x1f1] or 4) + 1) * 512 + struct.unpack_from("<I", data, 0x1f4)[0] * 16
                    assert img[0x1f1:end] == data[0x1f1:end], f"wrap {name}: the bzImage is not carried unchanged"
                    assert ".bzimage" in [x["name"] for x in pe["sections"]], f"wrap {name}: no .bzimage section"


@test
def uki_wrap_entry_add_fail_midway_leave_outputs():
    """A failure after the kernel was read (an initrd that cannot be read)
    leaves an existing output exactly as it was."""
    need(STUB)
    with Tmp() as tmp:
        out = os.path.join(tmp, "out", "uki.efi")
        os.makedirs(os.path.dirname(out))
        ok(h("uki", "--linux", KERNEL, "--cmdline", "console=ttyS0", "-o", out))
        before = dir_state(os.path.dirname(out))
        fails(h("uki", "--linux", KERNEL, "--initrd", tmp, "-o", out), 1, tmp)  # a directory as initrd
        assert dir_state(os.path.dirname(out)) == before, "uki: output touched"
        fails(h("wrap", "--linux", os.path.join(tmp, "missing"), "-o", out), 1, "missing")
        assert dir_state(os.path.dirname(out)) == before, "wrap: output touched"
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("entry", "add", "--esp", esp, "--linux", KERNEL, "--initrd", INITRD, "--entry-token", "t",
             "--version", "1", "--options", "first"))
        state = tree_state(esp)
        other = os.path.join(tmp, "vmlinuz-other")  # a different kernel: replacing the old one would show
        with open(other, "wb") as f:
            f.write(open(KERNEL, "rb").read() + b"\0")
        fails(h("entry", "add", "--esp", esp, "--linux", other, "--initrd", INITRD,
                "--initrd", os.path.join(tmp, "missing-initrd"), "--entry-token", "t", "--version", "1",
                "--options", "second"), 1, "missing-initrd")
        assert tree_state(esp) == state, "entry add: the existing entry or its files changed"


# ---- the new user ------------------------------------------------------------

@test
def new_user_end_to_end():
    """install, entry add, disk, run with handoff's own loader; check what Linux saw."""
    need(LOADER)
    with Tmp() as tmp:
        esp = os.path.join(tmp, "esp")
        os.mkdir(esp)
        ok(h("install", "--esp", esp, "--loader", LOADER))
        with open(os.path.join(esp, "loader/loader.conf"), "w") as f:
            f.write("timeout 0\n")
        root = fake_root(tmp, {"etc/machine-id": MID + "\n"})
        ok(h("entry", "add", "--esp", esp, "--root", root, "--linux", KERNEL, "--initrd", INITRD,
             "--options", "console=ttyS0 rdinit=/init"))
        img = os.path.join(tmp, "disk.img")
        ok(h("disk", "-o", img, "--esp", esp))
        r = h("run", img, "--timeout", str(BOOT_TIMEOUT), timeout=BOOT_TIMEOUT + 30)
        rep = init_report(r.stdout)
        assert rep, f"no HANDOFF-INIT line (exit {r.returncode}): {r.stdout[-3000:]!r} {r.stderr!r}"
        assert r.returncode == 0, f"exit {r.returncode}: {r.stderr!r}"
        assert "console=ttyS0 rdinit=/init" in rep["cmdline"], rep["cmdline"]
        assert rep["efi"] is True
        assert rep["payload_sha256"] == payload_sha()


@test
def run_kernel_by_each_protocol():
    """run KERNEL --protocol P with handoff's loader: the entry it writes pins the scheme."""
    need(LOADER)
    for proto, code in (("handover", 3), ("legacy", 4)):
        r = h("run", KERNEL, "--protocol", proto, "--initrd", INITRD,
              "--options", f"console=ttyS0 handoff.debug_exit={code}", "--timeout", str(BOOT_TIMEOUT),
              timeout=BOOT_TIMEOUT + 30)
        out = r.stdout.decode(errors="replace")
        rep = init_report(r.stdout)
        assert rep and r.returncode == code, f"{proto}: exit {r.returncode} {r.stderr!r} {out[-2000:]}"
        assert f"by {proto}" in out, f"{proto}: the loader did not say it used {proto}"
        assert rep["payload_sha256"] == payload_sha()


import tool_system  # noqa: E402,F401  (more tests: the Debian system side, registered with @test)


def main():
    args = sys.argv[1:]
    only = args[args.index("-k") + 1] if "-k" in args else None
    no_boot = "--no-boot" in args
    passed = failed = 0
    for t in TESTS:
        if only and only not in t.__name__:
            continue
        if no_boot and (t.__name__.startswith("run_") or t.__name__ == "new_user_end_to_end"):
            continue
        try:
            t()
            print(f"PASS {t.__name__}", flush=True)
            passed += 1
        except Exception:
            print(f"FAIL {t.__name__}", flush=True)
            traceback.print_exc()
            failed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
