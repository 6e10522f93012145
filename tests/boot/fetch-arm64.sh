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
#   build/boot-cache/arm64/linuxaa64.efi.stub: systemd-boot-efi:arm64's
#     systemd-stub, the stub of a UKI that handoffaa64.efi starts (best
#     effort: the test that needs it says it is missing)
# Cached: does nothing when they are there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../build/boot-cache/arm64"

HANDOFF_KERNEL_META=linux-image-arm64:arm64 HANDOFF_KERNEL_CACHE="$out" "$here/fetch-kernel.sh"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # apt-get download drops root for _apt

# fetch PACKAGE FILE-IN-PACKAGE: FILE-IN-PACKAGE of PACKAGE:arm64 as $out/its basename
fetch() {
	local name; name="$(basename "$2")"
	[ -s "$out/$name" ] && return 0
	(cd "$work" && apt-get download -q "$1:arm64" 2>&1 >/dev/null | grep -v "unsandboxed" >&2 || true)
	# chained: under `||` set -e does not stop a failing step
	dpkg -x "$work/$1"_*_arm64.deb "$work/x" && cp "$work/x/$2" "$out/$name.tmp" &&
		mv "$out/$name.tmp" "$out/$name" || return 1
	echo "fetch-arm64: $out/$name ($(dpkg-deb -f "$work/$1"_*_arm64.deb Version))" >&2
}

fetch busybox-static bin/busybox
fetch systemd-boot-efi usr/lib/systemd/boot/efi/linuxaa64.efi.stub ||
	echo "fetch-arm64: no linuxaa64.efi.stub (systemd-boot-efi:arm64): its test will say so" >&2
