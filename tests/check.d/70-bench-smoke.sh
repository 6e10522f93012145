#!/usr/bin/env bash
# Smoke run of the boot-time benchmark (bench/), so `make bench` cannot rot:
# 1 round, the 8 MiB initrd, handoff (handover from FAT and from ext4) and
# systemd-boot, handoffia32 (stub) and GRUB i386-efi on 32-bit OVMF, no
# warm-up, then readbench on the 8 MiB initrd (FAT, ext4 and Block I/O reads,
# each checked against the host's CRC-32 in the guest); results.json must hold
# every record with sane numbers, report.py must render it, and the
# paired-ratio arithmetic is checked on made-up boots. Needs
# qemu-system-x86_64, ovmf, ovmf-ia32, mtools, systemd-boot-efi, grub-common,
# grub-efi-ia32-bin (the x86-64 GRUB image is built even when it is not booted).
set -u
cd "$(dirname "$0")/../.."
W=build/bench-smoke
rm -rf "$W" && mkdir -p "$W"
pass=0 fail=0
make --no-print-directory build/bench/readbench.efi >"$W/make.log" 2>&1 || { sed 's/^/    /' "$W/make.log"; }
if /usr/bin/python3 bench/bench.py --rounds 1 --sizes 8 \
	--loaders handoff-handover,handoff-ext4,systemd-boot,handoffia32-stub,grub-ia32 \
	--no-warmup --out "$W" >"$W/bench.log" 2>&1; then
	echo "PASS bench.py ran (5 boots and readbench)"; pass=$((pass + 1))
else
	echo "FAIL bench.py exited non-zero"; sed 's/^/    /' "$W/bench.log" | tail -n 20; fail=$((fail + 1))
fi
/usr/bin/python3 - "$W" "$pass" "$fail" <<'PY'
import json, os, sys
sys.path.insert(0, "bench")
W = sys.argv[1]
passed, failed = int(sys.argv[2]), int(sys.argv[3])
def check(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
        print("PASS", name)
    else:
        failed += 1
        print("FAIL", name, detail)

try:
    res = json.load(open(os.path.join(W, "results.json")))
except (OSError, ValueError) as e:
    res = None
    check("results.json readable", False, str(e))
if res:
    recs = {(r["loader"], r["initrd_mib"]): r for r in res["records"]}
    check("five records", sorted(recs) == [("grub-ia32", 8), ("handoff-ext4", 8), ("handoff-handover", 8),
                                           ("handoffia32-stub", 8), ("systemd-boot", 8)], sorted(recs))
    for key, r in sorted(recs.items()):
        ok = (r["runs"] == 1 and r["t1_median_s"] is not None and 0.5 < r["t1_median_s"] < 120
              and r["t2_median_s"] is not None and r["t1_median_s"] < r["t2_median_s"] < 180
              and r["t1_min_s"] == r["t1_max_s"] == r["t1_median_s"])
        check("%s: t0 < t1 < t2, plausible seconds" % key[0], ok, r)
    sd = recs.get(("systemd-boot", 8), {})
    check("systemd-boot's ratio to itself is 1", sd.get("ratio_vs_systemd_boot") == 1.0, sd)
    ho = recs.get(("handoff-handover", 8), {})
    want = round(ho.get("t1_median_s", 0) / sd.get("t1_median_s", 1), 3) if sd.get("t1_median_s") else None
    check("handoff's ratio = its t1 / systemd-boot's t1 (1 round)",
          ho.get("ratio_vs_systemd_boot") is not None and abs(ho["ratio_vs_systemd_boot"] - want) < 0.002, (ho, want))
    ex = recs.get(("handoff-ext4", 8), {})
    want = round(ex.get("t1_median_s", 0) / ho.get("t1_median_s", 1), 3) if ho.get("t1_median_s") else None
    check("handoff-ext4's ratio to FAT = its t1 / handoff-handover's t1 (1 round)",
          ex.get("ratio_vs_fat") is not None and abs(ex["ratio_vs_fat"] - want) < 0.002, (ex, want))
    gi = recs.get(("grub-ia32", 8), {})
    hi = recs.get(("handoffia32-stub", 8), {})
    want = round(hi.get("t1_median_s", 0) / gi.get("t1_median_s", 1), 3) if gi.get("t1_median_s") else None
    check("handoffia32's ratio to GRUB i386-efi = its t1 / grub-ia32's t1 (1 round)",
          hi.get("ratio_vs_grub_ia32") is not None and abs(hi["ratio_vs_grub_ia32"] - want) < 0.002, (hi, want))
    check("handoffia32 set LoaderTimeInitUSec/ExecUSec on 32-bit firmware",
          hi.get("LoaderTimeExecUSec", 0) > hi.get("LoaderTimeInitUSec", 0) > 0, hi)
    check("handoff set LoaderTimeInitUSec/ExecUSec (read by the initramfs)",
          ho.get("LoaderTimeExecUSec", 0) > ho.get("LoaderTimeInitUSec", 0) > 0, ho)
    rb = res.get("readbench") or {}
    check("readbench ran without error", rb and "error" not in rb, rb)
    names = ("file", "ext4", "ext4_1", "file1", "blockio1")
    check("readbench timed FAT, ext4 and Block I/O reads 9 times each",
          all(len(rb.get("us", {}).get(k, [])) == 9 and min(rb["us"][k]) > 0 for k in names), rb.get("us"))
    check("readbench verified 12 methods against the host's CRC-32",
          rb.get("verified_methods") == 12 and len(rb.get("crc32", "")) == 8, rb)
    if rb.get("us", {}).get("ext4") and rb["us"].get("file"):
        import statistics
        want = round(statistics.median(e / f for e, f in zip(rb["us"]["ext4"], rb["us"]["file"])), 3)
        check("readbench ext4/FAT ratio is the median of the per-round ratios",
              rb.get("ratio_ext4_vs_fat") == want, (rb.get("ratio_ext4_vs_fat"), want))
    check("sizes has the 7 binaries",
          all(res["sizes"].get(k, 0) > 0 for k in ("handoff.efi", "handoff-stub.efi", "handoffia32.efi",
                                                   "systemd-bootx64.efi", "linuxx64.efi.stub", "grubx64.efi",
                                                   "grubia32.efi")), res["sizes"])

# paired ratios on made-up boots: median over rounds of per-round ratios,
# which differs from the ratio of the medians here.
import bench
boots = []
for rd, (a, b) in enumerate([(2.0, 4.0), (3.0, 3.0), (9.0, 10.0)], 1):
    boots.append({"loader": "x", "initrd_mib": 8, "round": rd, "t1_s": a, "t2_s": a + 1, "vars": {}})
    boots.append({"loader": "systemd-boot", "initrd_mib": 8, "round": rd, "t1_s": b, "t2_s": b + 1, "vars": {}})
boots.append({"loader": "x", "initrd_mib": 8, "round": 4, "error": "missing t1", "vars": {}})
r = {x["loader"]: x for x in bench.summarize(boots, ["x", "systemd-boot"], [8])}["x"]
check("paired ratio is the median of per-round ratios (0.9)", r["ratio_vs_systemd_boot"] == 0.9, r)
check("failed boots are counted, not used", r["runs"] == 3 and r["failed_runs"] == 1, r)
check("median/min/max", (r["t1_median_s"], r["t1_min_s"], r["t1_max_s"]) == (3.0, 2.0, 9.0), r)

from harness import qemu  # bench put it on the path
lines = [(1.0, 'BdsDxe: loading Boot0001 "x"'), (1.1, "BdsDxe: failed to load Boot0001"),
         (2.0, 'BdsDxe: loading Boot0002 "y"'), (2.1, 'BdsDxe: starting Boot0002 "y"'),
         (5.0, "[    0.000000] Linux version 6.1.0"), (6.0, "Linux version 6 again"),
         (9.0, "BENCH-INIT"), (9.5, "BENCH-VAR LoaderTimeInitUSec=123")]
t0, t1, t2, v, marks = bench.parse_boot(qemu.Result(serial_text="", exit_code=0, timed_out=False, duration=10.0,
                                                    lines=lines))
check("parse_boot: t0 is the option that was started", (t0, t1, t2) == (2.0, 5.0, 9.0), (t0, t1, t2))
check("parse_boot: BENCH-VAR", v == {"LoaderTimeInitUSec": "123"}, v)
check("parse_boot: marks after t0", marks == {"start": 0.1}, marks)

if res:
    import report
    md = report.render(res, "bench-t1.svg")
    check("report renders the table", "| 8 MiB | handoff-handover | 1 |" in md, md[:300])
    check("report has the ext4 against FAT table", "## ext4 against FAT" in md and "| 8 MiB | " in
          md.split("## ext4 against FAT", 1)[-1], md[-600:])
    ia32 = md.split("## 32-bit UEFI", 1)[-1].split("\n## ", 1)[0]
    check("report has the 32-bit UEFI table",
          "| 8 MiB | handoffia32-stub | 1 |" in ia32 and "| 8 MiB | grub-ia32 | 1 |" in ia32, ia32[:600])
    check("report draws the SVG", report.svg_plot(res, os.path.join(W, "bench-t1.svg"))
          and open(os.path.join(W, "bench-t1.svg")).read().count("<circle") == 5)
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
PY
