/* libFuzzer: FAT extents (src/core/fat.c) over a volume image. The input is
 * the volume's first bytes; the volume is FUZZ_VOLUME bytes, zeros past the
 * input, so that a small seed can be a FAT16 volume (seeds: mkfs.fat images,
 * made by tests/fuzz/mkseeds.py). Maps a few paths at a few sizes; a mapped
 * file must add up to its size, lie in the volume past the FAT, and read. */
#include "core/fat.h"
#include <stdlib.h>

#define FUZZ_VOLUME (4u << 20)

struct input {
	const uint8_t *data;
	size_t size;
};

static EFI_STATUS fuzz_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	const struct input *in = ctx;
	size_t have;

	if (offset > FUZZ_VOLUME || len > FUZZ_VOLUME - offset)
		abort(); /* fat.c checks every read against the volume's size */
	have = offset < in->size ? MIN(len, in->size - (size_t)offset) : 0;
	memcpy(buf, in->data + offset, have);
	memset((uint8_t *)buf + have, 0, len - have);
	return EFI_SUCCESS;
}

static void map_and_read(struct fat_vol *v, const char *path, uint64_t size)
{
	static uint8_t buf[1 << 16];
	struct fat_extent *ext;
	size_t n;
	uint64_t total = 0;

	if (fat_map(v, path, size, &ext, &n) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++) {
		if (ext[i].offset < v->data_offset || ext[i].offset + ext[i].length > FUZZ_VOLUME)
			abort();
		total += ext[i].length;
	}
	if (total != size)
		abort();
	if (size <= sizeof(buf) && fat_extents_read(v, ext, n, 0, buf, size) != EFI_SUCCESS)
		abort();
	free(ext);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "B", "dir/long-file-name.bin", "DIR\\LONG-F~1.BIN", "/dir/x/y", "a" };
	static const uint64_t sizes[] = { 0, 5, 512, 3000, 70000 };
	struct input in = { data, size };
	struct fat_vol *v;

	if (size > FUZZ_VOLUME)
		return 0;
	v = malloc(sizeof(*v));
	if (v && fat_mount(v, fuzz_read, &in, FUZZ_VOLUME) == EFI_SUCCESS)
		for (size_t p = 0; p < ARRAY_SIZE(paths); p++)
			for (size_t s = 0; s < ARRAY_SIZE(sizes); s++)
				map_and_read(v, paths[p], sizes[s]);
	free(v);
	return 0;
}
