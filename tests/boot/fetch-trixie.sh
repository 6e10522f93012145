#!/bin/bash
# tests/boot/fetch-trixie.sh — Debian trixie's systemd 257 as test fixtures
# (issue 32: what systemd's own tools produce): systemd-stub, its addon stub,
# systemd-boot and ukify, from the trixie suite of the archive this machine
# already uses, through an apt configuration of this script's own (the host's
# sources and packages are not touched; nothing is installed).
#   build/boot-cache/trixie/linuxx64.efi.stub, addonx64.efi.stub,
#   systemd-bootx64.efi, ukify (run it with /usr/bin/python3: python3-pefile)
# Cached: does nothing when ukify is there.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/../../build/boot-cache/trixie"
[ -s "$out/ukify" ] && exit 0
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 755 "$work" # apt-get download drops root for _apt
# the mirror the host's own sources name
mirror=$(grep -rhoE 'https?://[^ ]+/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/ 2>/dev/null |
	head -n 1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mkdir -p "$work/lists/partial" "$work/cache/archives/partial"
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror trixie main" > "$work/sources.list"
apt=(-o Dir::Etc::SourceList="$work/sources.list" -o Dir::Etc::SourceParts=/dev/null
	-o Dir::State::Lists="$work/lists" -o Dir::Cache="$work/cache" -o Dir::State::status=/dev/null)
apt-get "${apt[@]}" -q update >/dev/null
(cd "$work" && apt-get "${apt[@]}" download -q systemd-boot-efi systemd-ukify 2>&1 >/dev/null |
	grep -v "unsandboxed" >&2 || true)
dpkg -x "$work"/systemd-boot-efi_*.deb "$work/x"
dpkg -x "$work"/systemd-ukify_*.deb "$work/x"
mkdir -p "$out"
cp "$work"/x/usr/lib/systemd/boot/efi/{linuxx64.efi.stub,addonx64.efi.stub,systemd-bootx64.efi} "$out/"
cp "$work"/x/usr/bin/ukify "$out/ukify.tmp" && mv "$out/ukify.tmp" "$out/ukify"
echo "fetch-trixie: $(ls "$out" | tr '\n' ' ') ($(basename "$work"/systemd-boot-efi_*.deb))" >&2
