/* libFuzzer: loader.conf parsing. */
#include "core/config.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct loader_config c;

	if (cfg_parse_loader_conf((const char *)data, size, "fuzz", &c) == EFI_SUCCESS)
		cfg_free(&c);
	return 0;
}
