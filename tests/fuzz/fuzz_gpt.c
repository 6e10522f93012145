/* libFuzzer: gpt_read() on a disk image (the input, cut to whole sectors).
 * On success every partition it reports lies on the disk, first <= last. */
#include "core/gpt.h"
#include <stdlib.h>

#define MAX_PARTS 128

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gpt_part parts[MAX_PARTS];
	struct gpt_disk d = { .parts = parts };
	size_t len = size - size % GPT_SECTOR_SIZE;

	if (gpt_read(data, len, "fuzz", &d, MAX_PARTS) != EFI_SUCCESS)
		return 0;
	if (d.n_sectors != len / GPT_SECTOR_SIZE || d.n_parts > MAX_PARTS)
		abort();
	for (size_t i = 0; i < d.n_parts; i++)
		if (parts[i].first_lba > parts[i].last_lba || parts[i].last_lba >= d.n_sectors)
			abort();
	return 0;
}
