#!/bin/bash
# tests/boot/fetch-kernel.sh — fetch Debian's current amd64 kernel for boot tests.
#
# Resolves the versioned kernel package behind linux-image-amd64 (falling back
# to linux-image-cloud-amd64), downloads it with `apt-get download` into
# build/boot-cache/, unpacks it with `dpkg -x` and installs:
#   build/boot-cache/vmlinuz          the kernel (EFI-stub bzImage)
#   build/boot-cache/kernel-version   e.g. 6.1.0-57-amd64
#   build/boot-cache/kernel-config    the kernel's .config
#   build/boot-cache/modules/*.ko     modules the test initramfs needs
#                                     (efivarfs is =m in Debian's kernel;
#                                     xz-compressed ones, as 6.12 ships them,
#                                     are unpacked: busybox insmod takes .ko)
# The rest of the unpacked package (~400 MB) is deleted unless
# HANDOFF_KEEP_KERNEL_PKG=1, which keeps it as build/boot-cache/kernel-pkg/.
# Cached: does nothing if vmlinuz, kernel-version and the modules are there.
# Set HANDOFF_KERNEL_META=linux-image-cloud-amd64 to prefer the cloud kernel,
# HANDOFF_KERNEL_CACHE=DIR to fetch into DIR instead of build/boot-cache
# (prepare.sh puts Debian's 6.12 kernel in build/boot-cache/k6.12 that way;
# fetch-arm64.sh the arm64 one, HANDOFF_KERNEL_META=linux-image-arm64:arm64).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cache="${HANDOFF_KERNEL_CACHE:-$root/build/boot-cache}"

MODULES="fs/efivarfs/efivarfs.ko"

if [ -s "$cache/vmlinuz" ] && [ -s "$cache/kernel-version" ] \
   && [ -s "$cache/modules/efivarfs.ko" ]; then
    exit 0
fi
mkdir -p "$cache"

resolve() {  # $1 = meta package; prints linux-image-X-... or nothing
    apt-cache depends "$1" 2>/dev/null \
        | sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*\)$/\1/p' | head -n1
}

resolve_any() {
    local m pkg metas="${HANDOFF_KERNEL_META:-} linux-image-amd64 linux-image-cloud-amd64"
    # a separate cache holds exactly the kernel asked for, never a fallback
    if [ -n "${HANDOFF_KERNEL_CACHE:-}" ]; then metas="${HANDOFF_KERNEL_META:?}"; fi
    for m in $metas; do
        pkg="$(resolve "$m")"
        if [ -n "$pkg" ]; then echo "$pkg"; return 0; fi
    done
    return 1
}

pkg="$(resolve_any || true)"
if [ -z "$pkg" ]; then
    if [ "$(id -u)" -eq 0 ]; then
        echo "fetch-kernel: apt-cache knows no kernel yet; running apt-get update" >&2
        apt-get update >&2
        pkg="$(resolve_any || true)"
    fi
fi
if [ -z "$pkg" ]; then
    echo "fetch-kernel: cannot resolve linux-image-amd64 (run 'apt-get update' as root, or scripts/deps.sh)" >&2
    exit 1
fi

tmp="$(mktemp -d "$cache/.fetch.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "fetch-kernel: downloading $pkg" >&2
# apt-get download writes into the current directory. As root it drops
# privileges to _apt, so the directory must be writable by that user.
chmod 0777 "$tmp"
(cd "$tmp" && apt-get download "$pkg" >&2) || {
    if [ "$(id -u)" -eq 0 ]; then
        apt-get update >&2
        (cd "$tmp" && apt-get download "$pkg" >&2)
    else
        exit 1
    fi
}
deb="$(ls "$tmp"/*.deb | head -n1)"
mkdir -p "$tmp/x"
dpkg -x "$deb" "$tmp/x"

kimg="$(ls "$tmp"/x/boot/vmlinuz-* | head -n1)"
[ -f "$kimg" ] || { echo "fetch-kernel: no /boot/vmlinuz-* in $deb" >&2; exit 1; }
kver="${kimg##*/vmlinuz-}"
rm -rf "$cache/modules"
mkdir -p "$cache/modules"
for m in $MODULES; do
    src="$tmp/x/lib/modules/$kver/kernel/$m"
    if [ -f "$src" ]; then
        cp "$src" "$cache/modules/"
    else
        xz -dc "$src.xz" > "$cache/modules/${m##*/}"
    fi
done
cp "$tmp/x/boot/config-$kver" "$cache/kernel-config"
if [ "${HANDOFF_KEEP_KERNEL_PKG:-0}" = 1 ]; then
    rm -rf "$cache/kernel-pkg"
    mv "$tmp/x" "$cache/kernel-pkg"
fi
cp "$kimg" "$cache/vmlinuz.tmp"
mv "$cache/vmlinuz.tmp" "$cache/vmlinuz"
echo "$kver" > "$cache/kernel-version"
echo "fetch-kernel: $cache/vmlinuz ($kver)" >&2
