#!/bin/bash
# tests/boot/prepare.sh — one-time, idempotent setup for the boot tests:
#   build/boot-cache/vmlinuz, kernel-version, modules/   (fetch-kernel.sh)
#   build/boot-cache/initramfs.cpio.gz (+ .sha256)        (mkinitramfs.sh)
#   build/boot-cache/k6.12/{vmlinuz,modules/,initramfs.cpio.gz}: Debian's 6.12
#     kernel (linux-image-6.12-amd64, bookworm-security) and an initramfs with
#     its efivarfs.ko, for the mixed-mode tests (test_ia32.py); best effort:
#     the tests that need it fail by name when it could not be fetched.
#   build/boot-cache/refind/*_x64.efi: Debian's UEFI file system drivers
#     (fetch-refind.sh, for test_drivers.py); best effort as the 6.12 kernel.
#   build/boot-cache/trixie/: systemd 257's stub, addon stub, systemd-boot
#     and ukify (fetch-trixie.sh), what systemd's own tools make today.
#   build/boot-cache/arm64/{vmlinuz,modules/,busybox,initramfs.cpio.gz}:
#     Debian's arm64 kernel and busybox-static:arm64 (fetch-arm64.sh), and the
#     arm64 test initramfs, for the AArch64 tests (test_aa64.py); best effort.
# An initramfs is rebuilt only when it is missing or older than its inputs.
# Dependencies (QEMU, OVMF, mtools, ...) come from scripts/deps.sh.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="$root/build/boot-cache"

"$here/fetch-kernel.sh"

# initramfs OUT MODULE_DIR [mkinitramfs.sh's options]: (re)build when
# missing or older than its inputs.
initramfs() {
    local out=$1 mods=$2 stale=0 dep
    shift 2
    if [ ! -s "$out" ] || [ ! -s "$out.sha256" ]; then
        stale=1
    else
        for dep in "$here/../harness/initramfs.py" "$here/mkinitramfs.sh" "$mods"/*.ko; do
            if [ "$dep" -nt "$out" ]; then stale=1; fi
        done
    fi
    if [ "$stale" = 1 ]; then
        "$here/mkinitramfs.sh" "$out" --modules "$mods" "$@"
        echo "prepare: $out (payload sha256 $(cat "$out.sha256"))" >&2
    fi
}

initramfs "$cache/initramfs.cpio.gz" "$cache/modules"

if HANDOFF_KERNEL_META=linux-image-6.12-amd64 HANDOFF_KERNEL_CACHE="$cache/k6.12" "$here/fetch-kernel.sh"; then
    initramfs "$cache/k6.12/initramfs.cpio.gz" "$cache/k6.12/modules"
else
    echo "prepare: warning: Debian's 6.12 kernel could not be fetched; the tests that boot it will fail" >&2
fi

if "$here/fetch-arm64.sh"; then
    initramfs "$cache/arm64/initramfs.cpio.gz" "$cache/arm64/modules" --busybox "$cache/arm64/busybox"
else
    echo "prepare: warning: Debian's arm64 kernel or busybox could not be fetched; the AArch64 tests will fail" >&2
fi

"$here/fetch-refind.sh" || echo "prepare: warning: refind's drivers could not be fetched; the driver tests will fail" >&2
"$here/fetch-trixie.sh" || echo "prepare: warning: trixie's systemd-stub and ukify could not be fetched; the tests comparing with them will fail" >&2
