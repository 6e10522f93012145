/* Unified kernel images (UAPI.5 "Unified Kernel Image"): the PE sections a UKI
 * carries, reading them from a file or a loaded image, and building one from
 * a stub, a bzImage and the optional parts. */
#ifndef CORE_UKI_H
#define CORE_UKI_H

#include "bzimage.h"
#include "pe.h"

/* In the specification's canonical (measurement) order. */
enum uki_section {
	UKI_LINUX,
	UKI_OSREL,
	UKI_CMDLINE,
	UKI_INITRD,
	UKI_UCODE,
	UKI_SPLASH,
	UKI_DTB,
	UKI_UNAME,
	UKI_SBAT,
	UKI_PCRSIG,
	UKI_PCRPKEY,
	UKI_PROFILE,
	_UKI_SECTION_MAX,
};

struct uki_blob {
	const uint8_t *data;   /* NULL when absent */
	size_t size;
};

struct uki_sections {
	struct uki_blob s[_UKI_SECTION_MAX];
};

/* handoff's own SBAT metadata (shim's SBAT.md CSV: component, generation,
 * vendor name, package, version, URL), used when the stub carries none. */
#define UKI_SBAT_DEFAULT                                                                   \
	"sbat,1,SBAT Version,sbat,1,https://github.com/rhboot/shim/blob/main/SBAT.md\n"  \
	"handoff,1,handoff,handoff," HANDOFF_SBAT_VERSION ",https://example.invalid/handoff\n"
#ifdef HANDOFF_VERSION
#define HANDOFF_SBAT_VERSION HANDOFF_VERSION
#else
#define HANDOFF_SBAT_VERSION "0.1.0"
#endif

/** uki_section_name() - ".linux" for UKI_LINUX, etc.; NULL when out of range. */
const char *uki_section_name(enum uki_section id);

/* Multi-profile UKIs (UAPI.5 "Multi-Profile UKIs"): the sections before the
 * first .profile are the base; each .profile starts a profile, which runs to
 * the next .profile. Profile N sees its own sections and, for each it lacks,
 * the base's. Profile 0 is the default, also when there is no .profile. */
#define UKI_PROFILE_BASE UINT32_MAX /* uki_parse_profile(): the base alone */
#define UKI_PROFILES_MAX 256u       /* systemd-boot lists at most as many (UNIFIED_PROFILES_MAX) */

/**
 * uki_parse_profile() - the UKI sections of a parsed PE image as profile
 * @profile sees them (UKI_PROFILE_BASE: the base alone), as systemd-stub
 * finds them. @pe: from pe_parse() (file, @layout PE_LAYOUT_FILE) or
 * pe_parse_loaded() (LoadedImage->ImageBase, PE_LAYOUT_MEMORY); @buf, @len:
 * the same bytes. A singleton section twice in the base or in one profile is
 * an error; of several .dtb sections the first is returned.
 * Return: EFI_SUCCESS; EFI_NOT_FOUND when there is no .linux (not a UKI:
 * logged at debug level only); EFI_LOAD_ERROR for a duplicated section;
 * EFI_INVALID_PARAMETER when profile @profile (> 0) is not in the image.
 */
EFI_STATUS uki_parse_profile(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout,
			     const char *name, uint32_t profile, struct uki_sections *ret);

/** uki_parse() - uki_parse_profile() of profile 0, what a UKI boots by default. */
EFI_STATUS uki_parse(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout, const char *name,
		     struct uki_sections *ret);

/** uki_profile_count() - the number of .profile sections of @pe (0: a UKI of one profile, the base). */
uint32_t uki_profile_count(const struct pe_info *pe);

/**
 * uki_profile_find() - the index in @pe->sections of the section @section
 * as profile @profile sees it: the profile's first, else the base's first.
 * Return: the index, or -1 when neither has it.
 */
int uki_profile_find(const struct pe_info *pe, uint32_t profile, const char *section);

/**
 * uki_profile_from_options() - the profile a stub is asked for: LoadOptions
 * (UTF-16LE, @*opts, @*size bytes, unaligned) starting "@N" and then one
 * space or their end (a NUL), as systemd-boot passes it to systemd-stub.
 * Then *@opts and *@size are moved past it, so the rest is the command line.
 * Return: N, or 0 (nothing moved) when the options do not start so or N
 * is not below UKI_PROFILE_BASE.
 */
uint32_t uki_profile_from_options(const uint8_t **opts, size_t *size);

/**
 * uki_measure_sections() - call @measure for what a UKI's stub measures into
 * PCR 11, in measurement order, as systemd-stub does (src/boot/efi/stub.c,
 * UAPI.5 "UKI TPM PCR Measurements"): for each section present and not empty,
 * in the order of enum uki_section, except .pcrsig (it holds signatures of
 * the PCR 11 values, so it cannot be part of them), first the section's name
 * with its NUL, then its contents, each with the name as @desc. handoff's stub
 * measures through this, and `handoff uki`/`inspect --pcrs` predict through
 * it (src/core/pcr.c), so the two cannot disagree.
 * Return: EFI_SUCCESS, or the first failure of @measure (the rest is not measured).
 */
typedef EFI_STATUS (*uki_measure_fn)(void *ctx, const char *desc, const void *data, size_t size);
EFI_STATUS uki_measure_sections(const struct uki_sections *u, uki_measure_fn measure, void *ctx);

/**
 * uki_stub_is_handoff() - is this UKI's stub handoff's own? Its .sbat has a
 * line of the component "handoff" (UKI_SBAT_DEFAULT, src/efi/sbat.c), which
 * `handoff uki` copies from the stub. A loader boots such a UKI's sections
 * itself (src/efi/boot_uki.c); any other stub (systemd-stub) does more than
 * handoff knows of, and is started.
 */
bool uki_stub_is_handoff(const struct uki_sections *u);

/**
 * uki_check_handled() - refuse a UKI (or a stub for one, @pe) with a section
 * that systemd-stub acts on and handoff's stub cannot: .dtbauto and .hwids
 * (a device tree chosen by the machine's hardware IDs) and .efifw (firmware
 * chosen by them), each by name. @at_boot: also say, at info level, which
 * sections the stub knows and leaves alone (.splash: no splash is shown;
 * .dtb on x86: x86 Linux takes no device tree from UEFI; where FW_NATIVE_DT
 * the stub installs it instead), measured into PCR 11 all the same. .profile is not judged here.
 * Return: EFI_SUCCESS, or EFI_UNSUPPORTED (logged).
 */
EFI_STATUS uki_check_handled(const struct pe_info *pe, const char *name, bool at_boot);

/**
 * uki_check_kernel() - can handoff's stub start this bzImage? It needs the
 * 64-bit entry (boot protocol >= 2.12 with XLF_KERNEL_64 in xloadflags), which
 * both the legacy 64-bit path and the 64-bit handover entry require.
 * Return: EFI_SUCCESS or EFI_UNSUPPORTED, with the reason logged.
 */
EFI_STATUS uki_check_kernel(const struct bz_info *bz, const char *name);

/* One profile of a multi-profile UKI, appended after the base by uki_build(). */
struct uki_profile_input {
	const char *profile;         /* .profile: ID=, TITLE= in os-release syntax */
	const char *cmdline;         /* NULL or empty: the base's .cmdline */
	const char *pcrsig;          /* NULL, or the signed PCR policies of this profile */
};

struct uki_input {
	const uint8_t *stub;         /* PE32+ x86-64 or AArch64 EFI application */
	size_t stub_size;
	const char *stub_name;
	const uint8_t *linux_image;  /* bzImage (an arm64 Image for an AArch64 stub), stored as-is in .linux */
	size_t linux_size;
	const char *linux_name;
	const struct uki_blob *initrds; /* concatenated in order, each padded to 4 bytes */
	size_t n_initrds;
	const char *cmdline;         /* NULL or empty (after trimming trailing blanks): no .cmdline */
	const char *os_release;      /* NULL: osrel_default() of the kernel's version */
	const char *os_release_name; /* for messages about @os_release */
	const char *uname;           /* NULL: first word of the kernel's version string */
	const uint8_t *splash;       /* BMP, or NULL */
	size_t splash_size;
	const uint8_t *ucode;        /* microcode: an uncompressed (newc) cpio archive, or NULL */
	size_t ucode_size;
	const char *sbat;            /* NULL: the stub's own .sbat, if any */
	const uint8_t *pcrpkey;      /* PEM public key of the PCR policy signatures, or NULL */
	size_t pcrpkey_size;
	const char *pcrsig;          /* the signed PCR policies (JSON, src/core/pcrsig.h), or NULL */
	const struct uki_profile_input *profiles; /* after the base, in order: profile 0, 1, ... */
	size_t n_profiles;           /* <= UKI_PROFILES_MAX */
};

/**
 * uki_build() - a UKI: the stub with .osrel .cmdline .uname .splash .sbat
 * .pcrpkey .pcrsig .ucode .initrd .linux appended in that order (small
 * metadata first, big payloads last, as ukify does), absent parts omitted;
 * then each profile: .profile, .cmdline, .pcrsig.
 * The stub and the kernel are for one machine: an x86-64 stub with a kernel
 * that passes bz_parse() and uki_check_kernel(), or an AArch64 stub with an
 * arm64 Image that is an AArch64 EFI application (its EFI stub); a splash must be a
 * BMP ("BM"), microcode a newc cpio ("070701"); an os-release is parsed so
 * malformed lines are reported.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len, or the error
 * of the failing step, logged once.
 */
EFI_STATUS uki_build(const struct uki_input *in, uint8_t **ret, size_t *ret_len);

#endif
