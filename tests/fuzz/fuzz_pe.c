/* libFuzzer: PE/COFF reader (PE32+ and PE32), on the input as a file and as
 * a loaded image (then relocated, on a copy; every section of a loaded image
 * that parses must be readable); ".compat" records; a file's headers trimmed
 * (mkpack --trim) must parse again with the same sections' bytes. */
#include "core/pe_write.h"
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

static void trim(const struct pe_info *pe, const uint8_t *data, size_t size)
{
	static struct pe_info out_pe;
	uint8_t *out;
	size_t len;

	if (pe_trim_headers(data, size, "fuzz", &out, &len) != EFI_SUCCESS)
		return;
	if (len > size || pe_parse(out, len, "trimmed", &out_pe) != EFI_SUCCESS ||
	    out_pe.n_sections != pe->n_sections || out_pe.size_of_image != pe->size_of_image ||
	    out_pe.entry_point != pe->entry_point)
		abort();
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		size_t a = 0, b = 0;
		const uint8_t *p = pe_section_data(&pe->sections[i], data, size, PE_LAYOUT_FILE, &a);
		const uint8_t *q = pe_section_data(&out_pe.sections[i], out, len, PE_LAYOUT_FILE, &b);

		if (!pe->sections[i].raw_size)
			continue; /* no data: its PointerToRawData means nothing (PE/COFF §3.4) */
		if (!p || !q || a != b || memcmp(p, q, a) != 0)
			abort();
	}
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pe_info pe;

	if (pe_parse(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		pe_find_section(&pe, ".linux");
		pe_is_efi_app_x64(&pe);
		pe_is_efi_app(&pe, PE_MACHINE_I386);
		use_sections(&pe, data, size, PE_LAYOUT_FILE);
		trim(&pe, data, size);
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
