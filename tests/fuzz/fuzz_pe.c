/* libFuzzer: PE/COFF reader. */
#include "core/pe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pe_info pe;

	if (pe_parse(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		pe_find_section(&pe, ".linux");
		pe_is_efi_app_x64(&pe);
	}
	return 0;
}
