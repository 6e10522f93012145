/* A UKI in EFI/Linux as `handoff entry list` shows it (entry_list.c): parsed
 * and its kernel checked as the loader would, then one entry per profile,
 * named by the same core code as the loader's menu (bls_entry_from_uki,
 * bls_entry_uki_profile). */
#include "entry.h"
#include "core/bls.h"
#include "core/bzimage.h"
#include "core/uki.h"

/* The entry of profile @profile of a UKI in EFI/Linux, named and sorted by
 * its .osrel as the loader does: one per profile of a multi-profile UKI,
 * titled and named as systemd-boot lists them (bls_entry_uki_profile()). */
bool uki_listing_entry(struct bls_entry *e, const struct pe_info *pe, const char *buf, size_t len, const char *rel,
		       const char *name, uint32_t profile)
{
	struct uki_sections u;
	const struct uki_blob *prof = &u.s[UKI_PROFILE];

	if (uki_parse_profile(pe, (const uint8_t *)buf, len, PE_LAYOUT_FILE, rel, profile, &u) != EFI_SUCCESS)
		return false;
	e->efi = xasprintf("/%s", rel);
	return bls_entry_from_uki(e, name, rel, (const char *)u.s[UKI_OSREL].data, u.s[UKI_OSREL].size,
				  u.s[UKI_CMDLINE].data != NULL) == EFI_SUCCESS &&
	       (!uki_profile_count(pe) ||
		bls_entry_uki_profile(e, profile, (const char *)prof->data, prof->size) == EFI_SUCCESS);
}

/* A UKI's file: parsed, its kernel checked, its profiles counted (0 when it
 * is no UKI: then it is listed once, with the problem). */
uint32_t uki_listing_load(const char *path, const char *rel, char **buf, size_t *len, struct pe_info *pe)
{
	struct uki_sections u;
	struct bz_info bz;
	bool ok;

	*buf = NULL;
	if (read_file(path, TOOL_READ_MAX, (uint8_t **)buf, len) < 0)
		return 0;
	ok = pe_parse((const uint8_t *)*buf, *len, rel, pe) == EFI_SUCCESS &&
	     uki_parse(pe, (const uint8_t *)*buf, *len, PE_LAYOUT_FILE, rel, &u) == EFI_SUCCESS;
	if (!ok && !pe_find_section(pe, ".linux"))
		log_error("%s: not a unified kernel image (no .linux section)", rel);
	if (ok && !pe_is_efi_app_x64(pe))
		log_error("%s: not an x86-64 EFI application", rel);
	if (ok && bz_parse(u.s[UKI_LINUX].data, u.s[UKI_LINUX].size, rel, &bz) == EFI_SUCCESS)
		uki_check_kernel(&bz, rel);
	return ok ? MIN(MAX(uki_profile_count(pe), 1u), (uint32_t)UKI_PROFILES_MAX) : 0;
}

