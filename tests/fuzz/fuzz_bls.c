/* libFuzzer: BLS Type #1 entries and their order. The input is split on
 * "%%\n" into up to 8 entry files, each starting with a line giving its
 * file name (a name ending in ".efi" makes it a Type #2 entry). They are
 * parsed, sorted, a default is chosen with the first file name as glob, and
 * the comparison functions are checked for the laws sorting relies on, and
 * every string an entry keeps for being well-formed UTF-8. The
 * version comparison and glob also run on three slices of the raw input. */
#include "core/bls.h"
#include "utf8_ref.h"
#include <stdlib.h>

#define MAX_ENTRIES 8
#define NAME_MAX_LEN 64

static char *dup_cstr(const uint8_t *p, size_t n)
{
	char *s = malloc(n + 1);
	size_t k = 0;

	for (size_t i = 0; i < n && p[i]; i++) /* a file name cannot hold NUL */
		s[k++] = (char)p[i];
	s[k] = '\0';
	return s;
}

static size_t find_sep(const uint8_t *p, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++)
		if (p[i] == '%' && p[i + 1] == '%' && p[i + 2] == '\n')
			return i;
	return n;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* What an entry file said reaches the menu and the command line only as
 * well-formed UTF-8 (issue 21; the reference decoder of utf8_ref.h). */
static void check_utf8(const struct bls_entry *e)
{
	const char *const fields[] = { e->title, e->version, e->sort_key, e->machine_id, e->kernel, e->efi,
				       e->options, e->url, e->devicetree };

	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		if (fields[i] && !ref_utf8_valid((const uint8_t *)fields[i], strlen(fields[i]), NULL))
			__builtin_trap();
	for (size_t i = 0; i < e->n_initrd; i++)
		if (!ref_utf8_valid((const uint8_t *)e->initrd[i], strlen(e->initrd[i]), NULL))
			__builtin_trap();
	for (size_t i = 0; i < e->n_extra; i++)
		if (!ref_utf8_valid((const uint8_t *)e->extra[i], strlen(e->extra[i]), NULL))
			__builtin_trap();
	for (size_t i = 0; i < e->n_extra; i++) {
		const char *name;

		bls_extra_kind(e->extra[i], &name);
	}
	mem_free(bls_load_options(e, e->options ? e->options : ""));
	if (e->url)
		mem_free(bls_url_resolve(e->url, "http://h/EFI/BOOT/BOOTX64.EFI"));
	/* one program, and a profile or extras only where systemd-boot has them */
	if ((e->kernel && (e->efi || e->url)) || (e->efi && e->url) || (e->profile && !e->uki) ||
	    (e->n_extra && !e->uki && !e->kernel))
		__builtin_trap();
}

/* One chunk: "<name>\n<entry text>". Returns true when an entry was added. */
static bool parse_chunk(const uint8_t *p, size_t n, struct bls_entry *e, char **ret_name)
{
	size_t name_len = 0;

	while (name_len < n && name_len < NAME_MAX_LEN && p[name_len] != '\n')
		name_len++;
	*ret_name = dup_cstr(p, name_len);
	if (name_len < n)
		name_len++;
	if (bls_parse_entry((const char *)p + name_len, n - name_len, *ret_name, "fuzz", e) != EFI_SUCCESS)
		return false;
	check_utf8(e);
	if (ends_with(e->id, ".efi"))
		e->type = BLS_TYPE2;
	return true;
}

static void check_order(struct bls_entry **p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (bls_entry_cmp(p[i], p[i]) != 0)
			__builtin_trap();
		for (size_t j = i + 1; j < n; j++) /* sorted, so transitive: never out of order */
			if (bls_entry_cmp(p[i], p[j]) > 0 || bls_entry_cmp(p[j], p[i]) < 0)
				__builtin_trap();
	}
}

static void fuzz_entries(const uint8_t *data, size_t size)
{
	struct bls_entry entries[MAX_ENTRIES], *p[MAX_ENTRIES];
	char *names[MAX_ENTRIES] = { 0 };
	size_t n = 0, n_chunks = 0, pos = 0;

	while (pos <= size && n_chunks < MAX_ENTRIES) {
		size_t len = find_sep(data + pos, size - pos);

		if (parse_chunk(data + pos, len, &entries[n], &names[n_chunks])) {
			p[n] = &entries[n];
			n++;
		}
		n_chunks++;
		pos += len + 3;
	}
	bls_sort(p, n);
	check_order(p, n);
	if (bls_find_default(p, n, names[0]) >= n && n > 0)
		__builtin_trap();
	for (size_t i = 0; i < n; i++) {
		free(bls_display_title(p[i]));
		bls_entry_free(p[i]);
	}
	for (size_t i = 0; i < n_chunks; i++)
		free(names[i]);
}

static int sign(int v)
{
	return v < 0 ? -1 : v > 0;
}

/* Antisymmetry, reflexivity and transitivity of the version order on three
 * slices [1, k1), [k1, k2), [k2, size) of the input. */
static void fuzz_versions(const uint8_t *data, size_t size)
{
	size_t k1, k2;
	const char *a, *b, *c;
	size_t na, nb, nc;
	int ab, bc, ac;
	char *pattern, *subject;

	if (size < 3)
		return;
	k1 = 1 + data[0] % (size - 1);
	k2 = k1 + data[1] % (size - k1 + 1);
	a = (const char *)data + 1, na = k1 - 1;
	b = (const char *)data + k1, nb = k2 - k1;
	c = (const char *)data + k2, nc = size - k2;
	ab = sign(bls_version_cmp_n(a, na, b, nb));
	bc = sign(bls_version_cmp_n(b, nb, c, nc));
	ac = sign(bls_version_cmp_n(a, na, c, nc));
	if (bls_version_cmp_n(a, na, a, na) != 0 || sign(bls_version_cmp_n(b, nb, a, na)) != -ab)
		__builtin_trap();
	if ((ab <= 0 && bc <= 0 && ac > 0) || (ab >= 0 && bc >= 0 && ac < 0))
		__builtin_trap();
	pattern = dup_cstr((const uint8_t *)a, na);
	subject = dup_cstr((const uint8_t *)b, nb);
	if (bls_version_cmp(pattern, subject) != bls_version_cmp_n(pattern, strlen(pattern), subject, strlen(subject)))
		__builtin_trap();
	if (strcmp(pattern, subject) == 0 && !glob_match(pattern, subject) && !strpbrk(pattern, "*?["))
		__builtin_trap();
	(void)glob_match(pattern, subject);
	(void)glob_match_suffixed(pattern, subject, ".conf");
	free(pattern);
	free(subject);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_entries(data, size);
	fuzz_versions(data, size);
	return 0;
}
