/* libFuzzer: UKI addons as handoff's stub reads them (addon_parse() on the
 * image read as a file and as a loaded image, with and without a UKI .uname
 * to compare with). Invariant: a line it returns is one the stub may append,
 * i.e. cmdline_check() accepts it, and it has no trailing blank. */
#include "core/addon.h"
#include "core/cmdline.h"
#include <stdlib.h>

static void check(const struct pe_info *pe, const uint8_t *data, size_t size, enum pe_layout layout,
		  const char *uname)
{
	char *line = NULL;
	size_t n;

	if (addon_parse(pe, data, size, layout, uname, "fuzz", &line) != EFI_SUCCESS)
		return;
	n = strlen(line);
	if (cmdline_check(line, n, "fuzz") != EFI_SUCCESS || (n && (line[n - 1] == ' ' || line[n - 1] == '\n')))
		abort();
	mem_free(line);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pe_info pe;

	if (pe_parse(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		check(&pe, data, size, PE_LAYOUT_FILE, NULL);
		check(&pe, data, size, PE_LAYOUT_FILE, "6.1.0-1-amd64");
	}
	if (pe_parse_loaded(data, size, "fuzz", &pe) == EFI_SUCCESS)
		check(&pe, data, size, PE_LAYOUT_MEMORY, "6.1.0-1-amd64");
	return 0;
}
