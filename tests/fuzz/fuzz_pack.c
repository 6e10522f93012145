/* libFuzzer: the unpacker's reading of a payload (src/core/pack.c) for both
 * machines: pack_image_size() bounds the size before anything is allocated,
 * and pack_unpack() (the stream, the header's entry point and sections,
 * the base relocations) stays inside the payload and the image whatever the
 * bytes say (ASan), and accepts only an image of exactly that size whose
 * entry point and sections lie inside it. */
#include "core/pack.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint16_t machines[] = { PE_MACHINE_X64, PE_MACHINE_I386 };

	for (size_t i = 0; i < ARRAY_SIZE(machines); i++) {
		struct pe_info pe;
		uint32_t image_size;
		uint8_t *image;

		if (EFI_ERROR(pack_image_size(data, size, machines[i], &image_size)))
			continue;
		if (image_size == 0 || image_size > PACK_IMAGE_MAX)
			abort();
		image = malloc(image_size);
		if (!EFI_ERROR(pack_unpack(data, size, machines[i], image, image_size, 0x40000000, &pe))) {
			if (pe.machine != machines[i] || pe.size_of_image != image_size || pe.entry_point >= image_size)
				abort();
			for (uint32_t s = 0; s < pe.n_sections; s++)
				if (pe.sections[s].virtual_address + (uint64_t)pe.sections[s].virtual_size > image_size)
					abort();
		}
		free(image);
	}
	return 0;
}
