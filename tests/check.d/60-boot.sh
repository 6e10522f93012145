#!/usr/bin/env bash
# check: both cores
# QEMU/OVMF boot tests (TCG), two guests at a time on two cores.
exec tests/boot/run.py -j "${BOOT_JOBS:-2}" --no-prepare
