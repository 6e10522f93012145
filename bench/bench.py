#!/usr/bin/python3
"""Boot-time benchmark: handoff beside systemd-boot and GRUB (stdlib only).

    bench/bench.py [--rounds 5] [--sizes 8,64,256] [--loaders all] [--out DIR]
                   [--no-warmup] [--no-readbench] [--doc docs/bench.md]

Every loader boots the same Debian kernel with the same busybox initramfs,
padded with incompressible data to each size, from the same disk layout (GPT,
one 1022 MiB FAT32 ESP with 4 KiB clusters: \\debian\\vmlinuz,
\\debian\\initrd.img, \\loader\\..., the loader as \\EFI\\BOOT\\BOOTX64.EFI).
handoff-ext4 is handoff-handover with the entry, kernel and initrd on an
ext4 XBOOTLDR partition instead (the ESP holds only handoff and loader.conf),
paired per round against handoff-handover from FAT. handoffia32-* and
grub-ia32 boot the same disk layout on 32-bit OVMF (ovmf-ia32, mixed mode),
the loader as \\EFI\\BOOT\\BOOTIA32.EFI; they are paired against GRUB's i386-efi
build, the only other loader that boots a 64-bit kernel there.
Rounds are interleaved: each round boots every (loader, size) pair once, in
an order shuffled per round; one QEMU at a time; a discarded warm-up boot
first. Serial lines are timestamped on the host (tests/boot/qemu.py):

  t0  OVMF's "BdsDxe: loading Boot####" for the option it then starts
  t1  the kernel's first line ("Linux version", through earlyprintk)
  t2  the initramfs's first line (BENCH-INIT, printed by /init before anything else)

/init then prints the Boot Loader Interface variables it finds (BENCH-VAR
LoaderTimeInitUSec=...) and powers off. Results: DIR/results.json (see
report.py for docs/bench.md and the SVG plot).
"""
import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests", "boot"))
import initramfs  # noqa: E402
import qemu  # noqa: E402

KERNEL = os.path.join(ROOT, "build/boot-cache/vmlinuz")
HANDOFF = os.path.join(ROOT, "build/handoff.efi")
HANDOFF32 = os.path.join(ROOT, "build/handoffia32.efi")
STUB = os.path.join(ROOT, "build/handoff-stub.efi")
TOOL = os.path.join(ROOT, "build/handoff")
READBENCH = os.path.join(ROOT, "build/bench/readbench.efi")
SDBOOT = "/usr/lib/systemd/boot/efi/systemd-bootx64.efi"
SDSTUB = "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"
GRUB_MODDIR = "/usr/lib/grub/x86_64-efi"
GRUB32_MODDIR = "/usr/lib/grub/i386-efi"

LOADERS = ("handoff-stub", "handoff-handover", "handoff-legacy", "handoff-uki", "handoff-ext4", "systemd-boot", "grub",
           "handoffia32-stub", "handoffia32-handover", "handoffia32-legacy", "grub-ia32")
# Loaders booted on 32-bit OVMF (mixed mode).
IA32 = ("handoffia32-stub", "handoffia32-handover", "handoffia32-legacy", "grub-ia32")
# Ratio columns: per-round pairs against these references (ratio_vs_KEY).
REFERENCES = (("systemd_boot", "systemd-boot"), ("grub", "grub"), ("fat", "handoff-handover"), ("grub_ia32", "grub-ia32"))
SIZES = (8, 64, 256)
CMDLINE = "earlyprintk=serial,ttyS0,115200 quiet console=ttyS0 panic=-1"
DISK_MIB = 1024           # ESP 1022 MiB, 4 KiB clusters; holds the 256 MiB UKI beside the 256 MiB initrd
MEMORY_MIB = 1536         # initrd + its unpacked copy + the kernel, at 256 MiB
BOOT_TIMEOUT = 240
LOADER_GUID = "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"

RX_T0 = re.compile(r"BdsDxe: loading Boot")
RX_START = re.compile(r"BdsDxe: starting Boot")
RX_T1 = re.compile(r"Linux version \d")
RX_T2 = re.compile(r"^BENCH-INIT\b")
# Intermediate marks (host seconds after t0) where the loader or the kernel
# prints them; the decompressor and the EFI stub print only without `quiet`
# (bench.py --profile).
MARKS = (("start", r"BdsDxe: starting Boot"),
         ("grub", r"Welcome to GRUB"),
         ("loader_booting", r"handoff: booting|stub: booting"),
         ("efistub", r"EFI stub: "),
         ("efistub_initrd", r"EFI stub: Loaded initrd"),
         ("decompress", r"Decompressing Linux"),
         ("parse_elf", r"Parsing ELF"),
         ("booting_kernel", r"Booting the kernel"))

INIT_SCRIPT = r'''#!/bin/sh
echo BENCH-INIT
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
for m in /lib/modules/*.ko; do [ -f "$m" ] && insmod "$m" 2>/dev/null; done
mount -t efivarfs efivarfs /sys/firmware/efi/efivars 2>/dev/null
for v in LoaderTimeInitUSec LoaderTimeMenuUSec LoaderTimeExecUSec LoaderInfo StubInfo; do
    f=/sys/firmware/efi/efivars/$v-%s
    [ -f "$f" ] && echo "BENCH-VAR $v=$(tail -c +5 "$f" | tr -d '\000')"
done
echo BENCH-DONE
poweroff -f
sleep 5
''' % LOADER_GUID

GRUB_MODULES = "part_gpt fat normal linux search search_fs_file all_video efi_gop efi_uga video_bochs video_cirrus gzio"


def log(msg):
    print(msg, flush=True)


def run(cmd, **kw):
    p = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        raise SystemExit("bench: %s failed (%d): %s" % (" ".join(cmd), p.returncode,
                                                         (p.stderr or p.stdout).strip()[-2000:]))
    return p.stdout


# ---------------------------------------------------------------------------
# inputs

_digests = {}


def file_digest(path):
    """SHA-256 of a file, remembered per (path, size, mtime) for this run."""
    st = os.stat(path)
    key = (path, st.st_size, st.st_mtime_ns)
    if key not in _digests:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            while True:
                b = f.read(16 << 20)
                if not b:
                    break
                h.update(b)
        _digests[key] = h.hexdigest()
    return _digests[key]


def up_to_date(out, paths, extra=""):
    """True when @out was built from exactly these inputs; else records them for
    stamp() and returns False. Inputs: the files' contents and @extra."""
    key = hashlib.sha256(("\n".join([extra] + [file_digest(p) for p in paths])).encode()).hexdigest()
    up_to_date.pending[out] = key
    try:
        with open(out + ".key") as f:
            return os.path.isfile(out) and f.read().strip() == key
    except OSError:
        return False


up_to_date.pending = {}


def stamp(out):
    with open(out + ".key", "w") as f:
        f.write(up_to_date.pending.pop(out) + "\n")
    return out


def build_initrd(work, mib):
    """busybox initramfs with BENCH's /init, padded to `mib` MiB, uncompressed."""
    out = os.path.join(work, "initrd-%d.cpio" % mib)
    recipe = [os.path.join(ROOT, "tests/boot/initramfs.py")]
    if up_to_date(out, recipe, INIT_SCRIPT):
        return out
    base = os.path.join(work, "initrd-base.cpio")
    if not up_to_date(base, recipe, INIT_SCRIPT):
        initramfs.build(base, pad_mib=0, init_script=INIT_SCRIPT, compress=False)
        stamp(base)
    base_mib = (os.path.getsize(base) + (1 << 20) - 1) >> 20
    initramfs.build(out + ".part", pad_mib=max(1, mib - base_mib), init_script=INIT_SCRIPT, compress=False)
    os.replace(out + ".part", out)
    return stamp(out)


def build_grub(work, target="x86_64-efi", moddir=GRUB_MODDIR, name="grubx64.efi"):
    """A standalone GRUB image with its config embedded (memdisk)."""
    out = os.path.join(work, name)
    cfg = os.path.join(work, "grub.cfg")
    with open(cfg, "w") as f:
        f.write("set timeout=0\n"
                "insmod part_gpt\ninsmod fat\ninsmod all_video\n"
                "search --no-floppy --set=root --file /debian/vmlinuz\n"
                "linux /debian/vmlinuz %s\n"
                "initrd /debian/initrd.img\n"
                "boot\n" % CMDLINE)
    run(["grub-mkstandalone", "-O", target, "-d", moddir, "--locales=", "--fonts=",
         "--themes=", "--install-modules=" + GRUB_MODULES, "--modules=part_gpt fat",
         "-o", out, "boot/grub/grub.cfg=" + cfg])
    return out


def build_uki(work, initrd, mib):
    out = os.path.join(work, "uki-%d.efi" % mib)
    run([TOOL, "uki", "--linux", KERNEL, "--initrd", initrd, "--cmdline", CMDLINE, "--stub", STUB, "-o", out])
    return out


def boot_tree(tree, initrd, protocol=None):
    """$BOOT: the Type #1 entry, the kernel and the initrd."""
    for d in ("loader/entries", "debian"):
        os.makedirs(os.path.join(tree, d), exist_ok=True)
    shutil.copyfile(KERNEL, os.path.join(tree, "debian/vmlinuz"))
    if initrd:
        shutil.copyfile(initrd, os.path.join(tree, "debian/initrd.img"))
    with open(os.path.join(tree, "loader/entries/debian.conf"), "w") as f:
        f.write("title Debian\nlinux /debian/vmlinuz\ninitrd /debian/initrd.img\noptions %s\n" % CMDLINE)
        if protocol:
            f.write("protocol %s\n" % protocol)


def esp_tree(tree, loader_efi, initrd, protocol=None, entries=True, fallback="BOOTX64.EFI"):
    shutil.rmtree(tree, ignore_errors=True)
    for d in ("EFI/BOOT", "loader"):
        os.makedirs(os.path.join(tree, d))
    shutil.copyfile(loader_efi, os.path.join(tree, "EFI/BOOT", fallback))
    with open(os.path.join(tree, "loader/loader.conf"), "w") as f:
        f.write("timeout 0\n")
    if entries:
        boot_tree(tree, initrd, protocol)


def make_disk(tree, img, xbootldr=None):
    cmd = [TOOL, "disk", "-o", img, "--esp", tree, "--size", str(DISK_MIB)]
    if xbootldr:
        cmd += ["--xbootldr", xbootldr, "--xbootldr-fs", "ext4"]
    run(cmd)
    shutil.rmtree(tree)
    if xbootldr:
        shutil.rmtree(xbootldr)
    return img


def build_disk(work, loader, mib, initrd, grub, grub32):
    """The disk for (loader, size); the UKI carries the initrd inside itself,
    and its ESP still holds the same files so the layout is the same."""
    img = os.path.join(work, "disk-%s-%d.img" % (loader, mib))
    binary = {"handoff-uki": STUB, "systemd-boot": SDBOOT, "grub": grub, "grub-ia32": grub32,
              "handoffia32-stub": HANDOFF32, "handoffia32-handover": HANDOFF32,
              "handoffia32-legacy": HANDOFF32}.get(loader, HANDOFF)
    if up_to_date(img, [binary, KERNEL, TOOL, initrd], "%s %s %d" % (loader, CMDLINE, DISK_MIB)):
        return img
    tree = os.path.join(work, "esp-%s-%d" % (loader, mib))
    if loader == "handoff-ext4":
        xbootldr = os.path.join(work, "xbootldr-%d" % mib)
        shutil.rmtree(xbootldr, ignore_errors=True)
        esp_tree(tree, HANDOFF, None, entries=False)
        boot_tree(xbootldr, initrd, protocol="handover")
        return stamp(make_disk(tree, img, xbootldr))
    if loader in IA32:
        esp_tree(tree, binary, initrd, protocol=loader.split("-", 1)[1] if loader != "grub-ia32" else None,
                 entries=True, fallback="BOOTIA32.EFI")
    elif loader.startswith("handoff-") and loader != "handoff-uki":
        esp_tree(tree, HANDOFF, initrd, protocol=loader.split("-", 1)[1])
    elif loader == "handoff-uki":
        esp_tree(tree, build_uki(work, initrd, mib), initrd)
    elif loader == "systemd-boot":
        esp_tree(tree, SDBOOT, initrd)
    elif loader == "grub":
        esp_tree(tree, grub, initrd)
    else:
        raise SystemExit("bench: unknown loader %r (known: %s)" % (loader, ", ".join(LOADERS)))
    return stamp(make_disk(tree, img))


def fat_geometry(img, part_offset=1 << 20):
    with open(img, "rb") as f:
        f.seek(part_offset)
        b = f.read(512)
    bps = struct.unpack_from("<H", b, 11)[0]
    spc = b[13]
    reserved = struct.unpack_from("<H", b, 14)[0]
    nfats = b[16]
    fatsz = struct.unpack_from("<H", b, 22)[0] or struct.unpack_from("<I", b, 36)[0]
    return {"bytes_per_sector": bps, "cluster_bytes": bps * spc,
            "data_offset": (reserved + nfats * fatsz) * bps}


def initrd_extent(img):
    """(offset in the partition, length) of /debian/initrd.img; it must be one run of clusters."""
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    out = run(["mshowfat", "-i", img + "@@1M", "::/debian/initrd.img"], env=env)
    runs = re.findall(r"<(\d+)-(\d+)>", out)
    if len(runs) != 1:
        raise SystemExit("bench: initrd is not contiguous on %s: %s" % (img, out.strip()))
    g = fat_geometry(img)
    first = int(runs[0][0])
    return g["data_offset"] + (first - 2) * g["cluster_bytes"], g


# ---------------------------------------------------------------------------
# one boot

def parse_boot(res):
    """t0, t1, t2 (host seconds), the guest's BENCH-VAR lines, the MARKS seen (s after t0)."""
    lines = res.lines
    start = next((i for i, (_, l) in enumerate(lines) if RX_START.search(l)), None)
    t0 = None
    if start is not None:
        for t, line in lines[:start]:
            if RX_T0.search(line):
                t0 = t
    t1 = next((t for t, l in lines if RX_T1.search(l)), None)
    t2 = next((t for t, l in lines if RX_T2.search(l.strip())), None)
    vars_ = {}
    marks = {}
    if t0 is not None:
        for name, rx in MARKS:
            t = next((t for t, l in lines if re.search(rx, l)), None)
            if t is not None:
                marks[name] = round(t - t0, 4)
    for _, line in lines:
        m = re.match(r"\s*BENCH-VAR (\w+)=(.*)$", line)
        if m:
            vars_[m.group(1)] = m.group(2).strip()
    return t0, t1, t2, vars_, marks


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return float(f.read().split()[0])
    except (OSError, ValueError):
        return None


def boot(disk, name, ia32=False):
    load = loadavg()
    res = qemu.run_qemu(disk, BOOT_TIMEOUT, memory=MEMORY_MIB, name=name, stop_on=r"BENCH-DONE", ia32=ia32)
    t0, t1, t2, vars_, marks = parse_boot(res)
    rec = {"t0": t0, "t1": t1, "t2": t2, "vars": vars_, "marks": marks, "log": os.path.relpath(res.log_path, ROOT),
           "loadavg_before": load, "loadavg_after": loadavg()}
    if None in (t0, t1, t2):
        missing = [n for n, v in (("t0", t0), ("t1", t1), ("t2", t2)) if v is None]
        rec["error"] = "missing %s (%s)" % (", ".join(missing), "timeout" if res.timed_out else
                                             "qemu exit %s" % res.exit_code)
    else:
        rec["t1_s"] = round(t1 - t0, 4)
        rec["t2_s"] = round(t2 - t0, 4)
    return rec


def file_crc32(path):
    crc = 0
    with open(path, "rb") as f:
        while True:
            b = f.read(16 << 20)
            if not b:
                return crc
            crc = zlib.crc32(b, crc)


def readbench(work, initrd):
    """Time the initrd read from FAT and from ext4 against Block I/O (readbench.efi)."""
    tree = os.path.join(work, "esp-readbench")
    xbootldr = os.path.join(work, "xbootldr-readbench")
    shutil.rmtree(xbootldr, ignore_errors=True)
    esp_tree(tree, READBENCH, initrd)
    boot_tree(xbootldr, initrd)
    img = os.path.join(work, "disk-readbench.img")
    os.makedirs(os.path.join(tree, "bench"))
    with open(os.path.join(tree, "bench/extent.txt"), "w") as f:
        f.write("0 0\n")  # placeholder of the final length: rewritten below in place
    make_disk(tree, img, xbootldr)
    offset, geom = initrd_extent(img)
    crc = file_crc32(initrd)
    text = ("%d %d %d" % (offset, os.path.getsize(initrd), crc)).ljust(63) + "\n"
    env = dict(os.environ, MTOOLS_SKIP_CHECK="1")
    tmp = os.path.join(work, "extent.txt")
    with open(tmp, "w") as f:
        f.write(text)
    run(["mcopy", "-o", "-i", img + "@@1M", tmp, "::/bench/extent.txt"], env=env)
    offset2, _ = initrd_extent(img)
    if offset2 != offset:
        raise SystemExit("bench: initrd moved while writing extent.txt")
    res = qemu.run_qemu(img, BOOT_TIMEOUT, memory=MEMORY_MIB, name="readbench", stop_on=r"READBENCH (done|failed)")
    out = {"initrd_bytes": os.path.getsize(initrd), "offset": offset, "cluster_bytes": geom["cluster_bytes"],
           "crc32": "%08x" % crc, "log": os.path.relpath(res.log_path, ROOT), "us": {}}
    for _, line in res.lines:
        m = re.search(r"READBENCH round=(\d+) method=(\w+) us=(\d+)", line)
        if m:
            out["us"].setdefault(m.group(2), []).append(int(m.group(3)))
        m = re.search(r"READBENCH method=(touch|volumes) us=(\d+)", line)
        if m:
            out[m.group(1) + "_us"] = int(m.group(2))
        m = re.search(r"READBENCH verified crc=([0-9a-f]+) methods=(\d+)", line)
        if m and m.group(1) == out["crc32"]:
            out["verified_methods"] = int(m.group(2))
        m = re.search(r"READBENCH tsc_khz=(\d+)", line)
        if m:
            out["tsc_khz"] = int(m.group(1))
    if not any(re.search(r"READBENCH done", l) for _, l in res.lines) or "verified_methods" not in out:
        out["error"] = "readbench failed or did not verify what it read (see %s)" % out["log"]
        return out
    file_us = min(out["us"]["file"])
    ext4_us = min(out["us"]["ext4"])
    floor_us = min(min(v) for k, v in out["us"].items() if k.startswith("blockio"))
    out["median_us"] = {k: int(statistics.median(v)) for k, v in out["us"].items()}
    out["file_min_us"] = file_us
    out["ext4_min_us"] = ext4_us
    out["floor_min_us"] = floor_us
    out["ratio_file_vs_floor"] = round(file_us / floor_us, 3)
    out["ratio_ext4_vs_floor"] = round(ext4_us / floor_us, 3)
    # paired per round: ext4 and FAT read by handoff's code in the same round
    pairs = [e / f for e, f in zip(out["us"]["ext4"], out["us"]["file"])]
    out["ratio_ext4_vs_fat"] = round(statistics.median(pairs), 3)
    return out


# ---------------------------------------------------------------------------
# figures

def median(xs):
    return statistics.median(xs) if xs else None


def summarize(boots, loaders, sizes):
    """One record per (loader, size); ratios paired per round against systemd-boot."""
    records = []
    for mib in sizes:
        refs_by_key = {key: {b["round"]: b for b in boots if b["loader"] == name and b["initrd_mib"] == mib and "t1_s" in b}
                       for key, name in REFERENCES}
        for loader in loaders:
            ok = [b for b in boots if b["loader"] == loader and b["initrd_mib"] == mib and "t1_s" in b]
            failed = [b for b in boots if b["loader"] == loader and b["initrd_mib"] == mib and "t1_s" not in b]
            t1 = [b["t1_s"] for b in ok]
            t2 = [b["t2_s"] for b in ok]
            rec = {"loader": loader, "initrd_mib": mib, "runs": len(ok), "failed_runs": len(failed),
                   "t1_median_s": rnd(median(t1)), "t2_median_s": rnd(median(t2)),
                   "t1_min_s": rnd(min(t1)) if t1 else None, "t1_max_s": rnd(max(t1)) if t1 else None,
                   "t2_min_s": rnd(min(t2)) if t2 else None, "t2_max_s": rnd(max(t2)) if t2 else None}
            for key, refs in refs_by_key.items():
                if not refs:
                    continue
                r1 = [b["t1_s"] / refs[b["round"]]["t1_s"] for b in ok if b["round"] in refs]
                r2 = [b["t2_s"] / refs[b["round"]]["t2_s"] for b in ok if b["round"] in refs]
                rec["ratio_vs_" + key] = rnd(median(r1), 3)
                if ok and refs:
                    rec["min_ratio_vs_" + key] = rnd(min(t1) / min(b["t1_s"] for b in refs.values()), 3)
                rec["t2_ratio_vs_" + key] = rnd(median(r2), 3)
            for v in ("LoaderTimeInitUSec", "LoaderTimeExecUSec"):
                vals = [int(b["vars"][v]) for b in ok if b["vars"].get(v, "").isdigit()]
                if vals:
                    rec[v] = int(median(vals))
            if len(ok) and all(v in ok[0]["vars"] for v in ("LoaderTimeInitUSec", "LoaderTimeExecUSec")):
                d = [int(b["vars"]["LoaderTimeExecUSec"]) - int(b["vars"]["LoaderTimeInitUSec"]) for b in ok
                     if b["vars"].get("LoaderTimeExecUSec", "").isdigit() and b["vars"].get("LoaderTimeInitUSec", "").isdigit()]
                if d:
                    rec["loader_exec_minus_init_ms"] = round(median(d) / 1000, 1)
            records.append(rec)
    return records


def summarize_marks(boots, loaders, sizes):
    """Median of each intermediate mark (s after t0) per loader and size."""
    out = []
    for mib in sizes:
        for loader in loaders:
            ok = [b for b in boots if b["loader"] == loader and b["initrd_mib"] == mib and "t1_s" in b]
            names = [n for n, _ in MARKS if any(n in b["marks"] for b in ok)]
            rec = {"loader": loader, "initrd_mib": mib}
            for n in names:
                rec[n] = rnd(median([b["marks"][n] for b in ok if n in b["marks"]]))
            if ok:
                rec["t1"] = rnd(median([b["t1_s"] for b in ok]))
                rec["t2"] = rnd(median([b["t2_s"] for b in ok]))
            out.append(rec)
    return out


def rnd(x, n=4):
    return None if x is None else round(x, n)


def sizes_of(grub, grub32):
    files = {"handoff.efi": HANDOFF, "handoff-stub.efi": STUB, "handoffia32.efi": HANDOFF32,
             "systemd-bootx64.efi": SDBOOT, "linuxx64.efi.stub": SDSTUB, "grubx64.efi": grub, "grubia32.efi": grub32}
    return {k: os.path.getsize(p) for k, p in files.items() if p and os.path.isfile(p)}


def cmd_out(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True).stdout.strip()
    except OSError:
        return ""


def dpkg_version(pkg):
    return cmd_out(["dpkg-query", "-W", "-f=${Version}", pkg]) or None


def environment():
    cpu = ""
    mem = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), "")
        with open("/proc/meminfo") as f:
            mem = next((l.split(":", 1)[1].strip() for l in f if l.startswith("MemTotal")), "")
    except OSError:
        pass
    kver = ""
    kv = os.path.join(ROOT, "build/boot-cache/kernel-version")
    if os.path.isfile(kv):
        kver = open(kv).read().strip()
    commit = cmd_out(["git", "-C", ROOT, "rev-parse", "--short=12", "HEAD"])
    dirty = cmd_out(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"])
    return {
        "machine": {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "host_kernel": os.uname().release,
                    "accel": "TCG (no KVM)"},
        "versions": {
            "kernel": "Debian linux-image %s" % kver,
            "ovmf": dpkg_version("ovmf"),
            "ovmf-ia32": dpkg_version("ovmf-ia32"),
            "qemu": cmd_out([qemu.QEMU, "--version"]).splitlines()[0] if shutil.which(qemu.QEMU) else None,
            "systemd-boot-efi": dpkg_version("systemd-boot-efi"),
            "grub-efi-amd64-bin": dpkg_version("grub-efi-amd64-bin"),
            "grub-efi-ia32-bin": dpkg_version("grub-efi-ia32-bin"),
            "busybox-static": dpkg_version("busybox-static"),
            "handoff": commit + ("-dirty" if dirty else ""),
        },
    }


# ---------------------------------------------------------------------------

def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--sizes", default=",".join(map(str, SIZES)))
    ap.add_argument("--loaders", default="all")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--no-readbench", action="store_true")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--profile", action="store_true",
                    help="boot without `quiet` so the EFI stub and the decompressor print their steps "
                         "(marks in results.json); default --out build/bench-profile")
    a = ap.parse_args(argv)
    global CMDLINE
    if a.profile:
        CMDLINE = CMDLINE.replace(" quiet", "")
        if a.out == os.path.join(ROOT, "build", "bench"):
            a.out = os.path.join(ROOT, "build", "bench-profile")

    sizes = [int(s) for s in a.sizes.split(",") if s]
    loaders = list(LOADERS) if a.loaders == "all" else [l for l in a.loaders.split(",") if l]
    for l in loaders:
        if l not in LOADERS:
            raise SystemExit("bench: unknown loader %r (known: %s)" % (l, ", ".join(LOADERS)))
    for p in (KERNEL, HANDOFF, STUB, TOOL, SDBOOT) + ((HANDOFF32,) if any(l in IA32 for l in loaders) else ()):
        if not os.path.isfile(p):
            raise SystemExit("bench: %s missing (make all; tests/boot/prepare.sh; scripts/deps.sh)" % p)
    out_dir = os.path.abspath(a.out)
    work = os.path.join(out_dir, "work")
    os.makedirs(work, exist_ok=True)
    qemu.set_test("bench", os.path.join(out_dir, "runs"))
    shutil.rmtree(os.path.join(out_dir, "runs"), ignore_errors=True)

    t_start = time.time()
    grub = build_grub(work)
    grub32 = build_grub(work, "i386-efi", GRUB32_MODDIR, "grubia32.efi") if "grub-ia32" in loaders else None
    initrds = {}
    disks = {}
    for mib in sizes:
        initrds[mib] = build_initrd(work, mib)
        for l in loaders:
            disks[(l, mib)] = build_disk(work, l, mib, initrds[mib], grub, grub32)
    for img in disks.values():   # into the host's page cache before anything is timed
        with open(img, "rb") as f:
            while f.read(16 << 20):
                pass
    # what is measured, recorded before the boots: the tree may change while they run
    env, sizes_now = environment(), sizes_of(grub, grub32)
    log("bench: %d loaders x %d sizes x %d rounds, disks ready in %.0f s"
        % (len(loaders), len(sizes), a.rounds, time.time() - t_start))

    rng = random.Random(a.seed)
    if not a.no_warmup:
        l = rng.choice(loaders)
        r = boot(disks[(l, sizes[0])], "warmup", ia32=l in IA32)
        log("bench: warm-up boot (%s, %d MiB, discarded): %s" % (l, sizes[0], r.get("error") or "t1-t0 %.3f s" % r["t1_s"]))

    boots = []
    total = a.rounds * len(loaders) * len(sizes)
    n = 0
    for rd in range(1, a.rounds + 1):
        pairs = [(l, mib) for mib in sizes for l in loaders]
        rng.shuffle(pairs)
        for l, mib in pairs:
            n += 1
            rec = boot(disks[(l, mib)], "r%d-%d-%s" % (rd, mib, l), ia32=l in IA32)
            rec.update(loader=l, initrd_mib=mib, round=rd)
            boots.append(rec)
            if "error" in rec:
                log("[%3d/%d] round %d %4d MiB %-17s FAILED: %s (%s)" % (n, total, rd, mib, l, rec["error"], rec["log"]))
            else:
                log("[%3d/%d] round %d %4d MiB %-17s t1-t0 %7.3f s  t2-t0 %7.3f s  load %.1f%s"
                    % (n, total, rd, mib, l, rec["t1_s"], rec["t2_s"], rec["loadavg_before"] or 0,
                       "".join("  %s=%s" % (k, v) for k, v in rec["vars"].items() if k.startswith("LoaderTime"))))

    rb = None
    if not a.no_readbench:
        big = max(sizes)
        if os.path.isfile(READBENCH):
            rb = readbench(work, initrds[big])
            rb["initrd_mib"] = big
            log("bench: readbench %d MiB: %s" % (big, rb.get("error") or
                                                  "FAT %.3f s, ext4 %.3f s (ext4/FAT x%.3f), Block I/O floor %.3f s (FAT x%.3f)"
                                                  % (rb["file_min_us"] / 1e6, rb["ext4_min_us"] / 1e6, rb["ratio_ext4_vs_fat"],
                                                     rb["floor_min_us"] / 1e6, rb["ratio_file_vs_floor"])))
        else:
            rb = {"error": "%s not built (make build/bench/readbench.efi)" % READBENCH}

    result = {
        "config": {"rounds": a.rounds, "sizes_mib": sizes, "loaders": loaders, "cmdline": CMDLINE,
                   "disk_mib": DISK_MIB, "memory_mib": MEMORY_MIB, "warmup": not a.no_warmup,
                   "initrd_bytes": {str(m): os.path.getsize(p) for m, p in initrds.items()},
                   "cluster_bytes": fat_geometry(next(d for (l, _), d in disks.items() if l != "handoff-ext4"))["cluster_bytes"]
                   if any(l != "handoff-ext4" for l in loaders) else None,
                   "grub_modules": GRUB_MODULES,
                   "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(t_start)),
                   "duration_s": round(time.time() - t_start)},
        **env,
        "sizes": sizes_now,
        "records": summarize(boots, loaders, sizes),
        "readbench": rb,
        "marks": summarize_marks(boots, loaders, sizes),
        "boots": boots,
    }
    path = os.path.join(out_dir, "results.json")
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)
    log("bench: wrote %s (%d boots, %d failed, %.0f s)"
        % (os.path.relpath(path, ROOT), len(boots), sum("error" in b for b in boots), time.time() - t_start))
    return 1 if any("error" in b for b in boots) or (rb and "error" in rb) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
