#!/bin/bash
# tests/boot/fetch-arm64.sh — what the AArch64 boot tests (test_aa64.py) boot,
# from Debian's arm64 archive (dpkg --add-architecture arm64, done by
# scripts/deps.sh and .ci/run), fetched with `apt-get download` and unpacked
# with `dpkg -x`, nothing installed:
#   build/boot-cache/arm64/vmlinuz, kernel-version, modules/efivarfs.ko:
#     Debian's arm64 kernel of the x86 one's family (linux-image-arm64, by
#     fetch-kernel.sh), an Image with a PE header that its EFI stub boots
#   build/boot-cache/arm64/busybox: busybox-static:arm64's busybox, for the
#     arm64 test initramfs (tests/harness/initramfs.py --busybox)
# Cached: does nothing when they are there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../build/boot-cache/arm64"

HANDOFF_KERNEL_META=linux-image-arm64:arm64 HANDOFF_KERNEL_CACHE="$out" "$here/fetch-kernel.sh"
[ -s "$out/busybox" ] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # apt-get download drops root for _apt
(cd "$work" && apt-get download -q busybox-static:arm64 2>&1 >/dev/null | grep -v "unsandboxed" >&2 || true)
dpkg -x "$work"/busybox-static_*_arm64.deb "$work/x"
cp "$work/x/bin/busybox" "$out/busybox.tmp"
mv "$out/busybox.tmp" "$out/busybox"
echo "fetch-arm64: $out/busybox ($(dpkg-deb -f "$work"/busybox-static_*_arm64.deb Version))" >&2
