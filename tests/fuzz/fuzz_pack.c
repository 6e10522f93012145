/* libFuzzer: the unpacker's reading of a payload (src/core/pack.c) for each
 * machine: pack_image_size() bounds the size before anything is allocated
 * and checks the CRC-32, and pack_unpack() (the stream, the header's entry
 * point and sections, the base relocations) stays inside the payload and the
 * image whatever the bytes say (ASan), and accepts only an image of exactly
 * that size whose entry point and sections lie inside it. Each input runs
 * as it is (mostly refused by the CRC) and with its CRC made right, so that
 * mutations reach what lies behind it. */
#include "core/crc32.h"
#include "core/pack.h"
#include <stdlib.h>
#include <string.h>

static void unpack(const uint8_t *data, size_t size, uint16_t machine)
{
	struct pe_info pe;
	uint32_t image_size;
	uint8_t *image;

	if (EFI_ERROR(pack_image_size(data, size, machine, &image_size)))
		return;
	if (image_size == 0 || image_size > PACK_IMAGE_MAX)
		abort();
	image = malloc(image_size);
	if (!EFI_ERROR(pack_unpack(data, machine, image, image_size, 0x40000000, &pe))) {
		if (pe.size_of_image != image_size || pe.entry_point >= image_size)
			abort();
		for (uint32_t s = 0; s < pe.n_sections; s++)
			if (pe.sections[s].virtual_address + (uint64_t)pe.sections[s].virtual_size > image_size)
				abort();
	}
	free(image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t machines[] = { PE_MACHINE_X64, PE_MACHINE_I386, PE_MACHINE_AA64 };
	uint8_t *fixed = malloc(size ? size : 1);

	memcpy(fixed, data, size);
	if (size >= PACK_HEADER_FIXED) { /* the CRC covers the header and the block, when they fit */
		uint64_t end = PACK_HEADER_FIXED + (uint64_t)get_le16(fixed + 28) * PACK_SECTION_SIZE +
			       get_le32(fixed + 12);
		size_t n = end <= size ? (size_t)end : size;

		put_le32(fixed + PACK_CRC_OFFSET,
			 crc32(crc32(0, fixed, PACK_CRC_OFFSET), fixed + PACK_HEADER_FIXED, n - PACK_HEADER_FIXED));
	}
	for (size_t i = 0; i < ARRAY_SIZE(machines); i++) {
		unpack(data, size, machines[i]);
		unpack(fixed, size, machines[i]);
	}
	free(fixed);
	return 0;
}
