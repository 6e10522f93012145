/* libFuzzer: bzImage header parsing, scheme choice and layout planning, with
 * the plan's invariants checked for every requested scheme, Secure Boot off
 * and on: a chosen scheme's entry point lies inside the kernel the file
 * provides, Secure Boot never lets an image run unverified (plan_trust), with
 * a TPM the kernel is in PCR 4 exactly once (check_pcr4), and no layout range
 * wraps or leaves the address limit. The same for 32-bit
 * firmware (mixed mode), with the .compat entry's layout. */
#include "core/boot_plan.h"
#include "core/trust.h"
#include <stdlib.h>

/* Under shim nothing runs unverified: shim's Verify() first, or a LoadImage
 * (shim's hook or the firmware's) that must pass. */
static void check_shim(const struct trust_plan *p)
{
	if (p->verify != VERIFY_SHIM || !(p->shim_verify_first || (p->load_image && p->load_image_must_pass)))
		abort();
}

/* PCR 4 (issue 21): with a TPM exactly one of LoadImage, shim's Verify() and
 * handoff measures the kernel, never none; without one nobody. LoadImage
 * measures only when it runs and nothing else does; whatever it fails with,
 * no outcome boots the kernel unmeasured (a refusal, or handoff measures);
 * "earlier" only for a preverified kernel without a PE header or after the
 * stub's fallback. */
static void check_pcr4(const struct trust_request *r, const struct trust_plan *p)
{
	static const EFI_STATUS errs[] = { EFI_SECURITY_VIOLATION, EFI_ACCESS_DENIED, EFI_UNSUPPORTED,
					   EFI_OUT_OF_RESOURCES, EFI_LOAD_ERROR };
	int by_load_image = p->pcr4 == PCR4_LOAD_IMAGE, by_shim = p->pcr4 == PCR4_SHIM;
	int by_handoff = p->pcr4 == PCR4_HANDOFF_PE || p->pcr4 == PCR4_HANDOFF_FILE, earlier = p->pcr4 == PCR4_EARLIER;

	if (!r->tpm) {
		if (p->pcr4 != PCR4_NONE)
			abort();
		return;
	}
	if (by_load_image + by_shim + by_handoff + earlier != 1)
		abort();
	if (p->load_image != by_load_image || p->shim_verify_first != by_shim)
		abort();
	if ((p->pcr4 == PCR4_HANDOFF_PE && !r->img->is_pe) || (p->pcr4 == PCR4_HANDOFF_FILE && r->img->is_pe))
		abort();
	if (earlier && !r->pcr4_done && !(r->preverified && !r->img->is_pe))
		abort();
	for (size_t i = 0; by_load_image && i < ARRAY_SIZE(errs); i++) {
		enum load_outcome o = trust_load_outcome(p, errs[i]);

		if ((o == LOAD_FALLBACK && !r->preverified) || (o == LOAD_MEASURE && p->load_image_must_pass))
			abort();
	}
}

/* plan_trust() for every combination of Secure Boot, shim, TPM, preverified and
 * a fallback's PCR 4 done, on @fw: the PCR 4 invariant holds for each. */
static void check_trust_all(const struct image_info *img, enum boot_scheme s, enum fw_arch fw)
{
	for (unsigned bits = 0; bits < 32; bits++) {
		struct trust_request r = { .img = img, .scheme = s, .fw = fw, .secure_boot = bits & 1,
					   .shim = bits & 2, .tpm = bits & 4, .preverified = bits & 8,
					   .pcr4_done = bits & 16 };
		struct trust_plan p;

		if (plan_trust(&r, "fuzz", &p) == EFI_SUCCESS)
			check_pcr4(&r, &p);
	}
}

/* Under Secure Boot every scheme is verified first, and a non-PE image is refused. */
static void check_trust(const struct image_info *img, enum boot_scheme s, bool secure_boot)
{
	struct trust_request r = { .img = img, .scheme = s, .secure_boot = secure_boot, .tpm = true };
	struct trust_plan p;
	EFI_STATUS err = plan_trust(&r, "fuzz", &p);

	if (secure_boot && (err == EFI_SUCCESS) != img->is_pe)
		abort();
	if (secure_boot && err == EFI_SUCCESS &&
	    (p.verify != VERIFY_FIRMWARE || !p.load_image || !p.load_image_must_pass))
		abort();
	r.shim = true;
	err = plan_trust(&r, "fuzz", &p);
	if (secure_boot && err == EFI_SUCCESS)
		check_shim(&p);
	if (!secure_boot)
		check_trust_all(img, s, FW_X64);
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

/* 32-bit firmware: only 64-bit kernels by their 32-bit entries; under
 * Secure Boot without shim only native IA-32 applications (the firmware
 * verifies those only), and what the firmware cannot load is never started
 * from LoadImage's handle. */
static void check_scheme_ia32(const struct image_info *img, enum boot_scheme s, bool secure_boot)
{
	const struct bz_info *bz = &img->bz;
	bool app32 = img->is_pe && pe_is_efi_app(&img->pe, PE_MACHINE_I386);
	struct trust_request r = { .img = img, .scheme = s, .secure_boot = secure_boot, .tpm = true, .fw = FW_IA32 };
	struct trust_plan p;
	EFI_STATUS err = plan_trust(&r, "fuzz", &p);

	if (secure_boot && (err == EFI_SUCCESS) != app32)
		abort();
	if (err == EFI_SUCCESS && !app32 && p.load_image_must_pass)
		abort();
	r.shim = true;
	if (secure_boot && plan_trust(&r, "fuzz", &p) == EFI_SUCCESS)
		check_shim(&p);
	if (!secure_boot)
		check_trust_all(img, s, FW_IA32);
	if (s != SCHEME_STUB && (!img->is_bz || !(bz->xloadflags & XLF_KERNEL_64)))
		abort();
	if (s == SCHEME_STUB && !app32 && (!img->is_bz || !img->pe.compat_entry_ia32 ||
					    img->pe.compat_entry_ia32 >= img->pe.size_of_image))
		abort();
	if (s == SCHEME_HANDOVER && (!(bz->xloadflags & XLF_EFI_HANDOVER_32) || bz->handover_offset >= bz->kernel_size))
		abort();
}

/* pref_address, when kept, holds the whole allocation below max_address,
 * aligned (no wrap: issue 21); 0 means none. */
static void check_pref_address(const struct kernel_layout *l)
{
	if (l->pref_address && (l->pref_address % l->alignment || l->alloc_size > l->max_address ||
				l->pref_address > l->max_address - l->alloc_size))
		abort();
}

static void check_compat_layout(const struct image_info *img, size_t size, const struct kernel_layout *l)
{
	check_pref_address(l);
	if (l->alloc_size < img->pe.size_of_image || l->alloc_size < img->bz.init_size || l->copy_size > size ||
	    !IS_POWER_OF_2(l->alignment) || l->alloc_size % EFI_PAGE_SIZE || img->pe.compat_entry_ia32 >= l->alloc_size)
		abort();
}

static void check_layout(const struct image_info *img, const struct kernel_layout *l)
{
	if (l->copy_size != img->bz.kernel_size || img->bz.kernel + l->copy_size > img->bz.image + img->bz.image_size)
		abort(); /* copies only bytes the file has */
	if (l->zero_size > l->alloc_size || l->copy_size > l->alloc_size - l->zero_size)
		abort(); /* copy and clear fit the allocation */
	if (!IS_POWER_OF_2(l->alignment) || l->alloc_size % EFI_PAGE_SIZE)
		abort();
	check_pref_address(l);
	if (!l->relocatable && (l->pref_address % l->alignment || l->alloc_size > l->max_address ||
				l->pref_address > l->max_address - l->alloc_size))
		abort(); /* a fixed address must hold the whole kernel below the limit */
}

/* The loader plans from the file's head (image_identify_head, plan_boot)
 * before it reads the rest: the plan must be the one the whole file gives. */
static void check_head_plans_as_whole(const uint8_t *data, size_t size, const struct image_info *whole)
{
	struct image_info head;
	struct boot_plan a, b;

	if (image_identify_head(data, MIN(size, (size_t)BZ_HEAD_MAX), size, "fuzz", &head) != EFI_SUCCESS)
		abort();
	for (int scheme = SCHEME_AUTO; scheme <= SCHEME_LEGACY; scheme++) {
		struct boot_request r = { .img = whole, .image_size = size, .requested = scheme, .cmdline_len = 100,
					  .initrd_size = 4096, .tpm = true };
		EFI_STATUS ea = plan_boot(&r, "fuzz", &a), eb;

		r.img = &head;
		eb = plan_boot(&r, "fuzz", &b);
		if (ea != eb || (ea == EFI_SUCCESS && (a.scheme != b.scheme || a.place_kernel != b.place_kernel ||
						      memcmp(&a.kernel, &b.kernel, sizeof(a.kernel)) != 0 ||
						      a.initrd_max != b.initrd_max)))
			abort();
	}
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
	for (int sb = 0; sb < 2; sb++)
		for (size_t i = 0; i < ARRAY_SIZE(requests); i++)
			if (plan_scheme_on(&img, requests[i], FW_IA32, "fuzz", &s) == EFI_SUCCESS)
				check_scheme_ia32(&img, s, sb);
	if (plan_compat_layout(&img, size, "fuzz", &l) == EFI_SUCCESS)
		check_compat_layout(&img, size, &l);
	check_head_plans_as_whole(data, size, &img);
	return 0;
}
