/* inspect: describe an image with src/core's parsers (bz_parse, pe_parse,
 * image_identify, scheme_supported), plus the checks only a reporting tool
 * needs: overlapping sections, the Authenticode certificate table (PE/COFF
 * spec §4.7, WIN_CERTIFICATE), and UKI sections (UAPI.5 Unified Kernel Image). */
#include "inspect.h"
#include "json.h"
#include "pe_sig.h"
#include "core/arm64_image.h"
#include "core/fmt.h"
#include "core/log.h"
#include <string.h>

const char *inspect_format_name(enum inspect_format f)
{
	return f == INSPECT_UKI ? "uki" : f == INSPECT_PE ? "pe" : "bzImage";
}

/* Bytes a section occupies in memory: VirtualSize, or the raw size when 0. */
static uint64_t section_span(const struct pe_section *s)
{
	return s->virtual_size ? s->virtual_size : s->raw_size;
}

static EFI_STATUS check_overlap(const struct pe_info *pe, const char *name)
{
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *a = &pe->sections[i];
		for (uint32_t k = i + 1; k < pe->n_sections; k++) {
			const struct pe_section *b = &pe->sections[k];
			if (!section_span(a) || !section_span(b))
				continue;
			if (a->virtual_address < b->virtual_address + section_span(b) &&
			    b->virtual_address < a->virtual_address + section_span(a))
				return log_error_status(
					EFI_LOAD_ERROR, "%s: section %u (%s) at %#x overlaps section %u (%s) at %#x",
					name, k, b->name, b->virtual_address, i, a->name, a->virtual_address);
		}
	}
	return EFI_SUCCESS;
}

static struct inspect_blob blob_of_section(const uint8_t *buf, size_t len, const struct pe_info *pe, const char *sname)
{
	const struct pe_section *s = pe_find_section(pe, sname);
	struct inspect_blob b = { 0 };

	if (s)
		b.data = pe_section_data(s, buf, len, PE_LAYOUT_FILE, &b.size);
	b.present = b.data != NULL;
	return b;
}

static struct inspect_blob blob(const struct uki_blob *b)
{
	struct inspect_blob r = { .data = b->data, .size = b->size, .present = b->data != NULL };

	return r;
}

/* Each profile of a multi-profile UKI: its .profile and command line. */
static EFI_STATUS inspect_profiles(const uint8_t *buf, size_t len, const char *name, struct inspect_result *r)
{
	uint32_t n = uki_profile_count(&r->img.pe);
	struct uki_sections u;
	char sub[256];
	EFI_STATUS err = EFI_SUCCESS;

	if (n == 0)
		return EFI_SUCCESS;
	r->profiles = mem_zalloc(n * sizeof(*r->profiles));
	if (!r->profiles)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	r->n_profiles = n;
	for (uint32_t i = 0; i < n && !EFI_ERROR(err); i++) {
		struct inspect_profile *p = &r->profiles[i];

		err = uki_parse_profile(&r->img.pe, buf, len, PE_LAYOUT_FILE, name, i, &u);
		if (EFI_ERROR(err))
			break;
		p->cmdline = blob(&u.s[UKI_CMDLINE]);
		fmt_snprintf(sub, sizeof(sub), "%s: profile %u: .profile", name, i);
		err = osrel_parse((const char *)u.s[UKI_PROFILE].data, u.s[UKI_PROFILE].size, sub, &p->info);
	}
	return err;
}

/* A PE with .linux (in the base or profile 0) is a UKI; its kernel must
 * itself be a sound bzImage (or an arm64 Image), and each of its profiles sound. */
static EFI_STATUS inspect_uki(const uint8_t *buf, size_t len, const char *name, struct inspect_result *r)
{
	struct uki_sections u;
	char sub[256];
	EFI_STATUS err;

	err = uki_parse(&r->img.pe, buf, len, PE_LAYOUT_FILE, name, &u);
	if (err == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (!EFI_ERROR(err) && uki_stub_is_handoff(&u)) /* what the stub and `handoff uki` say of it */
		err = uki_check_handled(&r->img.pe, name, /* at_boot= */ false);
	if (EFI_ERROR(err))
		return err;
	r->format = INSPECT_UKI;
	r->kernel = blob(&u.s[UKI_LINUX]);
	r->initrd = blob(&u.s[UKI_INITRD]);
	r->ucode = blob(&u.s[UKI_UCODE]);
	r->cmdline = blob(&u.s[UKI_CMDLINE]);
	r->osrel = blob(&u.s[UKI_OSREL]);
	r->uname = blob(&u.s[UKI_UNAME]);
	r->sbat = blob(&u.s[UKI_SBAT]);
	r->handoff_stub = uki_stub_is_handoff(&u);
	/* an arm64 Image has no setup header: its PE header is the stub's, for AArch64 */
	r->linux_arm64 = arm64_image_is(r->kernel.data, r->kernel.size);
	fmt_snprintf(sub, sizeof(sub), "%s: .linux", name);
	if (!r->linux_arm64) {
		err = bz_parse(r->kernel.data, r->kernel.size, sub, &r->bz);
		if (EFI_ERROR(err))
			return err;
		r->has_kernel = true;
	}
	fmt_snprintf(sub, sizeof(sub), "%s: .osrel", name);
	if (r->osrel.present && EFI_ERROR(err = osrel_parse((const char *)r->osrel.data, r->osrel.size, sub, &r->os)))
		return err;
	return inspect_profiles(buf, len, name, r);
}

void inspect_result_free(struct inspect_result *r)
{
	osrel_free(&r->os);
	for (uint32_t i = 0; i < r->n_profiles; i++)
		osrel_free(&r->profiles[i].info);
	mem_free(r->profiles);
	r->profiles = NULL;
	r->n_profiles = 0;
}

EFI_STATUS inspect_image(const uint8_t *buf, size_t len, const char *name, struct inspect_result *r)
{
	struct pe_info *pe_probe;
	EFI_STATUS err;

	memset(r, 0, sizeof(*r));
	r->name = name;
	r->file_size = len;
	if (len == 0)
		return log_error_status(EFI_LOAD_ERROR, "%s: empty file", name);
	/* A file that says "MZ"+"PE" must be a sound PE, even when it is also a
	 * bzImage: image_identify() alone would fall back to the bzImage view. */
	pe_probe = mem_alloc(sizeof(*pe_probe));
	if (!pe_probe)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	err = pe_parse(buf, len, name, pe_probe);
	mem_free(pe_probe);
	if (err == EFI_LOAD_ERROR)
		return err;
	err = image_identify(buf, len, name, &r->img);
	if (EFI_ERROR(err))
		return err;
	r->has_kernel = r->img.is_bz;
	r->bz = r->img.bz;
	r->format = r->img.is_bz ? INSPECT_BZIMAGE : INSPECT_PE;
	r->arm64_image = arm64_image_is(buf, len);
	if (!r->img.is_pe)
		return EFI_SUCCESS;
	err = check_overlap(&r->img.pe, name);
	if (!EFI_ERROR(err))
		err = pe_cert_table_check(buf, &r->img.pe, name, &r->is_signed);
	if (EFI_ERROR(err))
		return err;
	r->sbat = blob_of_section(buf, len, &r->img.pe, ".sbat");
	return inspect_uki(buf, len, name, r);
}
