/* Boot planning: which scheme can start an image (docs/design.md "The
 * plan") and where its parts must go. Pure: src/efi only carries it out. */
#ifndef CORE_PLAN_H
#define CORE_PLAN_H

#include "bzimage.h"
#include "fwarch.h"
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
	/* not relocatable, legacy scheme: when pref_address is in use, loaded
	 * anywhere and moved there after ExitBootServices (src/core/relocate.h);
	 * else (handover: the kernel's EFI code moves itself) at the lowest
	 * free aligned address from pref_address up */
	bool move_after_exit;
};

const char *scheme_name(enum boot_scheme s);
/** scheme_from_string() - "auto", "stub", "handover" or "legacy". */
bool scheme_from_string(const char *s, enum boot_scheme *ret);

/**
 * image_identify() - parse @buf as bzImage and/or PE. At least one must match.
 * Return: EFI_SUCCESS or EFI_LOAD_ERROR (reason logged, naming @name).
 */
EFI_STATUS image_identify(const uint8_t *buf, size_t len, const char *name, struct image_info *ret);

/**
 * image_identify_head() - image_identify() of a file of @file_size bytes from
 * its first @head_len bytes (at least min(@file_size, BZ_HEAD_MAX)): enough to
 * plan a boot (plan_boot()) before the file is read. Section contents past
 * the head (a late .compat) are not seen.
 */
EFI_STATUS image_identify_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			       struct image_info *ret);

/**
 * scheme_supported_on() - can @s start this image from firmware of word size
 * @fw? If not, @ret_why says why, naming the missing flag or entry point.
 * On 32-bit firmware only 64-bit kernels are booted (XLF_KERNEL_64): the
 * stub scheme by the ".compat" IA-32 entry, handover by the 32-bit handover
 * entry (XLF_EFI_HANDOVER_32), legacy by the 32-bit boot protocol.
 */
bool scheme_supported_on(const struct image_info *img, enum boot_scheme s, enum fw_arch fw, const char **ret_why);

/** scheme_supported() - scheme_supported_on() x86-64 firmware. */
bool scheme_supported(const struct image_info *img, enum boot_scheme s, const char **ret_why);

/**
 * plan_scheme() - resolve @requested (SCHEME_AUTO picks stub, then handover,
 * then legacy). Secure Boot does not narrow the choice: every scheme boots
 * only what plan_trust() had verified (src/core/trust.h).
 * Return: EFI_SUCCESS, or EFI_UNSUPPORTED with the reason logged.
 */
EFI_STATUS plan_scheme(const struct image_info *img, enum boot_scheme requested, const char *name,
		       enum boot_scheme *ret);

/** plan_scheme_on() - plan_scheme() for firmware of word size @fw. */
EFI_STATUS plan_scheme_on(const struct image_info *img, enum boot_scheme requested, enum fw_arch fw, const char *name,
			  enum boot_scheme *ret);

/**
 * plan_scheme_no_stub() - the auto choice without the stub scheme: for a
 * kernel whose PE entry is handoff's own stub (`handoff wrap`), or whose
 * stub the firmware would not load on its own.
 */
EFI_STATUS plan_scheme_no_stub(const struct image_info *img, enum fw_arch fw, const char *name, enum boot_scheme *ret);

/**
 * plan_kernel_layout() - size, alignment and address limits for handover/legacy.
 * The whole allocation lies below max_address (4 GiB), at pref_address only
 * when it fits there (else pref_address is 0 and a relocatable kernel goes
 * anywhere below the limit).
 */
EFI_STATUS plan_kernel_layout(const struct image_info *img, const char *name, struct kernel_layout *ret);

/**
 * plan_compat_layout() - where a 64-bit kernel goes to be entered by its
 * IA-32 ".compat" entry (stub scheme on 32-bit firmware): the PE image as
 * its headers lay it out (@len: the file's size), at a kernel_alignment-aligned
 * address, pref_address first, with room for max(SizeOfImage, init_size).
 * Linux before 6.2 runs startup_32 from there before its EFI code moves the
 * kernel, and startup_32 builds page tables at ALIGN(image base,
 * kernel_alignment) + init_size - _end (pref_address when that is lower), so
 * that memory must be the image's. .copy_size is SizeOfHeaders. The loader
 * then applies the image's base relocations (pe_relocate()), as LoadImage
 * would.
 * Return: EFI_SUCCESS, or EFI_LOAD_ERROR (no bzImage, entry or headers outside).
 */
EFI_STATUS plan_compat_layout(const struct image_info *img, size_t len, const char *name, struct kernel_layout *ret);

/**
 * plan_initrd_max() - highest address (exclusive) the initrd may end at: the
 * header's limit, and 4 GiB on 32-bit firmware @fw.
 */
uint64_t plan_initrd_max(const struct bz_info *bz, enum fw_arch fw);

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
