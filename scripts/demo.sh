#!/usr/bin/env bash
# make demo: an ESP with handoff and Debian's kernel, booted in QEMU/OVMF.
# The menu shows one entry per boot scheme; pick one with the arrow keys (or
# wait 5 s for "auto"). The initramfs prints a banner and powers off, which
# ends QEMU. Serial console on this terminal; Ctrl-a x quits QEMU early.
set -euo pipefail
cd "$(dirname "$0")/.."
tests/boot/prepare.sh
out=build/demo
rm -rf "$out" && mkdir -p "$out/esp/EFI/BOOT" "$out/esp/loader/entries" "$out/esp/debian"
cp build/handoff.efi "$out/esp/EFI/BOOT/BOOTX64.EFI"
cp build/boot-cache/vmlinuz "$out/esp/debian/vmlinuz"
cp build/boot-cache/initramfs.cpio.gz "$out/esp/debian/initrd.img"
version=$(cat build/boot-cache/kernel-version)
cat > "$out/esp/loader/loader.conf" <<CONF
timeout 5
default debian-auto
editor yes
CONF
for p in auto stub handover legacy; do
	cat > "$out/esp/loader/entries/debian-$p.conf" <<ENTRY
title   Debian GNU/Linux ($p)
version $version
sort-key debian-$p
linux   /debian/vmlinuz
initrd  /debian/initrd.img
options console=ttyS0 handoff.demo=$p panic=-1
protocol $p
ENTRY
done
img=$out/esp.img
rm -f "$img"
mkfs.vfat -C -F 32 -n HANDOFF "$img" $((128 * 1024)) >/dev/null
mcopy -s -i "$img" "$out/esp/"* ::/
cp /usr/share/OVMF/OVMF_VARS_4M.fd "$out/vars.fd"
echo "demo: booting $img (QEMU/OVMF, TCG: the firmware takes a few seconds)"
exec qemu-system-x86_64 -machine q35 -cpu max -m 512 -accel tcg -nographic -no-reboot -net none \
	-drive if=pflash,format=raw,unit=0,readonly=on,file=/usr/share/OVMF/OVMF_CODE_4M.fd \
	-drive if=pflash,format=raw,unit=1,file="$out/vars.fd" \
	-drive file="$img",format=raw,if=virtio
