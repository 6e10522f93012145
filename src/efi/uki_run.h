/* handoff's EFI stub: the image side. A PE file (a UKI, or a bzImage wrapped
 * by `handoff wrap`) whose sections carry a kernel and what it needs. */
#ifndef EFI_UKI_RUN_H
#define EFI_UKI_RUN_H

#include "boot.h"
#include "core/sidecar.h"
#include "core/uki.h"

struct blob {
	const uint8_t *data;
	size_t size;
};

struct stub_sections {
	struct blob linux;    /* the kernel of a UKI (.linux) */
	bool wrapped;         /* `handoff wrap`: the kernel is @head + @body, its PE header this stub's own */
	struct blob head, body;
	struct blob initrd;
	struct blob ucode;    /* .ucode: a cpio of microcode, before every other initrd */
	struct blob cmdline;
	bool has_cmdline;
	struct uki_sections uki;  /* a UKI's sections (none for a wrapped kernel), for PCR 11 */
};

/**
 * uki_run() - boot the kernel that the image @li describes carries, as
 * handoff's stub does: @li is the stub's own loaded image (@layout
 * PE_LAYOUT_MEMORY) or, for a UKI of handoff's stub booted from the loader's
 * menu, a description of the loader's read buffer (PE_LAYOUT_FILE: ImageBase
 * the file, DeviceHandle and FilePath where it was read, LoadOptions the
 * entry's line). @self_dp: the image's device path, or NULL.
 * Return: only when the boot failed (logged).
 */
EFI_STATUS uki_run(const EFI_LOADED_IMAGE_PROTOCOL *li, const EFI_DEVICE_PATH_PROTOCOL *self_dp, enum pe_layout layout);

/**
 * stub_find_sections() - locate the sections in the image: by RVA or file
 * offset (@layout); a UKI's as its profile @profile sees them (uki_parse_profile()).
 */
EFI_STATUS stub_find_sections(const EFI_LOADED_IMAGE_PROTOCOL *li, enum pe_layout layout, uint32_t profile,
			      struct stub_sections *ret);

/**
 * stub_measure_sections() - a UKI's sections into PCR 11 as systemd-stub
 * does: for each present section but .pcrsig, in the UKI specification's
 * order, its name (ASCII with NUL), then its contents, as EV_IPL events;
 * the order and the rule are uki_measure_sections()'s, which the signed PCR
 * policies of `handoff uki` are computed with. A @profile other than 0 then
 * goes into PCR 12 as systemd-stub's tagged event of its number.
 * Return: EFI_SUCCESS, or why one could not be measured (logged): not booted.
 */
EFI_STATUS stub_measure_sections(const struct stub_sections *s, uint32_t profile);

struct stub_extras;

/* addons.c */
/**
 * stub_load_addons() - the command line the UKI's addons add (src/core/addon.h):
 * \loader\addons\ then <this image's path>.extra.d\, each in name order,
 * each verified by the firmware's LoadImage (refused ones are said and left
 * out), joined with spaces; "" when there are none.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd), or EFI_OUT_OF_RESOURCES (logged).
 */
EFI_STATUS stub_load_addons(const EFI_LOADED_IMAGE_PROTOCOL *li, const struct stub_sections *s, char **ret);

/* extras.c */
/**
 * stub_export_variables() - the Boot Loader Interface variables systemd-stub
 * sets: StubInfo, LoaderImageIdentifier & co. where no loader set them, and
 * StubPcrKernelImage (@pcr11: the sections were measured),
 * StubPcrKernelParameters (@pcr12: a command line or credentials are measured
 * into PCR 12), StubPcrInitRDSysExts and StubPcrInitRDConfExts (@x has
 * archives of them and @pcr11: a TPM measures them), StubProfile (the profile
 * booted, decimal, as systemd-stub).
 */
void stub_export_variables(const EFI_LOADED_IMAGE_PROTOCOL *li, bool pcr11, bool pcr12, const struct stub_extras *x,
			   uint32_t profile);

#define STUB_N_EXTRAS 2
/* The /.extra cpio archives: the companion files' (by enum sidecar_kind),
 * then .pcrsig's and .pcrpkey's; owned until the boot is over. */
struct stub_extras {
	uint8_t *buf[_SIDECAR_MAX + STUB_N_EXTRAS];
	size_t size[_SIDECAR_MAX + STUB_N_EXTRAS];
	struct boot_measure measure[_SIDECAR_MAX]; /* the companion archives, for boot_verify() */
	size_t n_measure;
};
/**
 * stub_add_extras() - .pcrsig and .pcrpkey (when present) as
 * /.extra/tpm2-pcr-signature.json and /.extra/tpm2-pcr-public-key.pem, each
 * in its own cpio archive appended to @set, as systemd-stub does.
 * Return: EFI_SUCCESS, or why not (logged): not booted.
 */
EFI_STATUS stub_add_extras(struct initrd_set *set, const struct stub_sections *s, struct stub_extras *x);
/* uki_sidecars.c */
/**
 * stub_add_sidecars() - the UKI's companion files (src/core/sidecar.h), one
 * cpio archive per kind that has any, appended to @set in systemd-stub's
 * order and listed in @x->measure for PCR 12 and 13.
 * Return: EFI_SUCCESS (a directory that cannot be read is said and skipped),
 * or why not (logged): not booted.
 */
EFI_STATUS stub_add_sidecars(struct initrd_set *set, const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_extras *x);
/**
 * uki_has_sidecars() - the UKI @path on @device has companion files the stub
 * would take (src/efi/uki_sidecars.c): the loader then starts it.
 */
bool uki_has_sidecars(EFI_HANDLE device, const char *path);
void stub_extras_free(struct stub_extras *x);

#endif
