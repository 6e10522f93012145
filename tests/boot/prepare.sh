#!/bin/bash
# tests/boot/prepare.sh — one-time, idempotent setup for the boot tests:
#   build/boot-cache/vmlinuz, kernel-version, modules/   (fetch-kernel.sh)
#   build/boot-cache/initramfs.cpio.gz (+ .sha256)        (mkinitramfs.sh)
# The initramfs is rebuilt only when it is missing or older than its inputs.
# Dependencies (QEMU, OVMF, mtools, ...) come from scripts/deps.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="$root/build/boot-cache"

"$here/fetch-kernel.sh"

out="$cache/initramfs.cpio.gz"
stale=0
if [ ! -s "$out" ] || [ ! -s "$out.sha256" ]; then
    stale=1
else
    for dep in "$here/initramfs.py" "$here/mkinitramfs.sh" "$cache/modules"/*.ko; do
        if [ "$dep" -nt "$out" ]; then stale=1; fi
    done
fi
if [ "$stale" = 1 ]; then
    "$here/mkinitramfs.sh" "$out"
    echo "prepare: $out (payload sha256 $(cat "$out.sha256"))" >&2
fi
