#!/usr/bin/python3
"""Network boot benchmark: handoff against GRUB's http and tftp modules (stdlib only).

    bench/netbench.py [--rounds 3] [--sizes 8,64,256] [--out DIR] [--doc docs/bench.md]

Over HTTP both boot by UEFI HTTP Boot from the same server tree
(tests/helpers/httpserve.py behind QEMU's user network, tests/harness/net.py):
the firmware fetches the loader from http://10.0.2.100/EFI/BOOT/BOOTX64.EFI
and the loader fetches /debian/vmlinuz and /debian/initrd.img (the
benchmark's initramfs padded to each size, bench/inputs.py) from the same
server. Over TFTP both boot by PXE from QEMU's own TFTP server on the same
tree (blocks of 1,468 B for handoff, GRUB's 1,024), GRUB reading
(tftp,10.0.2.2). handoff reads loader/entries.list, loader.conf and the entry
first and boots by handover; GRUB is `grub-mkimage -O x86_64-efi` with http,
tftp, net, efinet (net_bootp), linux, boot and the video modules, its
commands built in (-c), and boots by its own `linux` (the EFI handover
protocol in Debian's GRUB 2.06). The reference, ramdisk-http: the firmware's
own HTTP Boot fetches one FAT image (disk.img: handoff, its entry, kernel and
initrd, as the disk benchmark's ESP) into a RAM disk (UEFI 2.10 §24.7.4, its
LoadFile) and starts handoff from it, which then boots from that RAM disk:
the same bytes through the firmware's fetch path. Marks: t0 the firmware's
"Station IP address is" (DHCP done, the boot file not yet asked for), t1
"Linux version", t2 BENCH-INIT (bench.py's).
Rounds interleave the loaders and the sizes, shuffled. Each HTTP boot also
records the server's side: the requests it answered and the body bytes it
sent (httpserve.py's log), what a fleet's server pays per machine (QEMU's
TFTP server keeps no log). Writes
DIR/netbench.json and DIR/netbench.md, and puts that section into --doc
between <!-- netbench --> markers (bench/report.py keeps it).
"""
import argparse
import json
import os
import random
import shutil
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))
sys.path.insert(0, HERE)
from harness import case, esp, host, net, qemu  # noqa: E402
import bench  # noqa: E402
import inputs  # noqa: E402

LOADERS = ("handoff-http", "grub-http", "ramdisk-http", "handoff-tftp", "grub-tftp")
GRUB_NET_MODULES = "http tftp net efinet linux boot echo gzio all_video efi_gop efi_uga video_bochs video_cirrus"
RX_T0 = r"Station IP address is"  # the firmware's line once DHCP gave it an address
TFTP_SERVER = "10.0.2.2"  # QEMU's user network: the host, which serves tftp=
MARK_BEGIN, MARK_END = "<!-- netbench -->", "<!-- /netbench -->"


def grub_image(work, cmdline, proto="http"):
    """GRUB with its commands built in: DHCP through efinet, then the kernel and initrd over @proto."""
    cfg = os.path.join(work, "grub-%s.cfg" % proto)
    out = os.path.join(work, "grub-%s.efi" % proto)
    dev = "(%s,%s)" % (proto, net.SERVER_IP if proto == "http" else TFTP_SERVER)
    with open(cfg, "w") as f:
        f.write("set timeout=0\nnet_bootp\nlinux %s/debian/vmlinuz %s\ninitrd %s/debian/initrd.img\nboot\n"
                % (dev, cmdline, dev))
    host.run(["grub-mkimage", "-O", "x86_64-efi", "-o", out, "-p", "/grub", "-c", cfg] + GRUB_NET_MODULES.split())
    return out


def server_tree(work, loader, efi, initrd, cmdline):
    """The same tree for both loaders: the loader as BOOTX64.EFI, handoff's
    loader.conf, entries.list and entry (GRUB ignores them), kernel, initrd."""
    d = os.path.join(work, "srv-%s-%s" % (loader, os.path.basename(initrd)))
    files = {**inputs.esp_files(efi, initrd, cmdline, "handover"),
             "loader/entries.list": b"loader/entries/debian.conf\n"}
    return esp.tree(files, d)


def ramdisk_tree(work, initrd, cmdline):
    """A tree of one file, disk.img: the FAT image the firmware fetches into a RAM disk."""
    d = os.path.join(work, "srv-ramdisk-http-%s" % os.path.basename(initrd))
    files = esp.tree(inputs.esp_files(inputs.HANDOFF, initrd, cmdline, "handover"), d + ".esp")
    os.makedirs(d, exist_ok=True)
    esp.image(files, os.path.join(d, "disk.img"), size_mib=1)  # as small as the files allow
    shutil.rmtree(files)
    return d


def summarize(boots, sizes):
    rows = []
    for mib in sizes:
        by = {l: {b["round"]: b for b in boots if b["loader"] == l and b["initrd_mib"] == mib and "t1_s" in b}
              for l in LOADERS}
        for l in LOADERS:
            ok = list(by[l].values())
            grub = by["grub-" + l.split("-")[1]]  # the same protocol's GRUB
            ratios = [b["t2_s"] / grub[r]["t2_s"] for r, b in by[l].items() if r in grub]
            rows.append({"loader": l, "initrd_mib": mib, "runs": len(ok),
                         "t1_median_s": bench.rnd(bench.median([b["t1_s"] for b in ok])),
                         "t2_median_s": bench.rnd(bench.median([b["t2_s"] for b in ok])),
                         "t2_min_s": bench.rnd(min([b["t2_s"] for b in ok])) if ok else None,
                         "t2_ratio_vs_grub": bench.rnd(bench.median(ratios), 3),
                         "requests_median": bench.median([b["requests"] for b in ok if b["requests"] is not None]),
                         "bytes_median": bench.median([b["bytes"] for b in ok if b["bytes"] is not None])})
    return rows


def render(res):
    out = [MARK_BEGIN, "## Network boot: handoff against GRUB's http and tftp modules (issues 25, 35)", "",
           "`bench/netbench.py` (%d rounds, %s): UEFI HTTP Boot of each loader from the same server tree, "
           "the kernel and the %s MiB initrds fetched over HTTP (QEMU user network, "
           "tests/helpers/httpserve.py), and PXE boot of each from QEMU's TFTP server on that tree. "
           "t1 (Linux's first line) and t2 (its init) in s after the firmware's \"Station IP address is\" "
           "(DHCP done), so they include fetching the loader: handoff.efi %d B, GRUB %d B, or ramdisk-http's "
           "image; ratio: t2 against the same "
           "protocol's GRUB's, "
           "paired per round; requests and MiB: what the server answered and sent per boot (medians), "
           "the firmware's fetch of the loader included." % (res["config"]["rounds"], res["config"]["started"],
                                  "/".join(map(str, res["config"]["sizes_mib"])), res["sizes"]["handoff.efi"],
                                  res["sizes"]["grub-http.efi"]), "",
           "| initrd | loader | runs | t1 median | t2 median | t2 best | t2 vs GRUB | requests | MiB sent |",
           "|---|---|---|---|---|---|---|---|---|"]
    for r in res["records"]:
        out.append("| %d MiB | %s | %d | %s | %s | %s | %s | %s | %s |"
                   % (r["initrd_mib"], r["loader"], r["runs"], fmt(r["t1_median_s"]), fmt(r["t2_median_s"]),
                      fmt(r["t2_min_s"]), "–" if r["t2_ratio_vs_grub"] is None else "%.2f×" % r["t2_ratio_vs_grub"],
                      "–" if r.get("requests_median") is None else "%g" % r["requests_median"],
                      "–" if r.get("bytes_median") is None else "%.1f" % (r["bytes_median"] / 2**20)))
    failed = [b for b in res["boots"] if "error" in b]
    if failed:
        out += ["", "Failed boots: " + "; ".join("%s %d MiB round %d: %s" % (b["loader"], b["initrd_mib"],
                                                                            b["round"], b["error"]) for b in failed)]
    out += ["", MARK_END]
    return "\n".join(out) + "\n"


def fmt(x):
    return "–" if x is None else "%.3f s" % x


def put_section(doc, section):
    """Replace the marked section of @doc, or insert it before the hand-written notes."""
    text = open(doc).read() if os.path.isfile(doc) else ""
    if MARK_BEGIN in text and MARK_END in text:
        a, rest = text.split(MARK_BEGIN, 1)
        text = a + section.rstrip("\n") + rest.split(MARK_END, 1)[1]
    elif "\n## Notes" in text:
        a, b = text.split("\n## Notes", 1)
        text = a + "\n" + section + "\n## Notes" + b
    else:
        text += "\n" + section
    with open(doc + ".tmp", "w") as f:
        f.write(text)
    os.replace(doc + ".tmp", doc)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", default="8,64,256")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench"))
    ap.add_argument("--doc", default=os.path.join(ROOT, "docs", "bench.md"))
    ap.add_argument("--seed", type=int, default=None)
    a = ap.parse_args(argv)
    sizes = [int(s) for s in a.sizes.split(",") if s]
    work = os.path.join(os.path.abspath(a.out), "work")
    os.makedirs(work, exist_ok=True)
    case.set_test("netbench", os.path.join(os.path.abspath(a.out), "net-runs"))
    shutil.rmtree(os.path.join(os.path.abspath(a.out), "net-runs"), ignore_errors=True)
    t_start = time.time()
    grub = grub_image(work, bench.CMDLINE)
    efi = {"handoff-http": inputs.HANDOFF, "grub-http": grub, "ramdisk-http": None, "handoff-tftp": inputs.HANDOFF,
           "grub-tftp": grub_image(work, bench.CMDLINE, "tftp")}
    trees, servers = {}, {}
    for mib in sizes:
        initrd = inputs.build_initrd(work, mib)
        for l in LOADERS:
            trees[(l, mib)] = (ramdisk_tree(work, initrd, bench.CMDLINE) if l == "ramdisk-http" else
                               server_tree(work, l, efi[l], initrd, bench.CMDLINE))
            if l.endswith("-http"):
                servers[(l, mib)] = net.Server(trees[(l, mib)], name="%s-%d" % (l, mib))
    rng = random.Random(a.seed)
    boots = []
    for rd in range(1, a.rounds + 1):
        pairs = [(l, mib) for mib in sizes for l in LOADERS]
        rng.shuffle(pairs)
        for l, mib in pairs:
            load = bench.loadavg()
            srv = servers.get((l, mib))
            seen = len(srv.requests()) if srv else 0
            res = qemu.run_qemu(None, bench.BOOT_TIMEOUT, memory=bench.MEMORY_MIB, name="r%d-%d-%s" % (rd, mib, l),
                                stop_on=r"BENCH-DONE",
                                net=(net.http_args(srv, "disk.img") if l == "ramdisk-http" else
                                     net.http_args(srv) if srv else net.tftp_args(trees[(l, mib)])))
            _, t1, t2, _, _ = bench.parse_boot(res)
            t0 = res.time_of(RX_T0)
            answered = [r for r in srv.requests()[seen:] if r.get("method")] if srv else None
            rec = {"loader": l, "initrd_mib": mib, "round": rd, "loadavg_before": load,
                   "log": os.path.relpath(res.log_path, ROOT),
                   "requests": len(answered) if srv else None,
                   "bytes": sum(r.get("sent") or 0 for r in answered) if srv else None}
            if None in (t0, t1, t2):
                rec["error"] = "no t0/t1/t2 (%s)" % ("timeout" if res.timed_out else "exit %s" % res.exit_code)
            else:
                rec.update(t1_s=round(t1 - t0, 4), t2_s=round(t2 - t0, 4))
            boots.append(rec)
            bench.log("netbench round %d %4d MiB %-13s %s" % (rd, mib, l, rec.get("error") or
                                                              "t1-t0 %.3f s  t2-t0 %.3f s  load %.1f  "
                                                              "%s requests %s bytes"
                                                              % (rec["t1_s"], rec["t2_s"], load or 0,
                                                                 rec["requests"], rec["bytes"])))
    res = {"config": {"rounds": a.rounds, "sizes_mib": sizes, "cmdline": bench.CMDLINE, "memory_mib": bench.MEMORY_MIB,
                      "grub_modules": GRUB_NET_MODULES,
                      "started": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t_start)),
                      "duration_s": round(time.time() - t_start)},
           "sizes": {"handoff.efi": os.path.getsize(inputs.HANDOFF), "grub-http.efi": os.path.getsize(grub)},
           "records": summarize(boots, sizes), "boots": boots}
    out = os.path.abspath(a.out)
    with open(os.path.join(out, "netbench.json"), "w") as f:
        json.dump(res, f, indent=1)
    section = render(res)
    with open(os.path.join(out, "netbench.md"), "w") as f:
        f.write(section)
    if a.doc:
        put_section(a.doc, section)
    bench.log("netbench: wrote %s (%d boots, %d failed, %.0f s)" % (os.path.join(out, "netbench.json"), len(boots),
                                                                  sum("error" in b for b in boots),
                                                                  time.time() - t_start))
    return 1 if any("error" in b for b in boots) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
