/* Boot planning: which scheme can start an image (docs/design.md "The
 * plan") and where its parts must go. Pure: src/efi only carries it out. */
#ifndef CORE_PLAN_H
#define CORE_PLAN_H

#include "bzimage.h"
#include "pe.h"

enum boot_scheme { SCHEME_AUTO, SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };

struct image_info {
	bool is_bz, is_pe;
	bool is_uki;                /* a PE with a .linux section (UAPI.5) */
	struct bz_info bz;
	struct pe_info pe;
};

struct kernel_layout {
	uint64_t alloc_size;     /* bytes to reserve at the load address */
	uint64_t copy_size;      /* bytes of the protected-mode kernel in the file */
	uint64_t zero_size;      /* bytes after copy_size to clear (PE footprint past the file) */
	uint64_t alignment;      /* load address alignment */
	uint64_t pref_address;   /* tried first */
	uint64_t max_address;    /* exclusive upper bound for the whole allocation */
	bool relocatable;        /* may go elsewhere than pref_address */
};

const char *scheme_name(enum boot_scheme s);
/** scheme_from_string() - "auto", "stub", "handover" or "legacy". */
bool scheme_from_string(const char *s, enum boot_scheme *ret);

/**
 * image_identify() - parse @buf as bzImage and/or PE. At least one must match.
 * Return: EFI_SUCCESS or EFI_LOAD_ERROR (reason logged, naming @name).
 */
EFI_STATUS image_identify(const uint8_t *buf, size_t len, const char *name, struct image_info *ret);

/** scheme_supported() - can @s start this image? If not, @ret_why says why. */
bool scheme_supported(const struct image_info *img, enum boot_scheme s, const char **ret_why);

/**
 * plan_scheme() - resolve @requested (SCHEME_AUTO picks stub, then handover,
 * then legacy). Secure Boot does not narrow the choice: every scheme boots
 * only what plan_trust() had verified (src/core/trust.h).
 * Return: EFI_SUCCESS, or EFI_UNSUPPORTED with the reason logged.
 */
EFI_STATUS plan_scheme(const struct image_info *img, enum boot_scheme requested, const char *name, enum boot_scheme *ret);

/** plan_kernel_layout() - size, alignment and address limits for handover/legacy. */
EFI_STATUS plan_kernel_layout(const struct image_info *img, const char *name, struct kernel_layout *ret);

/** plan_initrd_max() - highest address (exclusive) the initrd may end at. */
uint64_t plan_initrd_max(const struct bz_info *bz);

/**
 * plan_initrds_allowed() - may a loader offer initrds to this image? Never to
 * a UKI: it brings its own, and under Secure Boot its stub would take an
 * unverified one (issue 12). Return: false with the reason in *@ret_why.
 */
bool plan_initrds_allowed(const struct image_info *img, const char **ret_why);

/**
 * plan_stub_takes_outside_initrds() - may handoff's stub add initrds from
 * outside its image (a loader's LoadFile2, initrd= files)? Not under Secure
 * Boot when the image carries .initrd or .cmdline: it is sealed, and an
 * unverified cpio's /init would win.
 */
bool plan_stub_takes_outside_initrds(bool secure_boot, bool has_initrd_section, bool has_cmdline_section);

/**
 * plan_cmdline_locked() - does this image ignore the command line it is
 * given? A UKI with .cmdline does under Secure Boot (its stub's rule).
 */
bool plan_cmdline_locked(const struct image_info *img, bool secure_boot);

/** plan_check_cmdline() - a command line of @len bytes fits cmdline_size. */
EFI_STATUS plan_check_cmdline(const struct bz_info *bz, size_t len, const char *name);

#endif
