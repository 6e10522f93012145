#!/usr/bin/env python3
"""Where a boot spends its time: sample the guest's instruction pointer.

Boots again the QEMU command a bench run recorded (RUN/cmd.txt, with a copy of
its OVMF_VARS.fd), asks QEMU for the registers over QMP (`info registers`)
HZ times a second, and reports the samples taken between two serial lines
(--from, --to: regular expressions; by default handoff's "booting" line and
the kernel's first line): the hottest addresses (under TCG a sample lands on
the start of a translated block), the hottest 4 KiB pages, and the run of 1 MiB
regions over time. Nothing else is needed: no debug symbols, no profiler in
the firmware. Each sample stops the vCPU, and the window grows with the rate
(a 32-bit handover boot's 3.4 s from "booting" to the kernel's first line took
3.2-3.5 s at 50 Hz and 4.7-5.0 s at 100-200 Hz): compare runs of the same rate,
and read shares, not times.

  bench/pcsample.py build/bench/runs/r1-8-handoffia32-handover
  bench/pcsample.py RUN --hz 50 --from 'BdsDxe: starting' --to 'Linux version'
"""
import argparse
import collections
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time


def qemu_command(run, work):
    """RUN's QEMU command line with a fresh copy of its variables and a QMP socket."""
    cmd = open(os.path.join(run, "cmd.txt")).read().split()
    vars_copy = os.path.join(work, "vars.fd")
    shutil.copy(os.path.join(run, "OVMF_VARS.fd"), vars_copy)
    cmd = [re.sub(r"file=[^,]*OVMF_VARS\.fd", "file=" + vars_copy, c) for c in cmd]
    sock = os.path.join(work, "qmp.sock")
    return cmd + ["-qmp", "unix:%s,server=on,wait=off" % sock], sock


class Serial:
    """The guest's serial lines, each with the host time it arrived."""

    def __init__(self, pipe, stop_rx):
        self.lines, self.done = [], threading.Event()
        self._pipe, self._stop = pipe, re.compile(stop_rx)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        buf = b""
        while True:
            chunk = self._pipe.read1(4096)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                text = line.decode("latin-1").rstrip("\r")
                self.lines.append((time.time(), text))
                if self._stop.search(text):
                    self.done.set()
        self.done.set()

    def time_of(self, rx):
        return next((t for t, line in self.lines if re.search(rx, line)), None)


def qmp_connect(sock, timeout=10):
    deadline = time.time() + timeout
    while not os.path.exists(sock):
        if time.time() > deadline:
            raise SystemExit("pcsample: QEMU made no QMP socket")
        time.sleep(0.02)
    s = socket.socket(socket.AF_UNIX)
    s.connect(sock)
    f = s.makefile("rwb")
    f.readline()  # the greeting
    qmp(f, "qmp_capabilities")
    return f


def qmp(f, command, **args):
    f.write(json.dumps({"execute": command, "arguments": args} if args else {"execute": command}).encode() + b"\n")
    f.flush()
    while True:
        reply = json.loads(f.readline())
        if "return" in reply or "error" in reply:
            return reply.get("return", "")


def sample(run, hz, to_rx, limit_s):
    work = tempfile.mkdtemp(prefix="pcsample-")
    cmd, sock = qemu_command(run, work)
    qemu = subprocess.Popen(cmd, stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    samples = []
    try:
        serial = Serial(qemu.stdout, to_rx)
        f = qmp_connect(sock)
        end = time.time() + limit_s
        while not serial.done.is_set() and time.time() < end:
            t = time.time()
            regs = qmp(f, "human-monitor-command", **{"command-line": "info registers"})
            ip = re.search(r"RIP=([0-9a-f]+)", regs) or re.search(r"EIP=([0-9a-f]+)", regs)
            mode = re.search(r"CS =.*?\b(CS64|CS32|CS16)\b", regs)
            if ip:
                samples.append((t, int(ip.group(1), 16), mode.group(1) if mode else "?"))
            time.sleep(max(0.0, 1.0 / hz - (time.time() - t)))
    finally:
        qemu.kill()
        qemu.wait()
        shutil.rmtree(work, ignore_errors=True)
    return serial, samples


def report(serial, samples, from_rx, to_rx, top):
    t_from, t_to = serial.time_of(from_rx), serial.time_of(to_rx)
    if t_from is None or t_to is None:
        raise SystemExit("pcsample: the serial log has no line for %r or %r" % (from_rx, to_rx))
    win = [s for s in samples if t_from <= s[0] < t_to]
    if not win:
        raise SystemExit("pcsample: no sample between the two lines")
    span = t_to - t_from
    ms = span * 1000 / len(win)
    print("window %.3f s, %d samples (%.1f ms each)" % (span, len(win), ms))
    for title, key in (("addresses", lambda s: (s[1], s[2])), ("4 KiB pages", lambda s: (s[1] >> 12 << 12, s[2]))):
        print("hottest %s:" % title)
        for (addr, mode), n in collections.Counter(key(s) for s in win).most_common(top):
            print("  %#018x %-4s %5d  %7.0f ms  %4.1f %%" % (addr, mode, n, n * ms, 100.0 * n / len(win)))
    print("1 MiB regions over time (s after the first line):")
    run_start, prev = win[0][0], None
    for t, addr, mode in win + [(t_to, None, None)]:
        region = None if addr is None else (addr >> 20 << 20, mode)
        if region != prev and prev is not None:
            print("  %.3f-%.3f  %#018x %s" % (run_start - t_from, t - t_from, prev[0], prev[1]))
            run_start = t
        prev = region if region is not None else prev


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", help="a bench run directory (cmd.txt, OVMF_VARS.fd)")
    ap.add_argument("--hz", type=float, default=50)
    ap.add_argument("--from", dest="from_rx", default=r"handoff: booting|stub: booting")
    ap.add_argument("--to", dest="to_rx", default=r"Linux version \d")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--limit", type=float, default=120, help="give up after this many seconds")
    a = ap.parse_args(argv)
    serial, samples = sample(a.run, a.hz, a.to_rx, a.limit)
    report(serial, samples, a.from_rx, a.to_rx, a.top)


if __name__ == "__main__":
    main(sys.argv[1:])
