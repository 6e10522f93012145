#!/usr/bin/env bash
# Regenerates the seed images of tests/fuzz/corpus/ext4 (committed; run by
# hand): tiny 1 KiB-block images of each kind the driver reads, 192 KiB each.
set -eu
out=${1:-tests/fuzz/corpus/ext4}
export PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
s=$tmp/src
mkdir -p "$s/boot/loader/entries" "$s/dir"
head -c 3000 /dev/urandom > "$s/boot/vmlinuz"
echo "title x" > "$s/boot/loader/entries/a.conf"
head -c 16000 /dev/urandom > "$s/twenty"           # past the 12 direct blocks
: > "$s/empty"
echo tiny > "$s/tiny"
for i in 0 1 2 3 4 5 6; do head -c 1024 /dev/urandom; head -c 1024 /dev/zero; done > "$s/frag"
for i in $(seq 10 49); do echo "$i" > "$s/dir/a-rather-long-file-name-to-fill-blocks-$i"; done
ln -s boot/vmlinuz "$s/fast"
ln -s boot/loader/entries/../../loader/entries/../../loader/entries/../entries/a.conf "$s/slow"
ln -s /boot "$s/abs"
ln -s loop "$s/loop"
mk() {
	local name=$1; shift
	mke2fs -q -F -b 1024 -N 96 "$@" -d "$s" "$out/$name" 192K > /dev/null
	e2fsck -fyD "$out/$name" > /dev/null 2>&1 || true
}
mk seed-ext4 -t ext4 -O ^has_journal
mk seed-ext4-nocsum -t ext4 -O ^has_journal,^metadata_csum,^64bit
mk seed-ext4-inline -t ext4 -O ^has_journal,inline_data
mk seed-ext2 -t ext2
# Damaged inputs: superblock only, truncated, an extent index pointing at
# itself, a directory entry overrunning its block.
leaf=$(debugfs -R 'ex /frag' "$out/seed-ext4-nocsum" 2>/dev/null | awk '$1 == "0/" { print $8; exit }')
dblk=$(debugfs -R 'bmap /dir 1' "$out/seed-ext4-nocsum" 2>/dev/null)
python3 - "$out" "$leaf" "$dblk" <<'PY'
import struct, sys
out, leaf, dblk = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
base = open(out + '/seed-ext4-nocsum', 'rb').read()
def put(name, m): open(out + '/' + name, 'wb').write(bytes(m))
m = bytearray(base[:4096]); struct.pack_into('<I', m, 1024 + 0x18, 20); put('sb-huge-log-block-size', m)
m = bytearray(base[:4096]); m[1024 + 0x63] |= 0x80; put('sb-unknown-incompat', m)
put('truncated-half', open(out + '/seed-ext4', 'rb').read()[:96 * 1024])
m = bytearray(base); o = leaf * 1024
struct.pack_into('<H', m, o + 6, 1); struct.pack_into('<I', m, o + 16, leaf); struct.pack_into('<H', m, o + 20, 0)
put('extent-self-loop', m)
m = bytearray(base); struct.pack_into('<H', m, dblk * 1024 + 4, 0x2000); put('dirent-overrun', m)
PY
ls -l "$out"
# issue 12: i_size 2^63-1 on three files (with /tiny at 4096) once summed to
# 4 KiB in the loader's initrd arithmetic; the driver now refuses such inodes.
cp "$out/seed-ext4" "$out/isize-int64-max"
debugfs -w -R 'sif /boot/vmlinuz size 0x7fffffffffffffff' "$out/isize-int64-max"
cp "$out/seed-ext4" "$out/isize-three-initrds"
for f in /twenty /frag; do debugfs -w -R "sif $f size 0x7fffffffffffffff" "$out/isize-three-initrds"; done
debugfs -w -R 'sif /tiny size 4096' "$out/isize-three-initrds"
