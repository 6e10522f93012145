/* A Type #2 entry (UAPI.1 Boot Loader Specification "Type #2 EFI Unified
 * Kernel Images") from a UKI's .osrel, one per profile of a multi-profile
 * UKI (systemd-boot(7)): the one place where the loader (src/efi/entries.c)
 * and the tool (src/tool/entry_list.c) agree on what a UKI is called in the
 * menu and how it sorts. */
#include "bls.h"
#include "fmt.h"
#include "osrel.h"

static char *first_of(const char *a, const char *b, const char *c)
{
	const char *s = a ? a : b ? b : c;

	return s ? fmt_asprintf("%s", s) : NULL;
}

EFI_STATUS bls_entry_from_uki(struct bls_entry *e, const char *name, const char *path, const char *osrel,
			      size_t osrel_len, bool has_cmdline)
{
	struct osrel o = { 0 };
	EFI_STATUS err;

	if (osrel)
		osrel_parse(osrel, osrel_len, path, &o);
	e->type = BLS_TYPE2;
	e->path = fmt_asprintf("%s", path);
	/* os-release(5): the menu shows PRETTY_NAME (else NAME); the version
	 * VERSION_ID, IMAGE_VERSION or VERSION; sort-key is IMAGE_ID, else ID. */
	e->title = first_of(o.pretty_name, o.name, NULL);
	e->version = first_of(o.version_id, o.image_version, o.version);
	e->sort_key = first_of(o.image_id, o.id, NULL);
	e->uki_cmdline = has_cmdline;
	osrel_free(&o);
	err = bls_entry_set_name(e, name, ".efi", /* keep_suffix= */ true);
	if (!EFI_ERROR(err) && !e->path)
		err = EFI_OUT_OF_RESOURCES;
	return err;
}

static void replace(char **field, char *s)
{
	mem_free(*field);
	*field = s;
}

EFI_STATUS bls_entry_uki_profile(struct bls_entry *e, uint32_t profile, const char *text, size_t len)
{
	struct osrel o = { 0 };
	char num[24];
	const char *label;

	if (text)
		osrel_parse(text, len, e->path, &o);
	label = o.title ? o.title : profile ? o.id : NULL;
	if (profile && !label)
		label = fmt_snprintf(num, sizeof(num), "Profile #%u", profile + 1) ? num : NULL;
	if (label)
		replace(&e->title, fmt_asprintf("%s (%s)", e->title ? e->title : e->id, label));
	e->uki_profile = profile;
	if (profile) {
		replace(&e->id, o.id ? fmt_asprintf("%s@%s", e->id, o.id) : fmt_asprintf("%s@%u", e->id, profile));
		replace(&e->options, fmt_asprintf("@%u", profile));
	}
	osrel_free(&o);
	return (label && !e->title) || !e->id || (profile && !e->options) ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
}
