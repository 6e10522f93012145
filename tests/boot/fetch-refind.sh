#!/bin/bash
# tests/boot/fetch-refind.sh — the UEFI file system drivers Debian ships in
# its refind package (drivers_x64/*.efi), for the driver tests
# (test_drivers.py): `apt-get download refind` and `dpkg -x`, the package is
# not installed (its maintainer scripts would write to the host's ESP).
#   build/boot-cache/refind/btrfs_x64.efi, ext4_x64.efi, ...
# Cached: does nothing when btrfs_x64.efi is there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../build/boot-cache/refind"
[ -s "$out/btrfs_x64.efi" ] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # apt-get download drops root for _apt
(cd "$work" && apt-get download -q refind 2>&1 >/dev/null | grep -v "unsandboxed" >&2 || true)
dpkg -x "$work"/refind_*.deb "$work/x"
mkdir -p "$out"
cp "$work"/x/usr/share/refind/refind/drivers_x64/*.efi "$out/"
echo "fetch-refind: $(ls "$out" | tr '\n' ' ')" >&2
