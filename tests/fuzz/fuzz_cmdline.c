/* libFuzzer: what the stub does with bytes it did not choose. The input is
 * split at its first byte: LoadOptions (UCS-2 of any size and alignment) and
 * a .cmdline section; the command line chosen (Secure Boot off and on) and
 * the initrd= paths taken from it must be sane: bounded, NUL-terminated,
 * and under Secure Boot never the LoadOptions when there is a section. The
 * loader's reading of a line for U-Boot (cmdline_kernel_flags(),
 * fwquirk_missing_options()) runs on each line too. */
#include "core/cmdline.h"
#include "core/fwquirk.h"
#include "core/array.h"
#include <stdlib.h>

static void check_initrds(const char *line)
{
	char **paths = NULL;
	size_t n = 0;

	if (cmdline_initrd_paths(line, &paths, &n) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++)
		if (!paths[i] || !paths[i][0] || strlen(paths[i]) > strlen(line))
			abort();
	strv_free(paths, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t split;
	const uint8_t *opts, *section;
	size_t opts_size, section_size;

	if (size < 1)
		return 0;
	split = MIN((size_t)data[0], size - 1);
	opts = data + 1;
	opts_size = split;
	section = data + 1 + split;
	section_size = size - 1 - split;
	for (int sb = 0; sb < 2; sb++) {
		bool has_section = sb ? section_size > 0 : (data[0] & 1);
		char *line = cmdline_for_stub(opts, opts_size, has_section ? section : NULL, section_size, sb);
		char *from_section = has_section ? cmdline_from_section(section, section_size) : NULL;

		if (!line)
			abort();
		/* at most 3 UTF-8 bytes per UCS-2 unit, or the section's own bytes */
		if (strlen(line) > MAX(opts_size / 2 * 3, section_size))
			abort();
		if (sb && has_section && strcmp(line, from_section) != 0)
			abort(); /* Secure Boot: the signed .cmdline, whatever the options say */
		if (has_section && !cmdline_stub_takes_load_options(opts, opts_size, true, sb) &&
		    strcmp(line, from_section) != 0)
			abort(); /* options not taken (so not measured into PCR 12): the section's line */
		check_initrds(line);
		if ((cmdline_kernel_flags(line) & ~(unsigned)(CMDLINE_DISABLE_MTRR_TRIM | CMDLINE_EFI_NORUNTIME)) ||
		    (fwquirk_missing_options(FW_X64, u"Das U-Boot", line) & cmdline_kernel_flags(line)))
			abort(); /* only its flags, and what the line has is never said to be missing */
		mem_free(from_section);
		mem_free(line);
	}
	return 0;
}
