/* libFuzzer: bzImage header parsing, scheme choice and layout planning, for
 * x86-64 and for 32-bit firmware (the .compat entry's layout). */
#include "core/plan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct image_info img;
	struct kernel_layout l;
	enum boot_scheme s;

	if (image_identify(data, size, "fuzz", &img) != EFI_SUCCESS)
		return 0;
	plan_scheme(&img, SCHEME_AUTO, false, "fuzz", &s);
	plan_scheme_on(&img, SCHEME_AUTO, false, FW_IA32, "fuzz", &s);
	if (img.is_bz)
		plan_kernel_layout(&img, "fuzz", &l);
	if (scheme_supported_on(&img, SCHEME_STUB, FW_IA32, NULL))
		plan_compat_layout(&img, size, "fuzz", &l);
	return 0;
}
