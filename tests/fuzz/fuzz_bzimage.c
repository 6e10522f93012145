/* libFuzzer: bzImage header parsing, scheme choice and layout planning, with
 * the plan's invariants checked for every requested scheme, Secure Boot off
 * and on: a chosen scheme's entry point lies inside the kernel the file
 * provides, Secure Boot never lets an image run unverified (plan_trust), and
 * no layout range wraps or leaves the address limit. */
#include "core/plan.h"
#include "core/trust.h"
#include <stdlib.h>

/* Under Secure Boot every scheme is verified first, and a non-PE image is refused. */
static void check_trust(const struct image_info *img, enum boot_scheme s, bool secure_boot)
{
	struct trust_request r = { .img = img, .scheme = s, .secure_boot = secure_boot, .tpm = true };
	struct trust_plan p;
	EFI_STATUS err = plan_trust(&r, "fuzz", &p);

	if (secure_boot && (err == EFI_SUCCESS) != img->is_pe)
		abort();
	if (secure_boot && err == EFI_SUCCESS && (p.verify != VERIFY_FIRMWARE || !p.load_image || !p.load_image_must_pass))
		abort();
}

static void check_scheme(const struct image_info *img, enum boot_scheme s, bool secure_boot)
{
	const struct bz_info *bz = &img->bz;

	check_trust(img, s, secure_boot);
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
			if (plan_scheme(&img, requests[i], "fuzz", &s) == EFI_SUCCESS)
				check_scheme(&img, s, sb);
	if (img.is_bz && plan_kernel_layout(&img, "fuzz", &l) == EFI_SUCCESS)
		check_layout(&img, &l);
	return 0;
}
