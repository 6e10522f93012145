/* libFuzzer: PE/COFF reader (PE32+ and PE32), on the input as a file and as
 * a loaded image (then relocated, on a copy; every section of a loaded image
 * that parses must be readable); ".compat" records. */
#include "core/pe.h"
#include <stdlib.h>

static void use_sections(const struct pe_info *pe, const uint8_t *data, size_t size, enum pe_layout layout)
{
	size_t n;

	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *p = pe_section_data(&pe->sections[i], data, size, layout, &n);
		if (!p && layout == PE_LAYOUT_MEMORY)
			abort(); /* pe_parse_loaded() checked every section against the loaded image */
		if (p && n)
			(void)*(volatile const uint8_t *)(p + n - 1); /* must be readable */
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pe_info pe;

	if (pe_parse(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		pe_find_section(&pe, ".linux");
		pe_is_efi_app_x64(&pe);
		pe_is_efi_app(&pe, PE_MACHINE_I386);
		use_sections(&pe, data, size, PE_LAYOUT_FILE);
	}
	pe_compat_entry(data, size, PE_MACHINE_I386);
	if (pe_parse_loaded(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		static uint8_t copy[1 << 20];

		use_sections(&pe, data, size, PE_LAYOUT_MEMORY);
		if (size <= sizeof(copy)) {
			memcpy(copy, data, size);
			pe_relocate(copy, size, &pe, 0x1234000, "fuzz");
		}
	}
	return 0;
}
