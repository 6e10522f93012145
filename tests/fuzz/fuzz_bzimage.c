/* libFuzzer: bzImage header parsing, scheme choice and layout planning, with
 * the plan's invariants checked for every requested scheme, Secure Boot off
 * and on: a chosen scheme's entry point lies inside the kernel the file
 * provides, Secure Boot never yields an unverified scheme, and no layout
 * range wraps or leaves the address limit. */
#include "core/plan.h"
#include <stdlib.h>

static void check_scheme(const struct image_info *img, enum boot_scheme s, bool secure_boot)
{
	const struct bz_info *bz = &img->bz;

	if (secure_boot && s != SCHEME_STUB)
		abort();
	switch (s) {
	case SCHEME_STUB:
		if (!img->is_pe)
			abort();
		break;
	case SCHEME_HANDOVER:
		if (!img->is_bz || (uint64_t)bz->handover_offset + HANDOVER_ENTRY64_EXTRA >= bz->kernel_size)
			abort();
		break;
	case SCHEME_LEGACY:
		if (!img->is_bz || KERNEL_ENTRY64_OFFSET >= bz->kernel_size)
			abort();
		break;
	default:
		abort();
	}
}

static void check_layout(const struct image_info *img, const struct kernel_layout *l)
{
	if (l->copy_size != img->bz.kernel_size || img->bz.kernel + l->copy_size > img->bz.image + img->bz.image_size)
		abort(); /* copies only bytes the file has */
	if (l->zero_size > l->alloc_size || l->copy_size > l->alloc_size - l->zero_size)
		abort(); /* copy and clear fit the allocation */
	if (!IS_POWER_OF_2(l->alignment) || l->alloc_size % EFI_PAGE_SIZE)
		abort();
	if (!l->relocatable && (l->pref_address % l->alignment || l->alloc_size > l->max_address ||
				l->pref_address > l->max_address - l->alloc_size))
		abort(); /* a fixed address must hold the whole kernel below the limit */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const enum boot_scheme requests[] = { SCHEME_AUTO, SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };
	struct image_info img;
	struct kernel_layout l;
	enum boot_scheme s;

	if (image_identify(data, size, "fuzz", &img) != EFI_SUCCESS)
		return 0;
	for (int sb = 0; sb < 2; sb++)
		for (size_t i = 0; i < ARRAY_SIZE(requests); i++)
			if (plan_scheme(&img, requests[i], sb, "fuzz", &s) == EFI_SUCCESS)
				check_scheme(&img, s, sb);
	if (img.is_bz && plan_kernel_layout(&img, "fuzz", &l) == EFI_SUCCESS)
		check_layout(&img, &l);
	return 0;
}
