/* libFuzzer: os-release parser, and uname/default generation from the same
 * bytes taken as a kernel version string (the default must parse cleanly). */
#include "core/osrel.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct osrel o;
	char *kver, *text;

	osrel_parse((const char *)data, size, "fuzz", &o);
	osrel_free(&o);
	kver = mem_alloc(size + 1);
	if (!kver)
		return 0;
	memcpy(kver, data, size);
	kver[size] = '\0';
	text = osrel_default(kver);
	if (text) {
		if (osrel_parse(text, strlen(text), "default", &o) != EFI_SUCCESS || o.n_bad_lines != 0 ||
		    !o.pretty_name)
			abort();
		osrel_free(&o);
		mem_free(text);
	}
	mem_free(kver);
	return 0;
}
