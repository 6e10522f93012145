/* libFuzzer: gpt_read() on a disk image (the input, cut to whole sectors).
 * On success every partition it reports lies on the disk, first <= last.
 * Also gpt_read_entry() on the input after 8 bytes that give the disk's
 * size and the entry wanted. */
#include "core/gpt.h"
#include <stdlib.h>

#define MAX_PARTS 128

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct gpt_part parts[MAX_PARTS];
	struct gpt_disk d = { .parts = parts };
	size_t len = size - size % GPT_SECTOR_SIZE;

	EFI_GUID type, uuid;

	/* the head of a disk as handoff install reads it, against any disk size */
	if (size >= 8)
		(void)gpt_read_entry(data + 8, size - 8, get_le64(data) >> 40, data[0] % 130, "fuzz", &type, &uuid);
	if (gpt_read(data, len, "fuzz", &d, MAX_PARTS) != EFI_SUCCESS)
		return 0;
	if (d.n_sectors != len / GPT_SECTOR_SIZE || d.n_parts > MAX_PARTS)
		abort();
	for (size_t i = 0; i < d.n_parts; i++)
		if (parts[i].first_lba > parts[i].last_lba || parts[i].last_lba >= d.n_sectors)
			abort();
	return 0;
}
