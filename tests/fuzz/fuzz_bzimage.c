/* libFuzzer: bzImage header parsing, scheme choice and layout planning. */
#include "core/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_info img;
	struct kernel_layout l;
	enum boot_scheme s;

	if (image_identify(data, size, "fuzz", &img) != EFI_SUCCESS)
		return 0;
	plan_scheme(&img, SCHEME_AUTO, "fuzz", &s);
	if (img.is_bz)
		plan_kernel_layout(&img, "fuzz", &l);
	return 0;
}
