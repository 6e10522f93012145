/* libFuzzer: the EFI variables the loader reads from the running system
 * (Boot Loader Interface: LoaderConfigTimeout[OneShot], LoaderEntryDefault,
 * LoaderEntryOneShot, LoaderEntryLastBooted), as src/efi/vars.c reads them
 * (at most 512 bytes, an even size, UTF-16LE with an optional NUL, converted
 * by str16le_to_8()) and src/core/bli.c applies them to a menu. Input: a
 * flag byte (which variables are set, loader.conf's "default @saved", a
 * one-shot boot), then per variable a length byte and its payload, then the
 * id of one more entry. The strings are well-formed UTF-8; the default
 * index stays inside the menu; the timeout is the initial one or what a
 * variable said. */
#include "core/bli.h"
#include "core/config.h"
#include "core/str16.h"
#include "utf8_ref.h"
#include <stdlib.h>

#define N_VARS 5
#define LOADER_VAR_MAX 512 /* src/efi/vars.c */
#define INITIAL_TIMEOUT 7u

static const char *const fixed_ids[] = { "debian-6.1.0-13-amd64", "debian-6.12.9-amd64", "arch", "fedora" };

/* vars.c loader_var_get_str(): NULL when unset, too big or of odd size. */
static char *var_string(const uint8_t *payload, size_t size)
{
	char *s;

	if (size > LOADER_VAR_MAX || size % 2)
		return NULL;
	s = str16le_to_8(payload, size / 2);
	if (!s || !ref_utf8_valid((const uint8_t *)s, strlen(s), NULL))
		abort();
	return s;
}

static bool add_entry(struct bls_entry *e, const char *id)
{
	char *name = malloc(strlen(id) + sizeof(".conf"));
	bool ok;

	strcpy(name, id);
	strcat(name, ".conf");
	ok = bls_parse_entry("linux /k\n", 9, name, name, e) == EFI_SUCCESS;
	free(name);
	return ok;
}

/* Whether @t is what @var (a timeout variable) could have set. */
static bool timeout_from(const char *var, uint32_t t, bool oneshot)
{
	uint32_t v;

	if (!var || !cfg_parse_timeout(var, strlen(var), &v))
		return false;
	return t == v || (oneshot && v == 0 && t == CFG_TIMEOUT_MENU_FORCE);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *vars[N_VARS] = { 0 };
	struct bls_entry entries[5], *p[5];
	size_t pos = 1, n = 0, idx = SIZE_MAX - 1;
	uint32_t timeout = INITIAL_TIMEOUT;
	struct bli_request req;
	bool oneshot_chosen;
	char *last_id;

	if (size < 1)
		return 0;
	for (int v = 0; v < N_VARS && pos < size; v++) {
		size_t len = MIN((size_t)data[pos], size - pos - 1);

		if (data[0] & (1u << v))
			vars[v] = var_string(data + pos + 1, len);
		pos += 1 + len;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fixed_ids); i++)
		if (add_entry(&entries[n], fixed_ids[i]))
			p[n] = &entries[n], n++;
	last_id = var_string(data + MIN(pos, size), (size - MIN(pos, size)) & ~(size_t)1);
	if (last_id && add_entry(&entries[n], last_id))
		p[n] = &entries[n], n++;
	req = (struct bli_request){ .timeout = vars[0], .timeout_oneshot = vars[1], .entry_default = vars[2],
				    .entry_oneshot = vars[3], .last_booted = vars[4] };
	oneshot_chosen = bli_apply(&req, p, n, &timeout, &idx);
	if (idx != SIZE_MAX - 1 && idx >= n)
		abort(); /* a default outside the menu */
	if (oneshot_chosen && (!req.entry_oneshot || idx >= n))
		abort();
	if (timeout != INITIAL_TIMEOUT && !timeout_from(req.timeout_oneshot, timeout, true) &&
	    !timeout_from(req.timeout, timeout, false))
		abort(); /* a timeout no variable asked for */
	if (n && bli_saved_action(&req, data[0] & 0x20, p[idx < n ? idx : 0]->id, oneshot_chosen) > BLI_SAVED_DELETE)
		abort();
	for (size_t i = 0; i < n; i++)
		bls_entry_free(p[i]);
	bli_request_free(&req);
	free(last_id);
	return 0;
}
