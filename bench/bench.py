#!/usr/bin/python3
"""Boot-time benchmark: handoff beside systemd-boot and GRUB (stdlib only).

    bench/bench.py [--rounds 5] [--sizes 8,64,256] [--loaders all] [--out DIR]
                   [--no-warmup] [--no-readbench] [--doc docs/bench.md]

Every loader boots the same Debian kernel with the same busybox initramfs,
padded with incompressible data to each size, from the same disk layout (GPT,
one 1022 MiB FAT32 ESP with 4 KiB clusters: \\debian\\vmlinuz,
\\debian\\initrd.img, \\loader\\..., the loader as \\EFI\\BOOT\\BOOTX64.EFI).
handoff-uki-menu and sdboot-uki-menu start the handoff-uki image (the same
`handoff uki` UKI, initrd inside) from \\EFI\\Linux as their menu's only entry,
paired per round against each other and against handoff-uki (started
directly by OVMF). handoff-ext4 is handoff-handover with the entry, kernel
and initrd on an ext4 XBOOTLDR partition instead (the ESP holds only handoff
and loader.conf), paired per round against handoff-handover from FAT. handoffia32-* and
grub-ia32 boot the same disk layout on 32-bit OVMF (ovmf-ia32, mixed mode),
the loader as \\EFI\\BOOT\\BOOTIA32.EFI; they are paired against GRUB's i386-efi
build, the only other loader that boots a 64-bit kernel there. The disks,
initrds and loader images come from inputs.py, rebuilt only when what they
are made of changes.
Rounds are interleaved: each round boots every (loader, size) pair once, in
an order shuffled per round; one QEMU at a time; WARMUP_BOOTS discarded
warm-up boots first. Serial lines are timestamped on the host (tests/harness/qemu.py):

  t0  OVMF's "BdsDxe: loading Boot####" for the option it then starts
  t1  the kernel's first line ("Linux version", through earlyprintk)
  t2  the initramfs's first line (BENCH-INIT, printed by /init before anything else)

/init then prints the Boot Loader Interface variables it finds (BENCH-VAR
LoaderTimeInitUSec=...) and powers off. Results: DIR/results.json (see
report.py for docs/bench.md and the SVG plot).
"""
import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))  # the harness package
from harness import case, disk, qemu  # noqa: E402
from harness.loaders import SDBOOT, SDSTUB  # noqa: E402
import inputs  # noqa: E402
from inputs import HANDOFF, HANDOFF32, IA32, KERNEL, LOADERS, STUB, TOOL  # noqa: E402

READBENCH = os.path.join(ROOT, "build/bench/readbench.efi")

# Ratio columns: per-round pairs against these references (ratio_vs_KEY).
REFERENCES = (("systemd_boot", "systemd-boot"), ("grub", "grub"), ("fat", "handoff-handover"),
              ("grub_ia32", "grub-ia32"), ("sdboot_uki", "sdboot-uki-menu"), ("uki", "handoff-uki"))
SIZES = (8, 64, 256)
CMDLINE = "earlyprintk=serial,ttyS0,115200 quiet console=ttyS0 panic=-1"
MEMORY_MIB = 1536         # initrd + its unpacked copy + the kernel, at 256 MiB
BOOT_TIMEOUT = 240
# After one warm-up boot the next three or four still ran 1-2 s slow (two runs
# on 2026-12-04, 32-bit rows, load 0.3-0.7): the host was still settling.
WARMUP_BOOTS = 4

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


def log(msg):
    print(msg, flush=True)


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


def readbench(work, initrd):
    """Time the initrd read from FAT and from ext4 against Block I/O (readbench.efi)."""
    img = os.path.join(work, "disk-readbench.img")
    # extent.txt: a placeholder of the final length, rewritten below in place
    inputs.make_disk(img, {**inputs.esp_files(READBENCH, initrd, CMDLINE), "bench/extent.txt": b"0 0\n"},
                     inputs.boot_files(initrd, CMDLINE))
    offset, geom = inputs.initrd_extent(img)
    crc = inputs.file_crc32(initrd)
    tmp = os.path.join(work, "extent.txt")
    with open(tmp, "w") as f:
        f.write(("%d %d %d" % (offset, os.path.getsize(initrd), crc)).ljust(63) + "\n")
    disk.mtools("mcopy", img, "-o", tmp, "::/bench/extent.txt", partition=1)
    offset2, _ = inputs.initrd_extent(img)
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


def boots_of(boots, loader, mib):
    return [b for b in boots if b["loader"] == loader and b["initrd_mib"] == mib]


def summarize(boots, loaders, sizes):
    """One record per (loader, size); ratios paired per round against systemd-boot."""
    records = []
    for mib in sizes:
        refs_by_key = {key: {b["round"]: b for b in boots_of(boots, name, mib) if "t1_s" in b}
                       for key, name in REFERENCES}
        for loader in loaders:
            ok = [b for b in boots_of(boots, loader, mib) if "t1_s" in b]
            failed = [b for b in boots_of(boots, loader, mib) if "t1_s" not in b]
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
                     if b["vars"].get("LoaderTimeExecUSec", "").isdigit()
                     and b["vars"].get("LoaderTimeInitUSec", "").isdigit()]
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


def fat_cluster_bytes(fat_disks):
    """The ESP's cluster size on the first of @fat_disks (the same layout on all), or None."""
    img = next(iter(fat_disks), None)
    return inputs.fat_geometry(img)["cluster_bytes"] if img else None


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
    case.set_test("bench", os.path.join(out_dir, "runs"))
    shutil.rmtree(os.path.join(out_dir, "runs"), ignore_errors=True)

    t_start = time.time()
    grub = inputs.build_grub(work, CMDLINE)
    grub32 = inputs.build_grub(work, CMDLINE, "i386-efi", "grubia32.efi") if "grub-ia32" in loaders else None
    initrds = {}
    disks = {}
    for mib in sizes:
        initrds[mib] = inputs.build_initrd(work, mib)
        for l in loaders:
            disks[(l, mib)] = inputs.build_disk(work, l, mib, initrds[mib], grub, grub32, CMDLINE)
    for img in disks.values():   # into the host's page cache before anything is timed
        for _ in inputs.chunks(img):
            pass
    # what is measured, recorded before the boots: the tree may change while they run
    env, sizes_now = environment(), sizes_of(grub, grub32)
    log("bench: %d loaders x %d sizes x %d rounds, disks ready in %.0f s"
        % (len(loaders), len(sizes), a.rounds, time.time() - t_start))

    rng = random.Random(a.seed)
    for i in range(0 if a.no_warmup else WARMUP_BOOTS):
        l = rng.choice(loaders)
        r = boot(disks[(l, sizes[0])], "warmup%d" % i, ia32=l in IA32)
        log("bench: warm-up boot %d (%s, %d MiB, discarded): %s"
            % (i + 1, l, sizes[0], r.get("error") or "t1-t0 %.3f s" % r["t1_s"]))

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
                log("[%3d/%d] round %d %4d MiB %-17s FAILED: %s (%s)"
                    % (n, total, rd, mib, l, rec["error"], rec["log"]))
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
            log("bench: readbench %d MiB: %s" % (big, rb.get("error") or (
                "FAT %.3f s, ext4 %.3f s (ext4/FAT x%.3f), Block I/O floor %.3f s (FAT x%.3f)"
                % (rb["file_min_us"] / 1e6, rb["ext4_min_us"] / 1e6, rb["ratio_ext4_vs_fat"],
                   rb["floor_min_us"] / 1e6, rb["ratio_file_vs_floor"]))))
        else:
            rb = {"error": "%s not built (make build/bench/readbench.efi)" % READBENCH}

    result = {
        "config": {"rounds": a.rounds, "sizes_mib": sizes, "loaders": loaders, "cmdline": CMDLINE,
                   "disk_mib": inputs.DISK_MIB, "memory_mib": MEMORY_MIB, "warmup": 0 if a.no_warmup else WARMUP_BOOTS,
                   "initrd_bytes": {str(m): os.path.getsize(p) for m, p in initrds.items()},
                   "cluster_bytes": fat_cluster_bytes(d for (l, _), d in disks.items() if l != "handoff-ext4"),
                   "grub_modules": inputs.GRUB_MODULES,
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
