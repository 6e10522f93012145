/* libFuzzer: the initrd concatenation arithmetic (initrd_layout_append) on
 * any sequence of 64-bit sizes: offsets 4-byte aligned and increasing, each
 * file inside the total, the total never past INITRD_MAX_TOTAL, and a refused
 * file leaves the total as it was. */
#include "core/initrd_layout.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint64_t total = 0;

	for (size_t i = 0; i + 8 <= size; i += 8) {
		uint64_t file_size = get_le64(data + i), before = total, off;

		if (initrd_layout_append(&total, file_size, "fuzz", &off) != EFI_SUCCESS) {
			if (total != before)
				abort();
			continue;
		}
		if (off % INITRD_ALIGN || off < before || off - before >= INITRD_ALIGN)
			abort();
		if (total > INITRD_MAX_TOTAL || off > total || total - off != file_size)
			abort();
	}
	return 0;
}
