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
#           blessed by systemd-bless-boot.
out=/boot/efi/systest
state=/var/lib/handoff-systest
if [ -e "$state/first-done" ]; then phase=second; else phase=first; fi
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
/lib/systemd/systemd-bless-boot status > "$d/bless" 2>&1
systemctl show -p ActiveState -p Result systemd-bless-boot.service > "$d/bless-unit"
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
fi
fact done yes
sync
echo "HANDOFF-SYSTEST phase $phase: done"
systemctl poweroff
