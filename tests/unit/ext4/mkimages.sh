#!/usr/bin/env bash
# Builds the ext2/3/4 test images for tests/unit/test_ext4.c with mke2fs -d
# (no root, no loop devices): a source tree, one image per file system shape
# (images.list: name, size, mke2fs options, tree), and small images plus
# debugfs facts for the corruption tests. Usage: mkimages.sh OUTDIR.
# Re-running is a no-op while this script is unchanged (OUTDIR/stamp).
set -eu
out=${1:-build/ext4-test}
here=$(cd "$(dirname "$0")" && pwd)
stamp=$(sha256sum "$here/mkimages.sh" | cut -c1-16)
[[ -f $out/stamp && $(cat "$out/stamp") == "$stamp" ]] && exit 0
rm -rf "$out"
mkdir -p "$out"
export PATH=$PATH:/usr/sbin:/sbin

rnd() { head -c "$2" /dev/urandom > "$1"; }
# pieces FILE N LEN TAIL: N times LEN random bytes then a LEN-byte hole's
# zeros, then TAIL random bytes: a fragmented file, written by one process
# (a head per piece was 3,000 processes, a minute and more on a busy machine).
pieces() {
	python3 -c 'import os, sys
n, size, tail = map(int, sys.argv[2:])
with open(sys.argv[1], "wb") as f:
    for _ in range(n):
        f.write(os.urandom(size) + bytes(size))
    f.write(os.urandom(tail))' "$@"
}
# write_at FILE OFFSET LEN: LEN random bytes at OFFSET, keeping the rest.
write_at() { head -c "$3" /dev/urandom | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

# The "small" tree: every kind of file and link, a few hundred KiB.
make_small() {
	local s=$1 i d to from
	mkdir -p "$s"
	: > "$s/empty"
	rnd "$s/tiny" 10            # inline in i_block with inline_data
	rnd "$s/small100" 100       # inline, spills into the system.data xattr
	rnd "$s/one1k" 1024
	rnd "$s/one4k" 4096
	rnd "$s/odd5000" 5000
	rnd "$s/medium" $((300 * 1024 + 7))
	truncate -s $((10 * 1024 * 1024)) "$s/sparse"
	write_at "$s/sparse" 0 4096
	write_at "$s/sparse" $((1024 * 1024 + 17)) 3000
	write_at "$s/sparse" $((5 * 1024 * 1024)) 8192
	write_at "$s/sparse" $((10 * 1024 * 1024 - 100)) 100
	truncate -s 100000 "$s/allhole"
	# Deep tree: d01/d02/.../d30/file
	d=$s
	for i in $(seq -w 1 30); do d=$d/d$i; done
	mkdir -p "$d"
	rnd "$d/file" 2000
	ln -s ../../one1k "$s/d01/d02/lnk_up"
	mkdir "$s/emptydir" "$s/inl"
	# 4 entries of 20 bytes, more than i_block's 56: libext2fs then moves
	# an inline_data directory to a block (Linux would use system.data)
	for i in 1 2 3 4; do rnd "$s/inl/entry-0$i" 7; done
	rnd "$s/$(printf 'n%.0s' $(seq 255))" 33   # a 255-byte name
	rnd "$s/name with spaces" 5
	ln -s one1k "$s/lnk_fast"
	slow=d01/d02/d03/d04/d05/d06/d07/d08/d09/d10/d11/d12/d13/d14/d15
	ln -s "$slow/d16/d17/d18/d19/d20/d21/d22/d23/d24/d25/d26/d27/d28/d29/d30/file" "$s/lnk_slow"
	ln -s /medium "$s/lnk_abs"
	ln -s d01/d02 "$s/lnk_dir"
	ln -s nonexistent "$s/lnk_dangling"
	ln -s loop_b "$s/loop_a"
	ln -s loop_a "$s/loop_b"
	ln -s loop_self "$s/loop_self"
	# chain: c00 -> c01 -> ... -> c45 -> one1k; from c00 that is 46 links
	# (over Linux's and our limit of 40), from c10 36.
	for i in $(seq 0 44); do printf -v to c%02d $((i + 1)); printf -v from c%02d "$i"; ln -s "$to" "$s/$from"; done
	ln -s one1k "$s/c45"
}

# The "full" tree adds what needs space: big and fragmented files, a 5 GiB
# sparse file, and a directory of 3000 entries (hashed).
make_full() {
	local s=$1 i
	make_small "$s"
	rnd "$s/big" $((8 * 1024 * 1024 + 5))
	# 1500 4 KiB pieces with 4 KiB holes between: 1500 extents, an extent
	# tree of depth 2 with 1 KiB blocks.
	# (ends in data: mke2fs 1.47.0 with inline_data drops a trailing hole
	# from i_size)
	pieces "$s/frag" 1500 4096 4096
	truncate -s $((5 * 1024 * 1024 * 1024)) "$s/huge"
	write_at "$s/huge" 0 4096
	write_at "$s/huge" $((1024 * 1024 * 1024 + 123)) 5000
	write_at "$s/huge" $((3 * 1024 * 1024 * 1024)) 70000
	write_at "$s/huge" $((5 * 1024 * 1024 * 1024 - 10)) 10
	mkdir "$s/many"
	for i in $(seq -w 0 2999); do printf '%s\n' "$i" > "$s/many/file-with-a-longer-name-$i"; done
}

make_small "$out/small"
make_full "$out/full"

# name size tree mke2fs-options
cat > "$out/images.list" <<'LIST'
ext4-4k 64M full -t ext4 -b 4096 -L handoff-test
ext4-1k 64M full -t ext4 -b 1024
ext4-no64 64M full -t ext4 -O ^64bit
ext4-nocsum 64M full -t ext4 -O ^metadata_csum
ext4-inline 64M full -t ext4 -O inline_data
ext4-i128 64M full -t ext4 -I 128
ext4-metabg 64M full -t ext4 -b 1024 -g 1024 -O meta_bg,^resize_inode
ext4-sparse2 64M full -t ext4 -O sparse_super2
ext4-seed 64M full -t ext4 -b 1024 -O metadata_csum_seed
ext4-64k 64M small -t ext4 -b 65536 -O ^has_journal
ext4-noextent 64M full -t ext4 -O ^extent,^64bit
ext4-bigalloc 64M small -t ext4 -O bigalloc -C 16384
ext4-bigalloc-1k 64M small -t ext4 -b 1024 -C 4096 -O bigalloc,meta_bg,^resize_inode
ext3-4k 64M full -t ext3 -b 4096
ext2-1k 64M full -t ext2 -b 1024
ext2-rev0 16M small -t ext2 -r 0
LIST
while read -r name size tree opts; do
	# shellcheck disable=SC2086
	mke2fs -q -F $opts -d "$out/$tree" "$out/$name.img" "$size" > "$out/$name.log" 2>&1 || {
		echo "mke2fs $name failed:"; cat "$out/$name.log"; exit 1; }
	# mke2fs -d writes linear directories; e2fsck -D indexes those big
	# enough (hashed/htree directories). Exit 1 means "changed", fine.
	[[ $tree == full ]] && { e2fsck -fyD "$out/$name.img" >> "$out/$name.log" 2>&1 || [[ $? -le 1 ]] || {
		echo "e2fsck -D $name failed:"; cat "$out/$name.log"; exit 1; }; }
done < "$out/images.list"
# facts: how many physically contiguous runs /big has, which is how many
# reads reading it whole may take: from debugfs' map of its data blocks
# ("(L0-L1):P0-P1" or "(L):P", logical order; extent tree and indirect
# blocks, "(ETB0):P" and "(IND):P", are not data), a run ending where the
# next range does not start at the following block. One debugfs call per
# image (a bmap per block was 8,000 calls on the 1 KiB-block images).
big_runs() {
	debugfs -R "stat /big" "$1" 2>/dev/null | sed -n '/^\(BLOCKS\|EXTENTS\):/,/^TOTAL/p' | tr ', ' '\n\n' |
		sed -n 's/^([0-9][0-9-]*)://p' |
		awk -F- '{ s = $1; e = NF > 1 ? $2 : $1; if (NR == 1 || s != prev + 1) r++; prev = e } END { print r }'
}
while read -r name size tree opts; do
	[[ $tree == full ]] || continue
	echo "big_runs=$(big_runs "$out/$name.img")" > "$out/$name.facts"
done < "$out/images.list"
# metadata_csum_seed: a new UUID no longer gives the checksum seed.
tune2fs -U 01234567-89ab-cdef-0123-456789abcdef "$out/ext4-seed.img" > /dev/null

# Corruption bases: small 1 KiB-block images, with and without metadata_csum.
c=$out/ctree
mkdir -p "$c/d"
rnd "$c/f" 3000
for i in 0 1 2 3 4 5; do rnd "$c/d/e$i" 10; done
pieces "$c/frag" 200 1024 0
# inode_at NAME IMG: where /NAME's inode sits, as NAME_inode_block= and NAME_inode_offset= lines.
inode_at() {
	debugfs -R "imap /$1" "$2" 2>/dev/null |
		sed -n "s/.*located at block \([0-9]*\), offset \(0x[0-9a-f]*\).*/$1_inode_block=\1\n$1_inode_offset=\2/p"
}
for base in csum nocsum; do
	opt=; [[ $base == nocsum ]] && opt=-O\ ^metadata_csum
	img=$out/corrupt-$base.img
	# shellcheck disable=SC2086
	mke2fs -q -F -t ext4 -b 1024 $opt -O ^has_journal -d "$c" "$img" 2M > /dev/null
	{
		echo "f_ino=$(debugfs -R 'stat /f' "$img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p')"
		inode_at f "$img"
		inode_at frag "$img"
		echo "frag_index_block=$(debugfs -R 'ex /frag' "$img" 2>/dev/null | awk '$1 == "0/" { print $8; exit }')"
		echo "d_block=$(debugfs -R 'bmap /d 0' "$img" 2>/dev/null)"
		echo "f_block=$(debugfs -R 'bmap /f 0' "$img" 2>/dev/null)"
	} > "$out/corrupt-$base.facts"
done
echo "$stamp" > "$out/stamp"
