/* Unified kernel images: section lookup (UAPI.5 "UKI Components") and the
 * builder behind `handoff uki`, which appends the sections to the stub with
 * pe_add_sections(). */
#include "uki.h"
#include "arm64_image.h"
#include "cmdline.h"
#include "fmt.h"
#include "fwarch.h"
#include "log.h"
#include "osrel.h"
#include "pe_write.h"

#define UKI_DATA_FLAGS (PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ)
#define INITRD_ALIGN 4u /* boot.rst: each concatenated cpio archive 4-byte aligned */

static const char *const uki_names[_UKI_SECTION_MAX] = {
	[UKI_LINUX] = ".linux",     [UKI_OSREL] = ".osrel", [UKI_CMDLINE] = ".cmdline", [UKI_INITRD] = ".initrd",
	[UKI_UCODE] = ".ucode",     [UKI_SPLASH] = ".splash", [UKI_DTB] = ".dtb",       [UKI_UNAME] = ".uname",
	[UKI_SBAT] = ".sbat",       [UKI_PCRSIG] = ".pcrsig", [UKI_PCRPKEY] = ".pcrpkey", [UKI_PROFILE] = ".profile",
};

const char *uki_section_name(enum uki_section id)
{
	return (unsigned)id < _UKI_SECTION_MAX ? uki_names[id] : NULL;
}

bool uki_stub_is_handoff(const struct uki_sections *u)
{
	static const char component[] = "handoff,";
	const struct uki_blob *b = &u->s[UKI_SBAT];
	size_t n = sizeof(component) - 1;

	for (size_t i = 0; b->data && n <= b->size - i; i++) /* CSV: the component name starts a line */
		if ((i == 0 || b->data[i - 1] == '\n') && memcmp(b->data + i, component, n) == 0)
			return true;
	return false;
}

EFI_STATUS uki_measure_sections(const struct uki_sections *u, uki_measure_fn measure, void *ctx)
{
	EFI_STATUS err = EFI_SUCCESS;

	for (enum uki_section i = 0; i < _UKI_SECTION_MAX && !EFI_ERROR(err); i++) {
		const char *name = uki_names[i];

		if (i == UKI_PCRSIG || !u->s[i].data || u->s[i].size == 0)
			continue;
		err = measure(ctx, name, name, strlen(name) + 1);
		if (!EFI_ERROR(err))
			err = measure(ctx, name, u->s[i].data, u->s[i].size);
	}
	return err;
}

/* What systemd-stub 257-258 does with these (man systemd-stub): a device tree
 * picked by CHID from .hwids among .dtbauto sections, firmware by .hwids'
 * fwid from .efifw; which one it measures into PCR 11 depends on that choice. */
static const char *const uki_refused[] = { ".dtbauto", ".hwids", ".efifw" };
/* The last row is left out where device trees are used (FW_NATIVE_DT): the
 * AArch64 loader and stub install a .dtb (src/efi/uki_run.c). */
static const char *const uki_ignored[][2] = {
	{ ".splash", "no splash is shown" },
	{ ".dtb", "x86 Linux takes no device tree from UEFI" },
};

EFI_STATUS uki_check_handled(const struct pe_info *pe, const char *name, bool at_boot)
{
	for (size_t i = 0; i < ARRAY_SIZE(uki_refused); i++)
		if (pe_find_section(pe, uki_refused[i]))
			return log_error_status(EFI_UNSUPPORTED,
						"%s: UKI has a %s section, which handoff's stub does not handle", name,
						uki_refused[i]);
	for (size_t i = 0; at_boot && i < ARRAY_SIZE(uki_ignored) - FW_NATIVE_DT; i++)
		if (pe_find_section(pe, uki_ignored[i][0]))
			log_info("%s: %s section left alone: %s", name, uki_ignored[i][0], uki_ignored[i][1]);
	return EFI_SUCCESS;
}

EFI_STATUS uki_check_kernel(const struct bz_info *bz, const char *name)
{
	if (bz->version < BOOT_PROTO(2, 12))
		return log_error_status(
			EFI_UNSUPPORTED,
			"%s: boot protocol %u.%02u is too old: handoff's stub needs >= 2.12 (xloadflags)", name,
			bz->version >> 8, bz->version & 0xff);
	if (!(bz->xloadflags & XLF_KERNEL_64))
		return log_error_status(EFI_UNSUPPORTED, "%s: xloadflags %#x lacks XLF_KERNEL_64: not a 64-bit kernel",
					name, bz->xloadflags);
	return EFI_SUCCESS;
}

/* All initrds in one buffer, each padded with zeros to INITRD_ALIGN. */
static EFI_STATUS uki_concat_initrds(const struct uki_input *in, uint8_t **ret, size_t *ret_size)
{
	size_t total = 0, off = 0;
	uint8_t *buf;

	for (size_t i = 0; i < in->n_initrds; i++) {
		if (in->initrds[i].size > SIZE_MAX - total - INITRD_ALIGN)
			return log_error_status(EFI_OUT_OF_RESOURCES, "initrds: total size overflows");
		total += ALIGN_UP(in->initrds[i].size, (size_t)INITRD_ALIGN);
	}
	*ret = NULL;
	*ret_size = total;
	if (total == 0)
		return EFI_SUCCESS;
	buf = mem_zalloc(total);
	if (!buf)
		return log_error_status(EFI_OUT_OF_RESOURCES, "initrds: out of memory for %zu bytes", total);
	for (size_t i = 0; i < in->n_initrds; i++) {
		memcpy(buf + off, in->initrds[i].data, in->initrds[i].size);
		off += ALIGN_UP(in->initrds[i].size, (size_t)INITRD_ALIGN);
	}
	*ret = buf;
	return EFI_SUCCESS;
}

static size_t trimmed_len(const char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n > 0 && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	return n;
}

/* The parts that are text, generated or checked; owned by the caller. */
struct uki_texts {
	char *osrel, *uname;
	uint8_t *initrd;
	size_t initrd_size;
};

static void uki_texts_free(struct uki_texts *t)
{
	mem_free(t->osrel);
	mem_free(t->uname);
	mem_free(t->initrd);
}

static EFI_STATUS uki_make_texts(const struct uki_input *in, const struct bz_info *bz, struct uki_texts *t)
{
	struct osrel o;
	EFI_STATUS err;

	t->uname = in->uname ? fmt_asprintf("%.*s", (int)trimmed_len(in->uname), in->uname)
			     : uname_from_kernel_version(bz->kernel_version);
	if (in->os_release) {
		err = osrel_parse(in->os_release, strlen(in->os_release),
				  in->os_release_name ? in->os_release_name : "os-release", &o);
		osrel_free(&o);
		if (EFI_ERROR(err))
			return err;
		t->osrel = fmt_asprintf("%s", in->os_release);
	} else {
		t->osrel = osrel_default(bz->kernel_version);
	}
	if (!t->osrel || (in->uname && !t->uname))
		return log_error_status(EFI_OUT_OF_RESOURCES, "uki: out of memory");
	return uki_concat_initrds(in, &t->initrd, &t->initrd_size);
}

static void add_section(struct pe_new_section *secs, size_t *n, const char *name, const void *data, size_t size)
{
	if (!data || size == 0)
		return;
	memset(&secs[*n], 0, sizeof(secs[*n]));
	memcpy(secs[*n].name, name, strlen(name) + 1);
	secs[*n].data = data;
	secs[*n].size = size;
	secs[*n].characteristics = UKI_DATA_FLAGS;
	(*n)++;
}

static EFI_STATUS uki_check_profiles(const struct uki_input *in)
{
	EFI_STATUS err = EFI_SUCCESS;
	struct osrel o;

	if (in->n_profiles > UKI_PROFILES_MAX)
		return log_error_status(EFI_INVALID_PARAMETER, "uki: %zu profiles, at most %u", in->n_profiles,
					UKI_PROFILES_MAX);
	for (size_t i = 0; i < in->n_profiles && !EFI_ERROR(err); i++) {
		const struct uki_profile_input *p = &in->profiles[i];

		if (!p->profile || trimmed_len(p->profile) == 0)
			return log_error_status(EFI_INVALID_PARAMETER, "profile %zu: empty .profile (ID=, TITLE=)", i);
		err = osrel_parse(p->profile, strlen(p->profile), ".profile", &o);
		osrel_free(&o);
		if (!EFI_ERROR(err) && p->cmdline)
			err = cmdline_check(p->cmdline, trimmed_len(p->cmdline), ".cmdline of a profile");
	}
	return err;
}

/* An arm64 kernel boots by its own EFI stub (Documentation/arch/arm64/booting.rst
 * and the UEFI boot of Documentation/admin-guide/efi-stub.rst): its Image
 * must carry the PE/COFF header of an AArch64 EFI application. It has no
 * setup header: of @bz only the version, from its banner, is filled. */
static EFI_STATUS uki_check_arm64(const struct uki_input *in, const char *linux_name, struct bz_info *bz)
{
	_cleanup_free_ struct pe_info *pe = mem_alloc(sizeof(*pe));

	if (!pe)
		return log_error_status(EFI_OUT_OF_RESOURCES, "uki: out of memory");
	if (pe_parse(in->linux_image, in->linux_size, linux_name, pe) != EFI_SUCCESS ||
	    !pe_is_efi_app(pe, PE_MACHINE_AA64))
		return log_error_status(EFI_UNSUPPORTED,
					"%s: an arm64 kernel Image that is no AArch64 EFI application (built without "
					"CONFIG_EFI_STUB?): the stub boots it by the kernel's EFI stub",
					linux_name);
	memset(bz, 0, sizeof(*bz));
	arm64_image_version(in->linux_image, in->linux_size, bz->kernel_version, sizeof(bz->kernel_version));
	return EFI_SUCCESS;
}

/* A UKI's stub starts its kernel on the firmware that started the stub, so
 * both are for one machine: handoff-stub.efi and a bzImage (x86-64),
 * handoff-stubaa64.efi and an arm64 Image (AArch64). */
static EFI_STATUS uki_check_kernel_for(const struct uki_input *in, const struct pe_info *stub, const char *stub_name,
				       const char *linux_name, struct bz_info *bz)
{
	bool arm64 = arm64_image_is(in->linux_image, in->linux_size);
	EFI_STATUS err;

	if (arm64 && stub->machine != PE_MACHINE_AA64)
		return log_error_status(EFI_UNSUPPORTED,
					"%s: an arm64 kernel Image, and %s is an x86-64 stub: a UKI's stub and "
					"kernel must be for the same machine",
					linux_name, stub_name);
	if (arm64)
		return uki_check_arm64(in, linux_name, bz);
	if (stub->machine == PE_MACHINE_AA64 && bz_has_magic(in->linux_image, in->linux_size))
		return log_error_status(EFI_UNSUPPORTED,
					"%s: an x86-64 bzImage, and %s is an arm64 stub: a UKI's stub and "
					"kernel must be for the same machine",
					linux_name, stub_name);
	if (stub->machine == PE_MACHINE_AA64)
		return log_error_status(EFI_UNSUPPORTED,
					"%s: not an arm64 kernel Image (no \"ARM\\x64\" at %#x), which %s, an arm64 "
					"stub, boots",
					linux_name, ARM64_IMAGE_MAGIC_OFFSET, stub_name);
	err = bz_parse(in->linux_image, in->linux_size, linux_name, bz);
	return EFI_ERROR(err) ? err : uki_check_kernel(bz, linux_name);
}

static EFI_STATUS uki_check_inputs(const struct uki_input *in, struct bz_info *bz, struct pe_info *stub)
{
	const char *stub_name = in->stub_name ? in->stub_name : "stub";
	const char *linux_name = in->linux_name ? in->linux_name : "kernel";
	EFI_STATUS err;

	err = pe_parse(in->stub, in->stub_size, stub_name, stub);
	if (err == EFI_UNSUPPORTED)
		return log_error_status(err, "%s: not a PE/COFF image (no MZ/PE signature)", stub_name);
	if (EFI_ERROR(err))
		return err;
	if (!pe_is_efi_app_x64(stub) && !pe_is_efi_app(stub, PE_MACHINE_AA64))
		return log_error_status(EFI_UNSUPPORTED,
					"%s: not an x86-64 or AArch64 EFI application (machine %#x, subsystem %u)",
					stub_name, stub->machine, stub->subsystem);
	err = uki_check_handled(stub, stub_name, /* at_boot= */ false);
	if (!EFI_ERROR(err))
		err = uki_check_kernel_for(in, stub, stub_name, linux_name, bz);
	if (EFI_ERROR(err))
		return err;
	if (in->splash && (in->splash_size < 2 || in->splash[0] != 'B' || in->splash[1] != 'M'))
		return log_error_status(EFI_UNSUPPORTED, "splash: not a BMP image (no \"BM\" signature)");
	/* the kernel's early loader reads only uncompressed newc archives (Documentation/arch/x86/microcode.rst) */
	if (in->ucode && (in->ucode_size < 6 || memcmp(in->ucode, "070701", 6) != 0))
		return log_error_status(EFI_UNSUPPORTED,
					"microcode: not an uncompressed cpio archive (newc, \"070701\")");
	/* the stub would refuse to boot it (cmdline_forms_make()): refused here, where it can be fixed */
	if (in->cmdline && EFI_ERROR(err = cmdline_check(in->cmdline, trimmed_len(in->cmdline), ".cmdline")))
		return err;
	return uki_check_profiles(in);
}

EFI_STATUS uki_build(const struct uki_input *in, uint8_t **ret, size_t *ret_len)
{
	_cleanup_free_ struct pe_info *stub = mem_alloc(sizeof(*stub));
	_cleanup_free_ struct bz_info *bz = mem_alloc(sizeof(*bz));
	struct uki_texts t = {};
	_cleanup_free_ struct pe_new_section *secs = NULL;
	const char *sbat;
	size_t n = 0;
	EFI_STATUS err;

	if (!stub || !bz)
		return log_error_status(EFI_OUT_OF_RESOURCES, "uki: out of memory");
	err = uki_check_inputs(in, bz, stub);
	if (!EFI_ERROR(err) && !(secs = mem_alloc((10 + 3 * in->n_profiles) * sizeof(*secs))))
		err = log_error_status(EFI_OUT_OF_RESOURCES, "uki: out of memory");
	if (!EFI_ERROR(err))
		err = uki_make_texts(in, bz, &t);
	if (!EFI_ERROR(err)) {
		/* the stub's own .sbat, or the caller's; never handoff's for another
		 * stub: loaders take a "handoff" line as handoff's stub (boot_uki.c) */
		sbat = in->sbat;
		add_section(secs, &n, ".osrel", t.osrel, strlen(t.osrel));
		add_section(secs, &n, ".cmdline", in->cmdline, trimmed_len(in->cmdline));
		add_section(secs, &n, ".uname", t.uname, t.uname ? strlen(t.uname) : 0);
		add_section(secs, &n, ".splash", in->splash, in->splash_size);
		add_section(secs, &n, ".sbat", sbat, sbat ? strlen(sbat) : 0);
		add_section(secs, &n, ".pcrpkey", in->pcrpkey, in->pcrpkey_size);
		add_section(secs, &n, ".pcrsig", in->pcrsig, in->pcrsig ? strlen(in->pcrsig) : 0);
		add_section(secs, &n, ".ucode", in->ucode, in->ucode_size);
		add_section(secs, &n, ".initrd", t.initrd, t.initrd_size);
		add_section(secs, &n, ".linux", in->linux_image, in->linux_size);
		for (size_t i = 0; i < in->n_profiles; i++) {
			const struct uki_profile_input *p = &in->profiles[i];

			add_section(secs, &n, ".profile", p->profile, trimmed_len(p->profile));
			add_section(secs, &n, ".cmdline", p->cmdline, trimmed_len(p->cmdline));
			add_section(secs, &n, ".pcrsig", p->pcrsig, p->pcrsig ? strlen(p->pcrsig) : 0);
		}
		err = pe_add_sections(in->stub, in->stub_size, in->stub_name ? in->stub_name : "stub", secs, n, ret,
				      ret_len);
	}
	uki_texts_free(&t);
	return err;
}
