/* Scheme choice and load layout. boot.rst: the 64-bit entry needs
 * XLF_KERNEL_64 (2.12+); the 64-bit handover needs 2.11+ and
 * XLF_EFI_HANDOVER_64, the 32-bit one XLF_EFI_HANDOVER_32; on 32-bit
 * firmware the stub scheme needs the kernel's IA-32 ".compat" entry
 * (CONFIG_EFI_MIXED); the kernel needs init_size bytes at a
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

EFI_STATUS image_identify_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			       struct image_info *ret)
{
	EFI_STATUS err;

	memset(ret, 0, sizeof(*ret));
	if (head_len < MIN(file_size, (uint64_t)BZ_HEAD_MAX))
		return log_error_status(EFI_INVALID_PARAMETER,
					"%s: %zu byte head of a %llu byte file: too short to plan from", name, head_len,
					(unsigned long long)file_size);
	ret->is_bz = bz_has_magic(head, MIN(head_len, file_size));
	if (ret->is_bz) {
		err = bz_parse_head(head, head_len, file_size, name, &ret->bz);
		if (EFI_ERROR(err))
			return err;
	}
	err = pe_parse_head(head, head_len, file_size, name, &ret->pe);
	if (err == EFI_SUCCESS)
		ret->is_pe = true;
	else if (err != EFI_UNSUPPORTED && !ret->is_bz)
		return err;
	ret->is_uki = ret->is_pe && pe_find_section(&ret->pe, ".linux");
	if (!ret->is_bz && !ret->is_pe)
		return log_error_status(EFI_LOAD_ERROR,
					"%s: neither a bzImage (no \"HdrS\" at 0x202) nor a PE/COFF image (no \"MZ\")",
					name);
	return EFI_SUCCESS;
}

EFI_STATUS image_identify(const uint8_t *buf, size_t len, const char *name, struct image_info *ret)
{
	return image_identify_head(buf, len, len, name, ret);
}

/* An entry point @offset bytes into the protected-mode kernel lies in the
 * bytes the file provides (64-bit arithmetic: offsets come from the header). */
static bool entry_inside(const struct bz_info *bz, uint64_t offset)
{
	return offset < bz->kernel_size;
}

static const char *why_not_handover(const struct bz_info *bz, uint16_t xlf_flag, uint32_t entry_extra)
{
	if (bz->version < BOOT_PROTO(2, 11))
		return "boot protocol older than 2.11";
	if (!(bz->xloadflags & xlf_flag))
		return xlf_flag == XLF_EFI_HANDOVER_64 ? "XLF_EFI_HANDOVER_64 not set in xloadflags"
						       : "XLF_EFI_HANDOVER_32 not set in xloadflags";
	if (bz->handover_offset == 0 || !entry_inside(bz, (uint64_t)bz->handover_offset + entry_extra))
		return "handover_offset outside the kernel";
	return NULL;
}

static const char *why_not_x64(const struct image_info *img, enum boot_scheme s)
{
	const struct bz_info *bz = &img->bz;

	switch (s) {
	case SCHEME_STUB:
		return img->is_pe && pe_is_efi_app_x64(&img->pe)
			       ? NULL
			       : "not an x86-64 EFI application (no PE/COFF entry point)";
	case SCHEME_HANDOVER:
		return !img->is_bz ? "not a bzImage"
				   : why_not_handover(bz, XLF_EFI_HANDOVER_64, HANDOVER_ENTRY64_EXTRA);
	case SCHEME_LEGACY:
		if (!img->is_bz)
			return "not a bzImage";
		if (bz->version < BOOT_PROTO(2, 12))
			return "boot protocol older than 2.12";
		if (!(bz->xloadflags & XLF_KERNEL_64))
			return "XLF_KERNEL_64 not set: no 64-bit entry point";
		return entry_inside(bz, KERNEL_ENTRY64_OFFSET) ? NULL
			: "the 64-bit entry (load address + 0x200) is past the end of the kernel";
	default:
		return "not a boot scheme";
	}
}

/* 32-bit firmware: a native IA-32 EFI application (an "efi" entry) starts as
 * it is; a kernel must be 64-bit and is entered by its 32-bit entry points. */
static const char *why_not_ia32(const struct image_info *img, enum boot_scheme s)
{
	const struct bz_info *bz = &img->bz;

	if (s != SCHEME_STUB && s != SCHEME_HANDOVER && s != SCHEME_LEGACY)
		return "not a boot scheme";
	if (img->is_bz && !(bz->xloadflags & XLF_KERNEL_64))
		return "XLF_KERNEL_64 not set: a 32-bit kernel (handoff boots 64-bit kernels only)";
	if (s == SCHEME_STUB) {
		if (img->is_pe && pe_is_efi_app(&img->pe, PE_MACHINE_I386))
			return NULL;
		if (!img->is_pe || !pe_is_efi_app_x64(&img->pe))
			return "not an EFI application (no PE/COFF entry point)";
		if (!img->is_bz)
			return "an x86-64 EFI application: 32-bit firmware starts IA-32 ones only";
		if (!img->pe.compat_entry_ia32)
			return "no IA-32 entry in a \".compat\" section (kernel built without CONFIG_EFI_MIXED?)";
		return img->pe.compat_entry_ia32 < img->pe.size_of_image
			       ? NULL
			       : "the .compat IA-32 entry lies outside SizeOfImage";
	}
	if (s == SCHEME_HANDOVER)
		return !img->is_bz ? "not a bzImage"
				   : why_not_handover(bz, XLF_EFI_HANDOVER_32, HANDOVER_ENTRY32_EXTRA);
	if (!img->is_bz)
		return "not a bzImage";
	return bz->version < BOOT_PROTO(2, 12) ? "boot protocol older than 2.12" : NULL;
}

/* AArch64 firmware (UEFI 2.10 §2.3.6): an arm64 kernel is an EFI
 * application (its Image carries a PE header), started by its own EFI stub;
 * handover and legacy boot are entries into an x86 bzImage. */
static const char *why_not_aa64(const struct image_info *img, enum boot_scheme s)
{
	switch (s) {
	case SCHEME_STUB:
		return img->is_pe && pe_is_efi_app(&img->pe, PE_MACHINE_AA64)
			       ? NULL
			       : "not an AArch64 EFI application (no arm64 PE/COFF entry point)";
	case SCHEME_HANDOVER:
		return "handover is an x86 boot protocol; AArch64 boots by the kernel's EFI stub";
	case SCHEME_LEGACY:
		return "legacy is an x86 boot protocol; AArch64 boots by the kernel's EFI stub";
	default:
		return "not a boot scheme";
	}
}

bool scheme_supported_on(const struct image_info *img, enum boot_scheme s, enum fw_arch fw, const char **ret_why)
{
	const char *why = fw_is(fw, FW_AA64) ? why_not_aa64(img, s)
			  : fw == FW_IA32 ? why_not_ia32(img, s)
					  : why_not_x64(img, s);

	if (ret_why)
		*ret_why = why;
	return why == NULL;
}

bool scheme_supported(const struct image_info *img, enum boot_scheme s, const char **ret_why)
{
	return scheme_supported_on(img, s, FW_X64, ret_why);
}

/* The most telling reason nothing fits on 32-bit firmware: the handover
 * scheme's for a bzImage (it names the missing flag, or says the kernel is
 * 32-bit), else the stub scheme's. */
static const char *no_scheme_ia32(const struct image_info *img)
{
	const char *why = NULL;

	scheme_supported_on(img, img->is_bz ? SCHEME_HANDOVER : SCHEME_STUB, FW_IA32, &why);
	return why ? why : "no usable entry point";
}

EFI_STATUS plan_scheme(const struct image_info *img, enum boot_scheme requested, const char *name,
		       enum boot_scheme *ret)
{
	return plan_scheme_on(img, requested, FW_X64, name, ret);
}

/* The auto order from @first on: stub, handover, legacy. */
static EFI_STATUS pick_scheme(const struct image_info *img, enum boot_scheme requested, enum fw_arch fw, size_t first,
			      const char *name, enum boot_scheme *ret)
{
	static const enum boot_scheme order[] = { SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };
	const char *why;

	if (requested != SCHEME_AUTO) {
		if (!scheme_supported_on(img, requested, fw, &why))
			return log_error_status(EFI_UNSUPPORTED, "%s: cannot boot by %s: %s", name,
						scheme_name(requested), why);
		*ret = requested;
		return EFI_SUCCESS;
	}
	for (size_t i = first; i < ARRAY_SIZE(order); i++)
		if (scheme_supported_on(img, order[i], fw, NULL)) {
			*ret = order[i];
			return EFI_SUCCESS;
		}
	if (fw == FW_IA32)
		return log_error_status(EFI_UNSUPPORTED, "%s: no boot scheme fits on 32-bit firmware: %s", name,
					no_scheme_ia32(img));
	if (fw_is(fw, FW_AA64))
		return log_error_status(EFI_UNSUPPORTED, "%s: cannot boot by stub: %s", name,
					why_not_aa64(img, SCHEME_STUB));
	return log_error_status(EFI_UNSUPPORTED, "%s: no boot scheme fits: %s", name,
				first ? "no handover or 64-bit entry"
				      : "neither an EFI application nor a 64-bit bzImage");
}

EFI_STATUS plan_scheme_on(const struct image_info *img, enum boot_scheme requested, enum fw_arch fw, const char *name,
			  enum boot_scheme *ret)
{
	return pick_scheme(img, requested, fw, 0, name, ret);
}

EFI_STATUS plan_scheme_no_stub(const struct image_info *img, enum fw_arch fw, const char *name, enum boot_scheme *ret)
{
	return pick_scheme(img, SCHEME_AUTO, fw, 1, name, ret);
}

/* Bytes past the protected-mode start that the PE headers say the image occupies. */
static uint64_t pe_footprint_after_setup(const struct image_info *img)
{
	if (!img->is_pe || img->pe.size_of_image <= img->bz.setup_size)
		return 0;
	return img->pe.size_of_image - img->bz.setup_size;
}

/* pref_address is tried first only when the whole allocation fits there below
 * max_address (no wrap: 64-bit checks), aligned; a relocatable kernel goes
 * elsewhere otherwise (0: none), one that is not is refused. On 32-bit
 * firmware the kernel addresses its image through 32 bits, so this is what
 * keeps it below 4 GiB whatever memory the firmware would hand out there. */
static EFI_STATUS plan_pref_address(struct kernel_layout *l, const char *name, struct kernel_layout *ret)
{
	if (l->pref_address % l->alignment || l->alloc_size > l->max_address ||
	    l->pref_address > l->max_address - l->alloc_size) {
		if (!l->relocatable)
			return log_error_status(EFI_LOAD_ERROR,
						"%s: not relocatable and pref_address %#llx is unusable", name,
						(unsigned long long)l->pref_address);
		l->pref_address = 0;
	}
	*ret = *l;
	return EFI_SUCCESS;
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
	return plan_pref_address(&l, name, ret);
}

EFI_STATUS plan_compat_layout(const struct image_info *img, size_t len, const char *name, struct kernel_layout *ret)
{
	const struct pe_info *pe = &img->pe;
	struct kernel_layout l = {
		.copy_size = pe->size_of_headers,
		.alignment = MAX(MAX((uint64_t)img->bz.kernel_alignment, (uint64_t)pe->section_alignment),
				 (uint64_t)EFI_PAGE_SIZE),
		.pref_address = img->bz.pref_address,
		.max_address = FOUR_GIB,
		.relocatable = img->bz.relocatable,
	};

	if (!img->is_bz || !img->is_pe)
		return log_error_status(EFI_LOAD_ERROR,
					"%s: the IA-32 entry needs a Linux bzImage with PE/COFF headers", name);
	if (!IS_POWER_OF_2(l.alignment) || l.copy_size > len || l.copy_size > pe->size_of_image)
		return log_error_status(EFI_LOAD_ERROR, "%s: kernel_alignment %#llx or SizeOfHeaders %#x unusable",
					name, (unsigned long long)l.alignment, pe->size_of_headers);
	if (pe->compat_entry_ia32 >= pe->size_of_image)
		return log_error_status(EFI_LOAD_ERROR, "%s: .compat entry %#x outside SizeOfImage %#x", name,
					pe->compat_entry_ia32, pe->size_of_image);
	l.alloc_size = ALIGN_UP(MAX((uint64_t)pe->size_of_image, (uint64_t)img->bz.init_size), (uint64_t)EFI_PAGE_SIZE);
	return plan_pref_address(&l, name, ret);
}

uint64_t plan_initrd_max(const struct bz_info *bz, enum fw_arch fw)
{
	/* 32-bit firmware: the kernel's 32-bit entries see 4 GiB at most */
	if (bz->xloadflags & XLF_CAN_BE_LOADED_ABOVE_4G)
		return fw == FW_IA32 ? FOUR_GIB : UINT64_MAX;
	/* initrd_addr_max is the highest address the last byte may occupy. */
	return (uint64_t)bz->initrd_addr_max + 1;
}

EFI_STATUS plan_check_cmdline(const struct bz_info *bz, size_t len, const char *name)
{
	if (len > bz->cmdline_size)
		return log_error_status(EFI_INVALID_PARAMETER,
					"%s: command line is %zu bytes, the kernel takes at most %u (cmdline_size)",
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
