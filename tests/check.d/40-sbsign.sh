#!/usr/bin/env bash
# The images written by src/core (uki_build, wrap_bzimage) are accepted by the
# signing tools and by LLVM's PE reader: build them with tests/helpers/mkuki.c,
# sign with a throwaway key (sbsign), verify (sbverify), and check that a
# tampered or unsigned image is refused. Inputs: Debian's kernel from
# build/boot-cache, systemd's linuxx64.efi.stub (package systemd-boot-efi);
# a missing input is a failure, not a skip.
set -u
cd "$(dirname "$0")/../.."
W=build/check-sbsign
. tests/helpers/check-lib.sh
rm -rf "$W" && mkdir -p "$W"
KERNEL=${HANDOFF_TEST_KERNEL:-build/boot-cache/vmlinuz}
INITRD=build/boot-cache/initramfs.cpio.gz
SDSTUB=/usr/lib/systemd/boot/efi/linuxx64.efi.stub
for f in "$KERNEL" "$INITRD" "$SDSTUB"; do
	[[ -r $f ]] || { echo "FAIL missing input $f"; echo "0 passed, 1 failed"; exit 1; }
done

check "build mkuki" clang -std=gnu11 -O1 -g -Wall -Wextra -Werror -Iinclude -Isrc -Ibuild/gen -DHANDOFF_VERSION='"test"' \
	-fsanitize=address,undefined tests/helpers/mkuki.c src/core/*.c src/tool/platform_host.c -o "$W/mkuki"
MKUKI=$W/mkuki

# A small stub for the wrap layout (at most 5 sections): handoff's own when
# built, else a minimal lld-link EFI application.
STUB=build/handoff-stub.efi
if [[ ! -f $STUB ]]; then
	STUB=$W/tiny.efi
	printf '%s\n' 'unsigned long long __attribute__((ms_abi)) efi_main(void *h, void *st)' \
		'{ return h != st; }' > "$W/tiny.c"
	check "build tiny stub" bash -c "
		clang -target x86_64-unknown-windows -ffreestanding -mno-red-zone -Os -c $W/tiny.c -o $W/tiny.o &&
		lld-link /nologo /machine:x64 /subsystem:efi_application /entry:efi_main /nodefaultlib \
			/debug:none /out:$STUB $W/tiny.o"
fi

openssl req -new -x509 -newkey rsa:2048 -nodes -subj /CN=handoff-test -keyout "$W/k.key" -out "$W/k.crt" -days 1 \
	>"$W/openssl.log" 2>&1 || { ko "openssl key"; cat "$W/openssl.log"; }

check "uki: build" "$MKUKI" uki "$SDSTUB" "$KERNEL" "$W/uki.efi" -i "$INITRD" -c "console=ttyS0 quiet"
check "uki: llvm-readobj accepts" llvm-readobj --file-headers --sections "$W/uki.efi"
check "uki: llvm-objdump lists .linux and .initrd" bash -c "
	llvm-objdump -h $W/uki.efi | grep -q ' \.linux ' && llvm-objdump -h $W/uki.efi | grep -q ' \.initrd '"
refuse "uki: unsigned image is not verified" 1 "No signature table present" sbverify --cert "$W/k.crt" "$W/uki.efi"
check "uki: sbsign" sbsign --key "$W/k.key" --cert "$W/k.crt" --output "$W/uki.signed.efi" "$W/uki.efi"
check "uki: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/uki.signed.efi"
check "uki: sbverify --list shows the signature" bash -c \
	"sbverify --list $W/uki.signed.efi | grep -q 'subject: /CN=handoff-test'"
# flip one byte inside the kernel: the signature must no longer match
cp "$W/uki.signed.efi" "$W/uki.tampered.efi"
off=$(( $(stat -c %s "$W/uki.efi") - 4096 ))
printf '\x5a' | dd of="$W/uki.tampered.efi" bs=1 seek=$off conv=notrunc status=none
refuse "uki: tampered image is refused" 1 "Image fails hash check" sbverify --cert "$W/k.crt" "$W/uki.tampered.efi"
refuse "uki: a non-bzImage kernel is an error" 1 \
	"linuxx64.efi.stub: boot_flag at 0x1fe is 0xc000, not 0xaa55: not a bzImage" \
	"$MKUKI" uki "$SDSTUB" "$SDSTUB" "$W/bad.efi"
check "uki: no output after an error" test ! -e "$W/bad.efi"

# lld-link leaves no header room in a small stub: the writer moves its data
check "uki on a small stub: build (section data moved)" "$MKUKI" uki "$STUB" "$KERNEL" "$W/uki-small.efi" -c quiet
check "uki on a small stub: llvm-readobj accepts" llvm-readobj --file-headers --sections "$W/uki-small.efi"
check "uki on a small stub: sbsign" sbsign --key "$W/k.key" --cert "$W/k.crt" \
	--output "$W/uki-small.signed.efi" "$W/uki-small.efi"
check "uki on a small stub: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/uki-small.signed.efi"

check "wrap: build" "$MKUKI" wrap "$STUB" "$KERNEL" "$W/wrap.efi"
check "wrap: llvm-readobj accepts" bash -c \
	"llvm-readobj --file-headers $W/wrap.efi | grep -q 'IMAGE_SUBSYSTEM_EFI_APPLICATION'"
check "wrap: llvm-objdump lists .bzimage" bash -c "llvm-objdump -h $W/wrap.efi | grep -q ' \.bzimage '"
check "wrap: setup header and kernel unchanged" bash -c "
	end=\$(python3 -c 'import struct,sys; d=open(sys.argv[1],\"rb\").read(0x200);
print((d[0x1f1]+1)*512+struct.unpack_from(\"<I\",d,0x1f4)[0]*16)' $KERNEL)
	cmp -n \$((end - 0x1f1)) -i 0x1f1:0x1f1 $KERNEL $W/wrap.efi"
check "wrap: sbsign" sbsign --key "$W/k.key" --cert "$W/k.crt" --output "$W/wrap.signed.efi" "$W/wrap.efi"
check "wrap: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/wrap.signed.efi"
refuse "wrap: systemd's 8-section stub does not fit" 1 \
	"the stub's 8 sections \+ .bzimage and 6 data directories need headers up to 0x260" \
	"$MKUKI" wrap "$SDSTUB" "$KERNEL" "$W/wrap-sd.efi"

# The shipped path: the CLI with handoff's own stub.
check "handoff uki (handoff-stub.efi): build" build/handoff uki --linux "$KERNEL" --initrd "$INITRD" \
	--cmdline "console=ttyS0 quiet" --os-release @'PRETTY_NAME="Test"' -o "$W/h-uki.efi"
check "handoff uki: inspect sees a UKI with .linux .initrd .cmdline .osrel .sbat" bash -c \
	"build/handoff inspect --json $W/h-uki.efi | python3 -c 'import json,sys; j=json.load(sys.stdin);
n=[s[\"name\"] for s in j[\"pe\"][\"sections\"]];
assert j[\"format\"]==\"uki\" and all(x in n for x in (\".linux\",\".initrd\",\".cmdline\",\".osrel\",\".sbat\")), n'"
check "handoff uki: sbsign" sbsign --key "$W/k.key" --cert "$W/k.crt" --output "$W/h-uki.signed.efi" "$W/h-uki.efi"
check "handoff uki: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/h-uki.signed.efi"
check "handoff wrap (handoff-stub.efi): build" build/handoff wrap --linux "$KERNEL" -o "$W/h-wrap.efi"
check "handoff wrap: sbsign" sbsign --key "$W/k.key" --cert "$W/k.crt" --output "$W/h-wrap.signed.efi" "$W/h-wrap.efi"
check "handoff wrap: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/h-wrap.signed.efi"
check "handoff uki --sign-key --sign-cert: build and sign" build/handoff uki --linux "$KERNEL" --cmdline quiet \
	--sign-key "$W/k.key" --sign-cert "$W/k.crt" -o "$W/h-uki.selfsigned.efi"
check "handoff uki --sign-key: sbverify --cert accepts" sbverify --cert "$W/k.crt" "$W/h-uki.selfsigned.efi"
check "handoff uki --sign-key: the stub's .sbat is kept (one .sbat, handoff's line)" bash -c \
	"build/handoff inspect --json $W/h-uki.selfsigned.efi | python3 -c 'import json,sys; j=json.load(sys.stdin);
n=[s[\"name\"] for s in j[\"pe\"][\"sections\"]];
assert n.count(\".sbat\")==1 and \"\\nhandoff,1,\" in j[\"sbat\"] and j[\"signed\"], (n, j.get(\"sbat\"))'"
refuse "handoff uki --sign-key with a missing key fails" 1 "^handoff: uki: .*h-uki.nokey.efi: sbsign failed" \
	build/handoff uki --linux "$KERNEL" \
	--sign-key "$W/nope.key" --sign-cert "$W/k.crt" -o "$W/h-uki.nokey.efi"
check "handoff uki --sign-key: no output (nor temporary file) after a signing error" bash -c \
	"! ls $W/h-uki.nokey.efi* 2>/dev/null"
refuse "handoff uki --sign-key without --sign-cert is a usage error" 2 "sign-key and --sign-cert go together" \
	build/handoff uki --linux "$KERNEL" \
	--sign-key "$W/k.key" -o "$W/h-uki.half.efi"
refuse "handoff uki: a non-bzImage kernel is refused" 1 \
	"^handoff: uki: .*k.crt: boot_flag at 0x1fe is 0x[0-9a-f]+, not 0xaa55: not a bzImage$" \
	build/handoff uki --linux "$W/k.crt" -o "$W/h-bad.efi"
check "handoff uki: no output after an error" test ! -e "$W/h-bad.efi"

finish
