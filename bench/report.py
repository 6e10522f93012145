#!/usr/bin/python3
"""Write docs/bench.md and its SVG plot from build/bench/results.json (stdlib only).

    bench/report.py RESULTS.json OUT.md

The plot (t1−t0 median against initrd size, min–max bars, one line per
loader) goes beside OUT.md as bench-t1.svg. bench/notes.md (hand-written
analysis of the figures) is appended verbatim when it exists, and before it
the network boot section bench/netbench.py wrote beside RESULTS.json.
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
COLORS = {"handoff-stub": "#1f77b4", "handoff-handover": "#2ca02c", "handoff-legacy": "#17becf",
          "handoff-uki": "#9467bd", "handoff-ext4": "#8c564b", "systemd-boot": "#ff7f0e", "grub": "#d62728",
          "handoffia32-stub": "#7f7f7f", "handoffia32-handover": "#bcbd22", "handoffia32-legacy": "#e377c2",
          "grub-ia32": "#000000", "handoff-uki-menu": "#aec7e8", "sdboot-uki-menu": "#ffbb78"}
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))  # the harness package
from harness.paths import SIZE_BUDGETS  # noqa: E402

# The budgets `make check` enforces, by file name as results.json records sizes.
SIZE_TARGETS = {os.path.basename(path): limit for path, limit in SIZE_BUDGETS.items()}
# Loaders on 32-bit OVMF (bench.py IA32): their own table, against GRUB i386-efi.
IA32 = ("handoffia32-stub", "handoffia32-handover", "handoffia32-legacy", "grub-ia32")
# The same UKI from a loader's menu (\\EFI\\Linux): their own table and targets (issue 24).
UKI_MENU = ("handoff-uki-menu", "sdboot-uki-menu")


def warmup_words(n):
    """results.json's "warmup": a bool before 2026-12-04, then the number of boots."""
    n = int(n)
    return "" if not n else ", after a discarded warm-up boot" if n == 1 else ", after %d discarded warm-up boots" % n


def fmt_s(x):
    return "–" if x is None else "%.3f" % x


def fmt_r(x):
    return "–" if x is None else "%.2f×" % x


def records_by(res):
    return {(r["loader"], r["initrd_mib"]): r for r in res["records"]}


def table(res):
    out = ["| initrd | loader | runs | t1−t0 median [min–max] s | vs systemd-boot | vs GRUB "
           "| best vs best: systemd-boot, GRUB | t2−t0 median [min–max] s | t2 vs systemd-boot |",
           "|---:|---|---:|---|---:|---:|---|---|---:|"]
    for mib in res["config"]["sizes_mib"]:
        for r in (x for x in res["records"] if x["initrd_mib"] == mib and x["loader"] not in IA32 + UKI_MENU):
            fail = " (+%d failed)" % r["failed_runs"] if r.get("failed_runs") else ""
            out.append("| %d MiB | %s | %d%s | %s [%s–%s] | %s | %s | %s, %s | %s [%s–%s] | %s |" % (
                mib, r["loader"], r["runs"], fail, fmt_s(r["t1_median_s"]), fmt_s(r["t1_min_s"]),
                fmt_s(r["t1_max_s"]), fmt_r(r.get("ratio_vs_systemd_boot")), fmt_r(r.get("ratio_vs_grub")),
                fmt_r(r.get("min_ratio_vs_systemd_boot")), fmt_r(r.get("min_ratio_vs_grub")),
                fmt_s(r["t2_median_s"]), fmt_s(r.get("t2_min_s")), fmt_s(r.get("t2_max_s")),
                fmt_r(r.get("t2_ratio_vs_systemd_boot"))))
    return out


def ia32_table(res):
    """32-bit OVMF (mixed mode): handoffia32 against GRUB i386-efi, paired per round."""
    rows = [r for r in res["records"] if r["loader"] in IA32]
    if not rows:
        return ["Not run (needs the loaders handoffia32-* and grub-ia32)."]
    out = ["The same disk layout, the loader as `\\EFI\\BOOT\\BOOTIA32.EFI`, on Debian's 32-bit OVMF "
           "(ovmf-ia32: SMM, Secure Boot build, no keys enrolled) with the same 64-bit CPU. handoffia32 boots "
           "the kernel by its `.compat` IA-32 entry (stub), the 32-bit handover entry or the 32-bit boot "
           "protocol (legacy); GRUB i386-efi uses the 32-bit boot protocol.", "",
           "| initrd | loader | runs | t1−t0 median [min–max] s | vs GRUB i386-efi | best vs best "
           "| t2−t0 median [min–max] s | t2 vs GRUB i386-efi |", "|---:|---|---:|---|---:|---:|---|---:|"]
    for mib in res["config"]["sizes_mib"]:
        for r in (x for x in rows if x["initrd_mib"] == mib):
            fail = " (+%d failed)" % r["failed_runs"] if r.get("failed_runs") else ""
            out.append("| %d MiB | %s | %d%s | %s [%s–%s] | %s | %s | %s [%s–%s] | %s |" % (
                mib, r["loader"], r["runs"], fail, fmt_s(r["t1_median_s"]), fmt_s(r["t1_min_s"]), fmt_s(r["t1_max_s"]),
                fmt_r(r.get("ratio_vs_grub_ia32")), fmt_r(r.get("min_ratio_vs_grub_ia32")), fmt_s(r["t2_median_s"]),
                fmt_s(r.get("t2_min_s")), fmt_s(r.get("t2_max_s")), fmt_r(r.get("t2_ratio_vs_grub_ia32"))))
    worst = [(r.get("ratio_vs_grub_ia32"), r["loader"], r["initrd_mib"]) for r in rows
             if r["loader"] != "grub-ia32" and r.get("ratio_vs_grub_ia32") is not None]
    if worst:
        w = max(worst)
        out += ["", "Slowest handoffia32 scheme against GRUB i386-efi: %s (%s, %d MiB): %s."
                % (fmt_r(w[0]), w[1], w[2], "not slower" if w[0] <= 1.0 else "**slower**")]
    return out


def verdict(ok):
    return "–" if ok is None else ("met" if ok else "**missed**")


def targets(res):
    recs = records_by(res)
    sizes = res["config"]["sizes_mib"]
    # issue 7's targets compare loaders reading the same FAT ESP; handoff-ext4
    # reads another partition (systemd-boot cannot) and has its own rows
    handoffs = [l for l in res["config"]["loaders"] if l.startswith("handoff-") and l not in ("handoff-ext4",)
                and l not in UKI_MENU]
    out = ["| target | measured | verdict |", "|---|---|---|"]

    def ratio(l, mib, key):
        r = recs.get((l, mib))
        return r.get(key) if r else None

    for mib, key, limit, what in ((256, "ratio_vs_systemd_boot", 0.8, "systemd-boot's"),
                                  (256, "ratio_vs_grub", 0.5, "GRUB's"),
                                  (8, "ratio_vs_systemd_boot", 0.95, "systemd-boot's")):
        if mib not in sizes:
            continue
        for l in handoffs:
            x = ratio(l, mib, key)
            out.append("| %s t1−t0 ≤ %.2f× %s, %d MiB | %s | %s |" % (
                l, limit, what, mib, fmt_r(x), verdict(None if x is None else x <= limit)))
    for mib in sizes:  # issue 24: the same UKI from handoff's menu against systemd-boot's, and started directly
        for key, limit, what in (("ratio_vs_sdboot_uki", 0.70, "systemd-boot's (same UKI from its menu)"),
                                 ("ratio_vs_uki", 1.0, "OVMF starting the same UKI")):
            x = ratio("handoff-uki-menu", mib, key)
            if x is not None:
                out.append("| handoff-uki-menu t1−t0 ≤ %.2f× %s, %d MiB | %s | %s |" % (
                    limit, what, mib, fmt_r(x), verdict(x <= limit)))
    worst = [(ratio(l, m, "ratio_vs_systemd_boot"), l, m) for l in handoffs for m in sizes]
    worst = [w for w in worst if w[0] is not None]
    if worst:
        w = max(worst)
        out.append("| never above systemd-boot (worst scheme and size) | %s (%s, %d MiB) | %s |"
                   % (fmt_r(w[0]), w[1], w[2], verdict(w[0] <= 1.0)))
    rb = res.get("readbench") or {}
    if "ratio_ext4_vs_fat" in rb:
        out.append("| initrd read from ext4 not slower than from FAT (%d MiB, paired per round) | %s | %s |"
                   % (rb.get("initrd_mib", 0), fmt_r(rb["ratio_ext4_vs_fat"]),
                      verdict(rb["ratio_ext4_vs_fat"] <= 1.0)))
    for mib in sizes:
        x = ratio("handoff-ext4", mib, "ratio_vs_fat")
        if x is not None and mib == max(sizes):
            out.append("| boot from ext4 not slower than from FAT (t1−t0, handover, %d MiB) | %s | %s |"
                       % (mib, fmt_r(x), verdict(x <= 1.0)))
    if "ratio_file_vs_floor" in rb:
        out.append("| initrd read ≤ 1.1× the Block I/O floor (%d MiB, best against best) | %s | %s |"
                   % (rb.get("initrd_mib", 0), fmt_r(rb["ratio_file_vs_floor"]),
                      verdict(rb["ratio_file_vs_floor"] <= 1.1)))
    med = rb.get("median_us") or {}
    floors = [v for k, v in med.items() if k.startswith("blockio")]
    if "file" in med and floors:  # issue 22
        x = med["file"] / min(floors)
        out.append("| initrd read from FAT ≤ 1.2× the Block I/O floor (%d MiB, medians) | %s | %s |"
                   % (rb.get("initrd_mib", 0), fmt_r(x), verdict(x <= 1.2)))
    for mib in sizes:  # issue 22: 32-bit firmware, against GRUB i386-efi
        for l in ("handoffia32-handover", "handoffia32-legacy"):
            x = ratio(l, mib, "ratio_vs_grub_ia32")
            if x is not None:
                out.append("| %s t1−t0 ≤ 0.95× GRUB i386-efi's, %d MiB | %s | %s |"
                           % (l, mib, fmt_r(x), verdict(x <= 0.95)))
    for name, limit in SIZE_TARGETS.items():
        size = res["sizes"].get(name)
        if size is not None:
            bound = "%d KiB" % (limit >> 10) if limit % 1024 == 0 else "%d bytes" % limit
            out.append("| %s ≤ %s | %.1f KiB (%d bytes) | %s |" % (name, bound, size / 1024, size,
                                                                  verdict(size <= limit)))
    return out


def uki_menu_lines(res):
    """The same handoff UKI from handoff's menu, from systemd-boot's and started by OVMF, paired per round."""
    recs = records_by(res)
    rows = [recs[(l, mib)] for mib in res["config"]["sizes_mib"] for l in UKI_MENU + ("handoff-uki",)
            if (l, mib) in recs]
    if not any(r["loader"] in UKI_MENU for r in rows):
        return ["Not run (needs the loaders handoff-uki-menu, sdboot-uki-menu and handoff-uki)."]
    out = ["The `handoff uki` image of handoff-uki (initrd inside) as `\\EFI\\Linux\\debian.efi`, the only "
           "entry of handoff's menu (handoff-uki-menu) and of systemd-boot's (sdboot-uki-menu), both with "
           "`timeout 0`; handoff-uki is the same image started directly by OVMF.", "",
           "| initrd | loader | runs | t1−t0 median [min–max] s | vs systemd-boot + UKI | vs OVMF + UKI "
           "| best vs best: systemd-boot + UKI | t2−t0 median [min–max] s |", "|---:|---|---:|---|---:|---:|---:|---|"]
    for r in rows:
        fail = " (+%d failed)" % r["failed_runs"] if r.get("failed_runs") else ""
        out.append("| %d MiB | %s | %d%s | %s [%s–%s] | %s | %s | %s | %s [%s–%s] |" % (
            r["initrd_mib"], r["loader"], r["runs"], fail, fmt_s(r["t1_median_s"]), fmt_s(r["t1_min_s"]),
            fmt_s(r["t1_max_s"]), fmt_r(r.get("ratio_vs_sdboot_uki")), fmt_r(r.get("ratio_vs_uki")),
            fmt_r(r.get("min_ratio_vs_sdboot_uki")), fmt_s(r["t2_median_s"]), fmt_s(r.get("t2_min_s")),
            fmt_s(r.get("t2_max_s"))))
    return out


def loader_times(res):
    rows = [r for r in res["records"] if "LoaderTimeInitUSec" in r or "LoaderTimeExecUSec" in r]
    if not rows:
        return ["No loader set LoaderTimeInitUSec/LoaderTimeExecUSec."]
    out = ["| loader | initrd | LoaderTimeInitUSec (median) | LoaderTimeExecUSec (median) | exec − init |",
           "|---|---:|---:|---:|---:|"]
    for r in rows:
        out.append("| %s | %d MiB | %s µs | %s µs | %s ms |" % (
            r["loader"], r["initrd_mib"], r.get("LoaderTimeInitUSec", "–"), r.get("LoaderTimeExecUSec", "–"),
            r.get("loader_exec_minus_init_ms", "–")))
    missing = [l for l in res["config"]["loaders"] if l not in {r["loader"] for r in rows}]
    if missing:
        out.append("")
        out.append("Not set by: %s (read from efivarfs by the test initramfs)." % ", ".join(missing))
    return out


def readbench_lines(res):
    rb = res.get("readbench")
    if not rb:
        return ["Not run (--no-readbench)."]
    if "error" in rb:
        return ["Failed: %s" % rb["error"]]
    out = ["`build/bench/readbench.efi` (bench/readbench.c) on the benchmark's ESP layout plus an ext4 XBOOTLDR "
           "partition holding the same file, %d MiB initrd "
           "(%d bytes; on the ESP one run of %d-byte clusters at partition offset %d), TSC at %d kHz calibrated "
           "against Stall(); each method %d times, alternating, into the same buffer:"
           % (rb["initrd_mib"], rb["initrd_bytes"], rb["cluster_bytes"], rb["offset"], rb.get("tsc_khz", 0),
              len(rb["us"].get("file", []))), "",
           "| method | runs (ms) | median (ms) | best (ms) |", "|---|---|---:|---:|"]
    names = {"file": "FAT file, handoff's file_read_exact()",
             "file1m": "FAT file, 1 MiB Read calls", "file4m": "FAT file, 4 MiB Read calls",
             "file16m": "FAT file, 16 MiB Read calls", "file64m": "FAT file, 64 MiB Read calls",
             "file1": "FAT file, one Read call",
             "ext4": "ext4 file (handoff's driver), handoff's file_read_exact()",
             "ext4_1m": "ext4 file, 1 MiB Read calls", "ext4_1": "ext4 file, one Read call",
             "blockio4m": "ESP Block I/O ReadBlocks, 4 MiB calls",
             "blockio64m": "ESP Block I/O ReadBlocks, 64 MiB calls",
             "blockio1": "ESP Block I/O ReadBlocks, one call",
             "walk": "FAT cluster chain only (seek to the last byte, read it)"}
    for k, v in rb["us"].items():
        out.append("| %s | %s | %.1f | %.1f |" % (names.get(k, k), ", ".join("%.1f" % (x / 1000) for x in v),
                                                  sorted(v)[len(v) // 2] / 1000, min(v) / 1000))
    out.append("")
    out.append("File read by handoff's code / Block I/O floor (best of each): FAT **%.3f×**, ext4 **%.3f×**. "
               "ext4 / FAT, median of the per-round ratios: **%.3f×**."
               % (rb["ratio_file_vs_floor"], rb.get("ratio_ext4_vs_floor", 0), rb.get("ratio_ext4_vs_fat", 0)))
    if "verified_methods" in rb:
        out.append("")
        out.append("In the first round every read (%d methods) went into a zeroed buffer and its CRC-32 was checked "
                   "against the host's (%s), outside the timed part." % (rb["verified_methods"], rb["crc32"]))
    if "volumes_us" in rb:
        out.append("")
        out.append("Finding the volumes as the loader does (volumes_add_partitions(): the boot disk's partitions, "
                   "mounting the ext4 one and looking for its loader entries) took %.1f ms, once."
                   % (rb["volumes_us"] / 1000))
    if "touch_us" in rb:
        out.append("")
        out.append("Before the rounds the fresh %d MiB buffer is written once (memset): %.1f ms — the cost of "
                   "first touching guest RAM under TCG, paid by whoever first writes the pages (the loader or "
                   "firmware filling its buffer), and excluded from the figures above."
                   % (rb["initrd_mib"], rb["touch_us"] / 1000))
    return out


def ext4_lines(res):
    """handoff-ext4 against handoff-handover (same scheme, entry and files on FAT), paired per round."""
    recs = records_by(res)
    rows = [(mib, recs.get(("handoff-ext4", mib)), recs.get(("handoff-handover", mib)))
            for mib in res["config"]["sizes_mib"]]
    rows = [r for r in rows if r[1] and r[2]]
    if not rows:
        return ["Not run (needs the loaders handoff-ext4 and handoff-handover)."]
    out = ["Both boot by `protocol handover`; handoff-ext4 finds its entry, kernel and initrd on an ext4 XBOOTLDR "
           "partition (`handoff disk --xbootldr-fs ext4`, mke2fs defaults: 4 KiB blocks, extents, 64bit, "
           "metadata_csum) through handoff's own driver, handoff-handover on the FAT ESP through OVMF's.", "",
           "| initrd | t1−t0 from ext4, median [min–max] s | from FAT | ext4 / FAT (paired) | best vs best "
           "| t2−t0 ext4 / FAT (paired) |", "|---:|---|---|---:|---:|---:|"]
    for mib, e, f in rows:
        out.append("| %d MiB | %s [%s–%s] | %s [%s–%s] | %s | %s | %s |" % (
            mib, fmt_s(e["t1_median_s"]), fmt_s(e["t1_min_s"]), fmt_s(e["t1_max_s"]), fmt_s(f["t1_median_s"]),
            fmt_s(f["t1_min_s"]), fmt_s(f["t1_max_s"]), fmt_r(e.get("ratio_vs_fat")), fmt_r(e.get("min_ratio_vs_fat")),
            fmt_r(e.get("t2_ratio_vs_fat"))))
    rb = res.get("readbench") or {}
    if "ext4_min_us" in rb:
        out += ["", "The read alone (readbench, below, %d MiB): ext4 best %.1f ms, FAT best %.1f ms, ext4 / FAT "
                "paired per round **%.3f×**." % (rb["initrd_mib"], rb["ext4_min_us"] / 1000, rb["file_min_us"] / 1000,
                                                 rb["ratio_ext4_vs_fat"])]
    return out


def svg_plot(res, path):
    W, H, L, R, T, B = 720, 440, 70, 190, 30, 55
    sizes = res["config"]["sizes_mib"]
    recs = [r for r in res["records"] if r["t1_median_s"] is not None]
    if not recs:
        return False
    ymax = max(r["t1_max_s"] for r in recs)
    ymax = math.ceil(ymax * 1.1)
    lx = [math.log2(s) for s in sizes]
    x0, x1 = (min(lx) - 0.3, max(lx) + 0.3) if len(lx) > 1 else (lx[0] - 1, lx[0] + 1)

    def X(mib):
        return L + (math.log2(mib) - x0) / (x1 - x0) * (W - L - R)

    def Y(v):
        return T + (1 - v / ymax) * (H - T - B)

    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">'
         % (W, H),
         '<rect width="100%" height="100%" fill="white"/>',
         '<text x="%d" y="18" font-size="14">t1−t0 (OVMF loads the boot option → kernel\'s first line), '
         'median, min–max</text>' % L]
    step = 1 if ymax <= 10 else 2 if ymax <= 20 else 5
    for v in range(0, int(ymax) + 1, step):
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>' % (L, W - R, Y(v), Y(v)))
        s.append('<text x="%d" y="%.1f" text-anchor="end">%d s</text>' % (L - 6, Y(v) + 4, v))
    for mib in sizes:
        s.append('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>' % (X(mib), X(mib), T, H - B))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%d MiB</text>' % (X(mib), H - B + 18, mib))
    s.append('<text x="%d" y="%d" text-anchor="middle">initrd size (log scale)</text>' % ((L + W - R) // 2, H - 12))
    s.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" stroke="#444"/>' % (L, T, W - L - R, H - T - B))
    for i, loader in enumerate(res["config"]["loaders"]):
        c = COLORS.get(loader, "#000")
        pts = sorted((r["initrd_mib"], r) for r in recs if r["loader"] == loader)
        dx = (i - 2.5) * 3  # keep the min–max bars of the loaders apart
        if len(pts) > 1:
            s.append('<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>'
                     % (c, " ".join("%.1f,%.1f" % (X(m) + dx, Y(r["t1_median_s"])) for m, r in pts)))
        for m, r in pts:
            s.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>'
                     % (X(m) + dx, X(m) + dx, Y(r["t1_min_s"]), Y(r["t1_max_s"]), c))
            s.append('<circle cx="%.1f" cy="%.1f" r="3.5" fill="%s"/>' % (X(m) + dx, Y(r["t1_median_s"]), c))
        ly = T + 10 + i * 20
        s.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" stroke-width="3"/>'
                 % (W - R + 15, W - R + 40, ly, ly, c))
        s.append('<text x="%d" y="%d">%s</text>' % (W - R + 46, ly + 4, loader))
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")
    return True


def render(res, svg_name):
    cfg = res["config"]
    v = res["versions"]
    m = res["machine"]
    out = ["# Boot-time benchmark: handoff, systemd-boot, GRUB", "",
           "Generated by `make bench` (bench/run.sh → bench/bench.py → bench/report.py) from "
           "`build/bench/results.json`; started %s, %d s. Do not edit the generated part by hand: "
           "the analysis at the end comes from bench/notes.md." % (cfg["started"], cfg["duration_s"]), "",
           "## What is measured", "",
           "Every loader boots the same Debian kernel and the same busybox initramfs (uncompressed cpio, padded "
           "with incompressible data to %s MiB: %s bytes) from the same disk layout: a GPT disk of %d MiB with one "
           "FAT32 ESP (%d-byte clusters) holding `\\debian\\vmlinuz`, `\\debian\\initrd.img`, `\\loader\\` and "
           "the loader as `\\EFI\\BOOT\\BOOTX64.EFI` (handoff's UKI carries its own copy of the initrd). "
           "QEMU q35, TCG, %d MiB, virtio-blk, OVMF; command line `%s`."
           % (", ".join(map(str, cfg["sizes_mib"])),
              ", ".join(str(cfg["initrd_bytes"][str(s)]) for s in cfg["sizes_mib"]),
              cfg["disk_mib"], cfg["cluster_bytes"], cfg["memory_mib"], cfg["cmdline"]), "",
           "- **t0**: OVMF's `BdsDxe: loading Boot####` line for the option it then starts (the loader's, or the "
           "UKI's, own load time counts);",
           "- **t1**: the kernel's first line (`Linux version`, replayed by earlyprintk before `quiet` applies);",
           "- **t2**: the initramfs's first line (`BENCH-INIT`, the first command of /init).", "",
           "Each serial line is timestamped on the host as it arrives (tests/harness/qemu.py). Rounds: %d; each round "
           "boots every (loader, size) pair once in a freshly shuffled order, one QEMU at a time%s. Ratios are "
           "paired per round: the median over rounds of (loader's time ÷ systemd-boot's, or GRUB's, time in the "
           "same round and size). \"Best vs best\" divides the loader's fastest boot by the reference's fastest: "
           "on a shared machine it is the least disturbed estimate (see the notes on noise)."
           % (cfg["rounds"], warmup_words(cfg["warmup"])), "",
           "Loaders: handoff `protocol stub|handover|legacy` (handoff.efi reading a BLS Type #1 entry), "
           "handoff-uki (`handoff uki` image started directly by OVMF), handoff-uki-menu and sdboot-uki-menu (the same "
           "image from handoff's and systemd-boot's menu), handoff-ext4 (`protocol handover`, "
           "with the entry, kernel and initrd on an ext4 XBOOTLDR partition instead of the ESP), "
           "systemd-boot (Debian systemd-boot-efi, "
           "same Type #1 entry), GRUB (standalone `grub-mkstandalone` image, config in its memdisk, modules: "
           "`%s`); on 32-bit OVMF, handoffia32 `protocol stub|handover|legacy` and GRUB i386-efi "
           "(the same standalone image for i386-efi)." % cfg.get("grub_modules", ""), "",
           "## Results", ""]
    out += table(res)
    out += ["", "![t1−t0 against initrd size](%s)" % svg_name, "",
            "## Targets (issues 7, 8, 22 and 24)", ""]
    out += targets(res)
    out += ["", "## A UKI from the menu (issue 24)", ""]
    out += uki_menu_lines(res)
    out += ["", "## 32-bit UEFI: handoffia32 against GRUB i386-efi (issue 14)", ""]
    out += ia32_table(res)
    out += ["", "## ext4 against FAT (issue 8)", ""]
    out += ext4_lines(res)
    out += ["", "## Initrd read time against the Block I/O floor", ""]
    out += readbench_lines(res)
    out += ["", "## Loader's own figures (Boot Loader Interface variables)", ""]
    out += loader_times(res)
    out += ["", "## Binary sizes", "", "| file | bytes | KiB |", "|---|---:|---:|"]
    for k, size in res["sizes"].items():
        out.append("| %s | %d | %.1f |" % (k, size, size / 1024))
    out += ["", "## Machine and versions", "",
            "- CPU: %s, %s cores, %s RAM, host kernel %s, %s"
            % (m["cpu"], m["cores"], m["memory"], m["host_kernel"], m["accel"]),
            "- kernel: %s" % v["kernel"],
            "- OVMF: Debian ovmf %s, ovmf-ia32 %s" % (v["ovmf"], v.get("ovmf-ia32")),
            "- QEMU: %s" % v["qemu"],
            "- systemd-boot: Debian systemd-boot-efi %s" % v["systemd-boot-efi"],
            "- GRUB: Debian grub-efi-amd64-bin %s, grub-efi-ia32-bin %s" % (v["grub-efi-amd64-bin"],
                                                                            v.get("grub-efi-ia32-bin")),
            "- busybox: Debian busybox-static %s" % v.get("busybox-static"),
            "- handoff: commit %s" % v["handoff"], ""]
    failed = [b for b in res["boots"] if "error" in b]
    if failed:
        out += ["## Failed boots", ""]
        out += ["- round %d, %d MiB, %s: %s (`%s`)" % (b["round"], b["initrd_mib"], b["loader"], b["error"], b["log"])
                for b in failed]
        out.append("")
    notes = os.path.join(HERE, "notes.md")
    if os.path.isfile(notes):
        out += [open(notes).read().rstrip(), ""]
    return "\n".join(out)


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        res = json.load(f)
    svg = os.path.join(os.path.dirname(os.path.abspath(argv[1])), "bench-t1.svg")
    svg_plot(res, svg)
    text = render(res, os.path.basename(svg))
    net = os.path.join(os.path.dirname(os.path.abspath(argv[0])), "netbench.md")  # bench/netbench.py's section
    if os.path.isfile(net) and "\n## Notes" in text:
        a, b = text.split("\n## Notes", 1)
        text = a + "\n" + open(net).read() + "\n## Notes" + b
    with open(argv[1] + ".tmp", "w") as f:
        f.write(text)
    os.replace(argv[1] + ".tmp", argv[1])
    print("report: wrote %s and %s" % (argv[1], svg))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
