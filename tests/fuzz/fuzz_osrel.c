/* libFuzzer: os-release as the loader reads a UKI's .osrel (bls_entry_from_uki:
 * its menu title, version and sort key) and as the tool reads it (osrel_parse
 * for `inspect`, `uki` and the entry token): every field it keeps is
 * well-formed UTF-8 (a line that is not is skipped, issue 21), checked by the
 * reference decoder of utf8_ref.h. Also uname/default generation from the
 * same bytes taken as a kernel version string (the default must parse
 * cleanly). */
#include "core/bls.h"
#include "core/osrel.h"
#include "utf8_ref.h"
#include <stdlib.h>

static void check_text(const char *s)
{
	if (s && !ref_utf8_valid((const uint8_t *)s, strlen(s), NULL))
		abort();
}

static void check_fields(const struct osrel *o)
{
	const char *const fields[] = { o->pretty_name, o->name, o->id, o->version_id, o->version,
				       o->image_id, o->image_version, o->build_id };

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		check_text(fields[i]);
}

/* The loader's Type #2 entry from this .osrel. */
static void check_uki_entry(const uint8_t *data, size_t size)
{
	struct bls_entry e = { 0 };

	if (bls_entry_from_uki(&e, "fuzz.efi", "/EFI/Linux/fuzz.efi", (const char *)data, size, false) ==
	    EFI_SUCCESS) {
		check_text(e.title);
		check_text(e.version);
		check_text(e.sort_key);
		/* the same text as a .profile (ID=, TITLE=) of profile 1 */
		if (bls_entry_uki_profile(&e, 1, (const char *)data, size) == EFI_SUCCESS) {
			check_text(e.title);
			check_text(e.id);
			if (!e.options || strcmp(e.options, "@1") != 0)
				abort();
		}
	}
	bls_entry_free(&e);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct osrel o;
	char *kver, *text;

	osrel_parse((const char *)data, size, "fuzz", &o);
	check_fields(&o);
	osrel_free(&o);
	check_uki_entry(data, size);
	kver = mem_alloc(size + 1);
	if (!kver)
		return 0;
	memcpy(kver, data, size);
	kver[size] = '\0';
	text = osrel_default(kver);
	if (text) {
		if (osrel_parse(text, strlen(text), "default", &o) != EFI_SUCCESS || o.n_bad_lines != 0 ||
		    !o.pretty_name)
			abort();
		osrel_free(&o);
		mem_free(text);
	}
	mem_free(kver);
	return 0;
}
