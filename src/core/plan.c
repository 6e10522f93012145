/* Scheme choice and load layout. boot.rst: the 64-bit entry needs
 * XLF_KERNEL_64 (2.12+); the 64-bit handover needs 2.11+ and
 * XLF_EFI_HANDOVER_64; the kernel needs init_size bytes at a
 * kernel_alignment-aligned address; newer boot.rst also asks loaders to honour
 * the PE image size, so memory past the file is reserved and cleared. */
#include "plan.h"
#include "log.h"

#define FOUR_GIB 0x100000000ull
#define DEFAULT_KERNEL_ALIGNMENT 0x200000u

const char *scheme_name(enum boot_scheme s)
{
	switch (s) {
	case SCHEME_STUB: return "stub";
	case SCHEME_HANDOVER: return "handover";
	case SCHEME_LEGACY: return "legacy";
	default: return "auto";
	}
}

bool scheme_from_string(const char *s, enum boot_scheme *ret)
{
	static const enum boot_scheme all[] = { SCHEME_AUTO, SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };

	for (size_t i = 0; i < ARRAY_SIZE(all); i++)
		if (strcmp(s, scheme_name(all[i])) == 0) {
			*ret = all[i];
			return true;
		}
	return false;
}

EFI_STATUS image_identify(const uint8_t *buf, size_t len, const char *name, struct image_info *ret)
{
	EFI_STATUS err;

	memset(ret, 0, sizeof(*ret));
	ret->is_bz = len > 0x206 && get_le32(buf + 0x202) == SETUP_HDRS_MAGIC;
	if (ret->is_bz) {
		err = bz_parse(buf, len, name, &ret->bz);
		if (EFI_ERROR(err))
			return err;
	}
	err = pe_parse(buf, len, name, &ret->pe);
	if (err == EFI_SUCCESS)
		ret->is_pe = true;
	else if (err != EFI_UNSUPPORTED && !ret->is_bz)
		return err;
	ret->is_uki = ret->is_pe && pe_find_section(&ret->pe, ".linux");
	if (!ret->is_bz && !ret->is_pe)
		return log_error_status(EFI_LOAD_ERROR, "%s: neither a bzImage (no \"HdrS\" at 0x202) nor a PE/COFF image (no \"MZ\")", name);
	return EFI_SUCCESS;
}

/* An entry point @offset bytes into the protected-mode kernel lies in the
 * bytes the file provides (64-bit arithmetic: offsets come from the header). */
static bool entry_inside(const struct bz_info *bz, uint64_t offset)
{
	return offset < bz->kernel_size;
}

bool scheme_supported(const struct image_info *img, enum boot_scheme s, const char **ret_why)
{
	const struct bz_info *bz = &img->bz;
	const char *why = NULL;

	switch (s) {
	case SCHEME_STUB:
		if (!img->is_pe || !pe_is_efi_app_x64(&img->pe))
			why = "not an x86-64 EFI application (no PE/COFF entry point)";
		break;
	case SCHEME_HANDOVER:
		if (!img->is_bz)
			why = "not a bzImage";
		else if (bz->version < BOOT_PROTO(2, 11))
			why = "boot protocol older than 2.11";
		else if (!(bz->xloadflags & XLF_EFI_HANDOVER_64))
			why = "XLF_EFI_HANDOVER_64 not set in xloadflags";
		else if (bz->handover_offset == 0 || !entry_inside(bz, (uint64_t)bz->handover_offset + HANDOVER_ENTRY64_EXTRA))
			why = "handover_offset outside the kernel";
		break;
	case SCHEME_LEGACY:
		if (!img->is_bz)
			why = "not a bzImage";
		else if (bz->version < BOOT_PROTO(2, 12))
			why = "boot protocol older than 2.12";
		else if (!(bz->xloadflags & XLF_KERNEL_64))
			why = "XLF_KERNEL_64 not set: no 64-bit entry point";
		else if (!entry_inside(bz, KERNEL_ENTRY64_OFFSET))
			why = "the 64-bit entry (load address + 0x200) is past the end of the kernel";
		break;
	default:
		why = "not a boot scheme";
	}
	if (ret_why)
		*ret_why = why;
	return why == NULL;
}

EFI_STATUS plan_scheme(const struct image_info *img, enum boot_scheme requested, const char *name, enum boot_scheme *ret)
{
	static const enum boot_scheme order[] = { SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };
	const char *why;

	if (requested != SCHEME_AUTO) {
		if (!scheme_supported(img, requested, &why))
			return log_error_status(EFI_UNSUPPORTED, "%s: cannot boot by %s: %s", name, scheme_name(requested), why);
		*ret = requested;
		return EFI_SUCCESS;
	}
	for (size_t i = 0; i < ARRAY_SIZE(order); i++)
		if (scheme_supported(img, order[i], NULL)) {
			*ret = order[i];
			return EFI_SUCCESS;
		}
	return log_error_status(EFI_UNSUPPORTED, "%s: no boot scheme fits: neither an EFI application nor a 64-bit bzImage", name);
}

/* Bytes past the protected-mode start that the PE headers say the image occupies. */
static uint64_t pe_footprint_after_setup(const struct image_info *img)
{
	if (!img->is_pe || img->pe.size_of_image <= img->bz.setup_size)
		return 0;
	return img->pe.size_of_image - img->bz.setup_size;
}

EFI_STATUS plan_kernel_layout(const struct image_info *img, const char *name, struct kernel_layout *ret)
{
	const struct bz_info *bz = &img->bz;
	uint64_t footprint = pe_footprint_after_setup(img);
	struct kernel_layout l = {
		.copy_size = bz->kernel_size,
		.alignment = bz->kernel_alignment ? bz->kernel_alignment : DEFAULT_KERNEL_ALIGNMENT,
		.pref_address = bz->pref_address,
		.max_address = FOUR_GIB,
		.relocatable = bz->relocatable,
	};

	if (!img->is_bz)
		return log_error_status(EFI_LOAD_ERROR, "%s: not a bzImage", name);
	/* Zeroed past the file: the PE footprint, and syssize's last paragraph. */
	uint64_t cleared_end = MAX(footprint, bz->syssize_bytes);

	l.alloc_size = MAX(MAX((uint64_t)bz->init_size, l.copy_size), cleared_end);
	l.zero_size = cleared_end > l.copy_size ? cleared_end - l.copy_size : 0;
	l.alloc_size = ALIGN_UP(l.alloc_size, (uint64_t)EFI_PAGE_SIZE);
	if (l.alignment < EFI_PAGE_SIZE)
		l.alignment = EFI_PAGE_SIZE;
	if (!l.relocatable && (l.pref_address % l.alignment || l.alloc_size > l.max_address ||
			       l.pref_address > l.max_address - l.alloc_size))
		return log_error_status(EFI_LOAD_ERROR, "%s: not relocatable and pref_address %#llx is unusable",
					name, (unsigned long long)l.pref_address);
	*ret = l;
	return EFI_SUCCESS;
}

uint64_t plan_initrd_max(const struct bz_info *bz)
{
	if (bz->xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G)
		return UINT64_MAX;
	/* initrd_addr_max is the highest address the last byte may occupy. */
	return (uint64_t)bz->initrd_addr_max + 1;
}

EFI_STATUS plan_check_cmdline(const struct bz_info *bz, size_t len, const char *name)
{
	if (len > bz->cmdline_size)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: command line is %zu bytes, the kernel takes at most %u (cmdline_size)",
					name, len, bz->cmdline_size);
	return EFI_SUCCESS;
}

bool plan_initrds_allowed(const struct image_info *img, const char **ret_why)
{
	*ret_why = img->is_uki ? "a unified kernel image takes no initrd from the loader" : NULL;
	return !img->is_uki;
}

bool plan_stub_takes_outside_initrds(bool secure_boot, bool has_initrd_section, bool has_cmdline_section)
{
	return !secure_boot || (!has_initrd_section && !has_cmdline_section);
}

bool plan_cmdline_locked(const struct image_info *img, bool secure_boot)
{
	return secure_boot && img->is_uki && pe_find_section(&img->pe, ".cmdline");
}
