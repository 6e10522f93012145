#!/bin/bash
# scripts/mkdeb.sh - build/handoff_<VERSION>_amd64.deb with dpkg-deb, no root
# and no network (make deb). The package: /usr/bin/handoff,
# /usr/lib/handoff/{handoffx64.efi,handoff-stub.efi} (and handoffia32.efi,
# handoffaa64.efi and handoff-stubaa64.efi when built: install --arch ia32|aa64
# and arm64 UKIs from this package), the manual page, the kernel hooks, /etc/handoff/handoff.conf,
# the boot-counting units and their generator (pkg/debian/), copyright and
# changelog. VERSION overrides the version in the file VERSION (tests). Depends is computed from the tool's ELF by dpkg-shlibdeps.
set -euo pipefail
cd "$(dirname "$0")/.."
version=${VERSION:-$(cat VERSION)}
out=build/handoff_${version}_amd64.deb
tree=build/deb/handoff
src=pkg/debian

rm -rf build/deb
install -d "$tree/DEBIAN" "$tree/usr/bin" "$tree/usr/lib/handoff" "$tree/usr/share/man/man1" \
	"$tree/usr/share/doc/handoff" "$tree/etc/kernel/postinst.d" "$tree/etc/kernel/postrm.d" \
	"$tree/etc/initramfs/post-update.d" "$tree/usr/lib/kernel/install.d" "$tree/etc/handoff" \
	"$tree/lib/systemd/system" "$tree/lib/systemd/system-generators" "$tree/usr/share/lintian/overrides"
install -m 0755 build/handoff "$tree/usr/bin/handoff"
strip --remove-section=.comment --remove-section=.note "$tree/usr/bin/handoff"
install -m 0644 build/handoff.efi "$tree/usr/lib/handoff/handoffx64.efi"
install -m 0644 build/handoff-stub.efi "$tree/usr/lib/handoff/handoff-stub.efi"
for f in handoffia32.efi handoffaa64.efi handoff-stubaa64.efi; do
	if [[ -f build/$f ]]; then
		install -m 0644 "build/$f" "$tree/usr/lib/handoff/$f"
	fi
done
gzip -9n < docs/handoff.1 > "$tree/usr/share/man/man1/handoff.1.gz"
install -m 0644 "$src/copyright" "$tree/usr/share/doc/handoff/copyright"
sed "s/@VERSION@/$version/" "$src/changelog" | gzip -9n > "$tree/usr/share/doc/handoff/changelog.gz"
install -m 0755 "$src/kernel-postinst" "$tree/etc/kernel/postinst.d/zz-handoff"
install -m 0755 "$src/kernel-postrm" "$tree/etc/kernel/postrm.d/zz-handoff"
install -m 0755 "$src/initramfs-post-update" "$tree/etc/initramfs/post-update.d/zz-handoff"
install -m 0755 "$src/90-handoff.install" "$tree/usr/lib/kernel/install.d/90-handoff.install"
install -m 0644 "$src/handoff.conf" "$tree/etc/handoff/handoff.conf"
install -m 0644 "$src/handoff-bless-boot.service" "$src/handoff-boot-check-no-failures.service" \
	"$tree/lib/systemd/system/"
install -m 0755 "$src/handoff-bless-boot-generator" "$tree/lib/systemd/system-generators/"
install -m 0644 "$src/lintian-overrides" "$tree/usr/share/lintian/overrides/handoff"
install -m 0755 "$src/postinst" "$src/postrm" "$tree/DEBIAN/"
(cd "$tree" && find etc -type f | sed 's|^|/|' | sort) > "$tree/DEBIAN/conffiles"

# Depends: what the tool's ELF needs, as dpkg-shlibdeps finds it (it wants a
# debian/control beside it; a minimal one in a scratch directory does).
work=build/deb/shlibdeps
mkdir -p "$work/debian"
printf 'Source: handoff\n\nPackage: handoff\nArchitecture: amd64\n' > "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O "../../../$tree/usr/bin/handoff" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[[ -n $depends ]] || { echo "mkdeb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

size=$(du -sk --exclude=DEBIAN "$tree" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@SIZE@/$size/" -e "s/@DEPENDS@/$depends/" "$src/control.in" \
	> "$tree/DEBIAN/control"
(cd "$tree" && find usr etc lib -type f -print0 | sort -z | xargs -0 md5sum) > "$tree/DEBIAN/md5sums"
chmod 0644 "$tree/DEBIAN/control" "$tree/DEBIAN/md5sums" "$tree/DEBIAN/conffiles"
find "$tree" -type d -exec chmod 0755 {} +
dpkg-deb --root-owner-group -Zxz --build "$tree" "$out" >/dev/null
echo "$out"
