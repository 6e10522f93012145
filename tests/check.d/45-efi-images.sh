#!/usr/bin/env bash
# Firmware check of the image writers: OVMF loads a UKI and a wrapped bzImage
# built by src/core around tests/helpers/efi_selfcheck.c (a stand-in stub that
# finds its payload through LoadedImage with the stub's own readers), and the
# payload it reports matches the input files. The stand-in links to 2 sections,
# so building the UKI must move its section data (no header room): that path
# is exercised here too. Needs qemu-system-x86_64, ovmf, mtools.
set -u
cd "$(dirname "$0")/../.."
W=build/check-efi-images
. tests/helpers/check-lib.sh
rm -rf "$W" && mkdir -p "$W"
KERNEL=${HANDOFF_TEST_KERNEL:-build/boot-cache/vmlinuz}
CODE=/usr/share/OVMF/OVMF_CODE_4M.fd VARS=/usr/share/OVMF/OVMF_VARS_4M.fd
for f in "$KERNEL" "$CODE" "$VARS"; do
	[[ -r $f ]] || { echo "FAIL missing input $f"; echo "0 passed, 1 failed"; exit 1; }
done

EFI_CC="clang -target x86_64-unknown-windows -std=gnu11 -ffreestanding -fshort-wchar -mno-red-zone -mgeneral-regs-only
	-fno-stack-protector -fno-stack-check -mno-stack-arg-probe -Os -Wall -Wextra -Werror -Iinclude -Isrc"
build_selfcheck() {
	local objs=() f srcs=(tests/helpers/efi_selfcheck.c src/libc/libc.c src/libc/libc_x86.c)
	for f in pe pe_write uki uki_profile arm64_image osrel wrap bzimage fmt log cmdline str16 array; do srcs+=("src/core/$f.c"); done
	for f in "${srcs[@]}"; do
		$EFI_CC -c "$f" -o "$W/$(basename "${f%.c}").o" || return 1
		objs+=("$W/$(basename "${f%.c}").o")
	done
	lld-link /nologo /machine:x64 /subsystem:efi_application /entry:efi_main /nodefaultlib /debug:none /opt:ref \
		/merge:.rdata=.text /out:"$W/selfcheck.efi" "${objs[@]}"
}
check "build the stand-in stub" build_selfcheck
check "build mkuki" clang -std=gnu11 -O1 -g -Wall -Wextra -Werror -Iinclude -Isrc -Ibuild/gen -DHANDOFF_VERSION='"test"' \
	tests/helpers/mkuki.c src/core/*.c src/tool/platform_host.c -o "$W/mkuki"
python3 -c 'import random, sys; r = random.Random(4)
open(sys.argv[1], "wb").write(bytes(r.randrange(256) for _ in range(100001)))' "$W/initrd"

# boot FILE: run it as \EFI\BOOT\BOOTX64.EFI, print the SELFCHECK line
boot() {
	local esp=$W/esp.img
	rm -f "$esp" && truncate -s 64M "$esp" && mformat -i "$esp" -F :: && mmd -i "$esp" ::/EFI ::/EFI/BOOT &&
		mcopy -i "$esp" "$1" ::/EFI/BOOT/BOOTX64.EFI || return 1
	cp "$VARS" "$W/vars.fd"
	timeout 120 qemu-system-x86_64 -machine q35 -cpu max -m 512 -nographic -no-reboot -net none -accel tcg \
		-drive if=pflash,format=raw,readonly=on,file="$CODE" -drive if=pflash,format=raw,file="$W/vars.fd" \
		-drive format=raw,file="$esp" >"$W/serial.log" 2>&1
	grep -a -o 'SELFCHECK[^[:cntrl:]]*' "$W/serial.log" | sed 's/^SELFCHECK //' | paste -s -d ' ' | sed 's/^/SELFCHECK /'

}
# expect KIND: the line the stand-in must print, computed here from the inputs
expect() {
	python3 - "$1" "$KERNEL" "$W/initrd" <<'EOF'
import struct, sys
kind, kernel, initrd = sys.argv[1], open(sys.argv[2], 'rb').read(), open(sys.argv[3], 'rb').read()
def h(data, x=0):
    for b in data:
        x = (x * 31 + b) & 0xffffffff
    return x
if kind == 'uki':
    rd = initrd + bytes(-len(initrd) % 4)
    off = 0x200 + struct.unpack_from('<H', kernel, 0x20e)[0]
    uname = kernel[off:kernel.index(b'\0', off)].split(b' ')[0].decode()
    print('SELFCHECK uki linux=%d/%08x initrd=%d/%08x cmdline=[handoff selfcheck] uname=[%s]'
          % (len(kernel), h(kernel), len(rd), h(rd), uname))
else:
    end = (kernel[0x1f1] + 1) * 512 + struct.unpack_from('<I', kernel, 0x1f4)[0] * 16
    print('SELFCHECK wrap bzimage=%d/%08x' % (end, h(kernel[0x1f1:end])))
EOF
}
same() { [[ "$1" == "$2" ]] || { echo "got:      $1"; echo "expected: $2"; return 1; }; }

check "uki: build" "$W/mkuki" uki "$W/selfcheck.efi" "$KERNEL" "$W/uki.efi" -i "$W/initrd" -c "handoff selfcheck"
check "uki: section data had to move" bash -c "
	llvm-readobj --sections $W/selfcheck.efi | grep -m1 PointerToRawData | grep -q 0x200 &&
	llvm-readobj --sections $W/uki.efi | grep -m1 PointerToRawData | grep -q 0x400"
got=$(boot "$W/uki.efi")
check "uki: OVMF runs it and the stub finds .linux, .initrd, .cmdline, .uname intact" same "$got" "$(expect uki)"
check "wrap: build" "$W/mkuki" wrap "$W/selfcheck.efi" "$KERNEL" "$W/wrap.efi"
got=$(boot "$W/wrap.efi")
check "wrap: OVMF runs it and the stub finds the bzImage intact" same "$got" "$(expect wrap)"

finish
