/* libFuzzer: ext2/3/4 driver over whole images (seeds: tiny mke2fs images,
 * tests/unit/ext4/mkseeds.sh). Mounts, walks the tree a few levels deep,
 * opens every entry (following symlinks) and reads parts of each file. The
 * read callback traps any access outside the image, and no file may claim
 * more bytes than a block map can describe. */
#include "core/ext4.h"
#include <stdlib.h>

struct input {
	const uint8_t *data;
	size_t size;
};

static EFI_STATUS fuzz_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	const struct input *in = ctx;

	if (offset > in->size || len > in->size - offset)
		abort(); /* the driver promised never to read past part_size */
	memcpy(buf, in->data + offset, len);
	return EFI_SUCCESS;
}

static uint32_t block_size;

/* No size the driver hands out may be larger than a block map can describe
 * (extents: 2^32 blocks; indirect: 12 + n + n^2 + n^3, n = block_size / 4):
 * callers size buffers and sums from it. */
static void check_size(uint64_t size)
{
	uint64_t n = block_size / 4;
	uint64_t blocks = MAX(1ull << 32, 12 + n + n * n + n * n * n);

	if (size > blocks * block_size)
		abort();
}

static void read_some(struct ext4_file *f)
{
	static uint8_t buf[65536];
	uint64_t size = ext4_file_size(f);
	size_t got;

	check_size(size);

	ext4_read(f, 0, buf, sizeof(buf), &got);
	if (size > sizeof(buf))
		ext4_read(f, size / 2 - 1000, buf, 5000, &got);
	ext4_read(f, size > 100 ? size - 100 : 0, buf, 200, &got);
}

static void walk(struct ext4_fs *fs, struct ext4_file *dir, unsigned depth, unsigned *budget)
{
	struct ext4_dirent de;
	uint64_t cookie = 0;

	while (*budget > 0 && ext4_readdir(dir, &cookie, &de) == EFI_SUCCESS) {
		struct ext4_file *f = NULL;
		struct ext4_stat st;

		(*budget)--;
		if (strcmp(de.name, ".") == 0 || strcmp(de.name, "..") == 0 || de.name[0] == '\0')
			continue;
		if (ext4_open_at(fs, dir, de.name, 0, &f) != EFI_SUCCESS)
			continue;
		ext4_stat(f, &st);
		if (ext4_file_is_dir(f)) {
			if (depth < 4)
				walk(fs, f, depth + 1, budget);
		} else
			read_some(f);
		ext4_close(f);
		if (ext4_open_at(fs, dir, de.name, EXT4_OPEN_NOFOLLOW, &f) == EFI_SUCCESS) {
			if (!ext4_file_is_dir(f))
				read_some(f);
			ext4_close(f);
		}
	}
}

/* Byte 0 lies in the boot block, which ext4 never reads: when it is odd,
 * clear metadata_csum (RO_COMPAT 0x400) so that mutations of checksummed
 * seeds reach the structure checks behind the checksums. */
static uint8_t *without_csum(const uint8_t *data, size_t size)
{
	uint8_t *copy;

	if (size < 2048 || !(data[0] & 1))
		return NULL;
	copy = malloc(size);
	memcpy(copy, data, size);
	copy[1024 + 0x64 + 1] &= (uint8_t)~0x04;
	return copy;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *copy = without_csum(data, size);
	struct input in = { copy ? copy : data, size };
	struct ext4_fs *fs = NULL;
	struct ext4_file *root = NULL, *f = NULL;
	unsigned budget = 200;

	if (ext4_mount(fuzz_read, &in, size, "fuzz", &fs) != EFI_SUCCESS) {
		free(copy);
		return 0;
	}
	struct ext4_volume_info vi;

	ext4_volume_info(fs, &vi);
	block_size = vi.block_size;
	if (ext4_open(fs, "/", &root) == EFI_SUCCESS) {
		walk(fs, root, 0, &budget);
		ext4_close(root);
	}
	if (ext4_open(fs, "/loader/entries/../../boot/vmlinuz", &f) == EFI_SUCCESS) {
		read_some(f);
		ext4_close(f);
	}
	for (uint32_t ino = 1; ino < 20; ino++)
		if (ext4_open_inode(fs, ino, &f) == EFI_SUCCESS) {
			if (!ext4_file_is_dir(f))
				read_some(f);
			ext4_close(f);
		}
	ext4_unmount(fs);
	free(copy);
	return 0;
}
