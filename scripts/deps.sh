#!/bin/bash
# scripts/deps.sh — the one dependency step for handoff.
#
# Reads scripts/packages.txt (one Debian package per line, '#' comments),
# checks which are missing with dpkg-query and installs them; adds the arm64
# architecture to dpkg first, for the arm64 kernel and busybox the AArch64
# boot tests download (tests/boot/fetch-arm64.sh; nothing arm64 is installed):
#   - nothing missing: exit 0 quietly;
#   - root: apt-get update, then apt-get install -y --no-install-recommends;
#   - not root: print the exact sudo command and exit 1.
# A stamp (build/boot-cache/deps.stamp) holding a hash of packages.txt makes repeat
# calls fast: if the stamp matches and is newer than dpkg's status file,
# nothing is checked at all.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
list="$here/packages.txt"
stamp_dir="$root/build/boot-cache"
stamp="$stamp_dir/deps.stamp"

[ -r "$list" ] || { echo "deps.sh: $list not found" >&2; exit 2; }

want="$(sha256sum "$list" | cut -d' ' -f1)"
arch_missing=false
dpkg --print-foreign-architectures | grep -qx arm64 || arch_missing=true
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] \
   && [ "$stamp" -nt /var/lib/dpkg/status ] && [ "$arch_missing" = false ]; then
    exit 0
fi

mapfile -t pkgs < <(sed -e 's/#.*//' -e 's/[[:space:]]\+/\n/g' "$list" | sed '/^$/d')

missing=()
for p in "${pkgs[@]}"; do
    st="$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)"
    case "$st" in
        ii*) ;;
        *) missing+=("$p") ;;
    esac
done

write_stamp() {
    mkdir -p "$stamp_dir" 2>/dev/null && echo "$want" > "$stamp" 2>/dev/null || true
}

if [ ${#missing[@]} -eq 0 ] && [ "$arch_missing" = false ]; then
    write_stamp
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "deps.sh: missing Debian packages: ${missing[*]:-none}; arm64 architecture missing: $arch_missing" >&2
    echo "Install them with:" >&2
    echo "  sudo dpkg --add-architecture arm64 && sudo apt-get update && sudo DEBIAN_FRONTEND=noninteractive \\"
    echo "    apt-get install -y --no-install-recommends ${missing[*]}"
    exit 1
fi

if [ "$arch_missing" = true ]; then
    echo "deps.sh: dpkg --add-architecture arm64" >&2
    dpkg --add-architecture arm64
fi
apt-get update
if [ ${#missing[@]} -eq 0 ]; then
    write_stamp
    exit 0
fi
echo "deps.sh: installing: ${missing[*]}" >&2
DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
write_stamp
