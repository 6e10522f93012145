#!/bin/sh
# Inside the Debian guest of the system test (tests/system/run.py), started
# by handoff-systest.service once the boot is done: the facts of this boot go
# to the ESP, /boot/efi/systest/PHASE/ (one file each, read by the host with
# mtools after QEMU exits), then the phase's actions, then power off.
#   first:  booted from the ext4 root's /boot, named in loader.conf; that
#           line removed, entry list says the entries are not read and the
#           kernel hook puts it back; purge the older kernel; add a
#           counted entry for a kernel that panics (tries 2), and count the
#           good kernel too (/etc/kernel/tries 3, its hook run again).
#   second: after the panicking entry used up its tries: the good kernel,
#           blessed by handoff-bless-boot.service (no systemd-boot here);
#           then Secure Boot keys in handoff.conf: handoff update signs the
#           loader, the package upgraded to the next version keeps it
#           signed, a downgrade without keys is refused (the package
#           installs all the same), and layout=uki makes the kernel a
#           signed, counted UKI.
#   third:  under Secure Boot (snakeoil keys): the signed loader and UKI,
#           and the UKI blessed.
out=/boot/efi/systest
state=/var/lib/handoff-systest
keys=/etc/handoff-systest/keys
phase=first
[ ! -e "$state/first-done" ] || phase=second
[ ! -e "$state/second-done" ] || phase=third
d=$out/$phase
rm -rf "$d"
mkdir -p "$d"
echo "HANDOFF-SYSTEST phase $phase: started"

fact() { printf '%s\n' "$2" > "$d/$1"; }
loadervar() {
	f=/sys/firmware/efi/efivars/$1-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f
	[ -e "$f" ] && cat "$f" | tail -c +5 | tr -d '\000'  # a pipe: efivarfs files do not seek
}

fact system_state "$(systemctl is-system-running --wait)"
fact multi_user "$(systemctl is-active multi-user.target)"
fact uname "$(uname -r)"
fact root_fstype "$(findmnt -no FSTYPE /)"
fact root_source "$(findmnt -no SOURCE /)"
fact esp_fstype "$(findmnt -no FSTYPE /boot/efi)"
for v in LoaderInfo LoaderEntrySelected HandoffBootScheme LoaderBootCountPath LoaderImageIdentifier; do
	fact "$v" "$(loadervar "$v")"
done
bootctl status > "$d/bootctl.txt" 2>&1
fact bootctl_rc $?
handoff status --json > "$d/status.json" 2> "$d/status.err"
fact status_rc $?
# without the record of handoff install: the ESP found as bootctl finds it
HANDOFF_CONF_DIR=/nonexistent handoff status --json > "$d/status-found.json" 2>&1
handoff bless --status > "$d/bless" 2>&1
handoff status > "$d/status.txt" 2>&1
systemctl show -p ActiveState -p Result handoff-bless-boot.service > "$d/bless-unit"
systemctl show -p ActiveState -p Result handoff-boot-check-no-failures.service > "$d/check-unit"
sbvar=/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c
fact SecureBoot "$(cat "$sbvar" | tail -c 1 | od -An -tu1 | tr -d ' ')"
fact lockdown "$(cat /sys/kernel/security/lockdown 2>&1)"
systemctl --failed --no-legend --plain > "$d/failed"
ls /boot/loader/entries > "$d/boot-entries" 2>&1
ls /boot/efi/loader/entries > "$d/esp-entries" 2>&1

if [ "$phase" = first ]; then
	newest=$(cat /etc/handoff-systest/newest)
	older=$(cat /etc/handoff-systest/older)
	fact root_partuuid "$(findmnt -no PARTUUID /)"
	cp /boot/efi/loader/loader.conf "$d/loader.conf"
	# a loader.conf that lost its boot-partition line: the running system's tool
	# finds /boot's PARTUUID itself (sysfs, the disk's GPT) and puts it back
	grep -v '^boot-partition ' "$d/loader.conf" > /boot/efi/loader/loader.conf
	handoff entry list --json > "$d/list-unnamed.json" 2>&1
	/etc/kernel/postinst.d/zz-handoff "$newest" "/boot/vmlinuz-$newest" > "$d/name-hook.log" 2>&1
	fact name_hook_rc $?
	cp /boot/efi/loader/loader.conf "$d/loader.conf-after-hook"
	apt-get purge -y "linux-image-$older" > "$d/purge.log" 2>&1
	fact purge_rc $?
	ls /boot/loader/entries > "$d/boot-entries-after-purge" 2>&1
	ls /boot > "$d/boot-after-purge" 2>&1
	handoff entry list --json > "$d/list-after-purge.json" 2>&1
	handoff entry add --tries 2 --version 99-panic --title Panics --linux "/boot/vmlinuz-$newest" \
		--initrd "/boot/initrd.img-$newest" --options "$(cat /etc/kernel/cmdline) init=/bin/false panic=-1" \
		> "$d/panic-add.log" 2>&1
	fact panic_add_rc $?
	echo 3 > /etc/kernel/tries
	/etc/kernel/postinst.d/zz-handoff "$newest" "/boot/vmlinuz-$newest" > "$d/rehook.log" 2>&1
	fact rehook_rc $?
	ls /boot/loader/entries > "$d/boot-entries-counted" 2>&1
	ls /boot/efi/loader/entries > "$d/esp-entries-counted" 2>&1
	mkdir -p "$state"
	touch "$state/first-done"
elif [ "$phase" = second ]; then
	newest=$(cat /etc/handoff-systest/newest)
	sb() { sbverify --cert "$keys/db.crt" "$1" > /dev/null 2>&1; echo $?; }
	loader=/boot/efi/EFI/BOOT/BOOTX64.EFI
	printf 'sign-key=%s\nsign-cert=%s\n' "$keys/db.key" "$keys/db.crt" >> /etc/handoff/handoff.conf
	handoff update > "$d/sign-update.log" 2>&1
	fact sign_update_rc $?
	fact signed_after_update "$(sb $loader) $(sb /boot/efi/EFI/handoff/handoffx64.efi)"
	fact loader_after_update "$(sha256sum < $loader)"
	dpkg -i --force-confold /var/tmp/handoff-systest/next.deb > "$d/upgrade.log" 2>&1
	fact upgrade_rc $?
	fact signed_after_upgrade "$(sb $loader) $(sb /boot/efi/EFI/handoff/handoffx64.efi)"
	fact loader_after_upgrade "$(sha256sum < $loader)"
	cp /etc/handoff/handoff.conf /etc/handoff-systest/handoff.conf
	grep -v '^sign-' /etc/handoff-systest/handoff.conf > /etc/handoff/handoff.conf
	dpkg -i --force-confold /var/tmp/handoff-systest/this.deb > "$d/downgrade.log" 2>&1
	fact downgrade_rc $?
	fact loader_after_downgrade "$(sha256sum < $loader)"
	cp /etc/handoff-systest/handoff.conf /etc/handoff/handoff.conf
	echo layout=uki >> /etc/handoff/handoff.conf
	/etc/kernel/postinst.d/zz-handoff "$newest" "/boot/vmlinuz-$newest" > "$d/uki-hook.log" 2>&1
	fact uki_hook_rc $?
	ls /boot/efi/EFI/Linux > "$d/esp-ukis" 2>&1
	ls /boot/efi/loader/entries > "$d/esp-entries-uki" 2>&1
	fact uki_signed "$(sb "/boot/efi/EFI/Linux/$(head -n1 "$d/esp-ukis")")"
	touch "$state/second-done"
fi
fact done yes
sync
echo "HANDOFF-SYSTEST phase $phase: done"
systemctl poweroff
