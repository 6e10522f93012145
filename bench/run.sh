#!/bin/bash
# bench/run.sh — `make bench`: boot-time benchmark of handoff beside
# systemd-boot and GRUB (bench/bench.py), then docs/bench.md and its plot
# (bench/report.py), with the network boot row (bench/netbench.py). Arguments
# go to bench.py, e.g. `bench/run.sh --rounds 3`.
# BENCH_ROUNDS overrides the number of rounds (default 5).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root"
tests/boot/fetch-kernel.sh   # the kernel and efivarfs.ko; bench.py builds its own initramfs
make --no-print-directory all build/bench/readbench.efi
status=0
/usr/bin/python3 bench/bench.py --rounds "${BENCH_ROUNDS:-5}" "$@" || status=$?
# the network boot rows (handoff against GRUB's http and tftp modules, and the firmware's RAM disk); alone: bench/netbench.py
/usr/bin/python3 bench/netbench.py --rounds "${BENCH_ROUNDS:-5}" --doc "" || status=$?
/usr/bin/python3 bench/report.py build/bench/results.json docs/bench.md
exit $status
