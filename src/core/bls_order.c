/* Menu order and default entry. Version comparison: UAPI.10 Version Format
 * Specification (as systemd's strverscmp_improved); entry order: UAPI.1
 * "Sorting" (boot counting, sort-key, machine-id, version, file name). */
#include "bls.h"

#define SIGN(x) ((x) < 0 ? -1 : (x) > 0 ? 1 : 0)
#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool is_alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* UAPI.10 step 1: every other character (including non-ASCII) is skipped. */
static bool is_version_char(char c)
{
	return is_digit(c) || is_alpha(c) || c == '~' || c == '-' || c == '^' || c == '.';
}

struct vcursor {
	const char *p, *end;
};

static char vpeek(const struct vcursor *c)
{
	return c->p < c->end ? *c->p : '\0';
}

static bool vat_end(const struct vcursor *c)
{
	return c->p >= c->end;
}

/* UAPI.10 steps 2, 4-6: when exactly one side starts with @sep, that side is
 * lower ('~' pre-release, '-' release, '^' patch, '.' point release: each
 * sorts below whatever else could follow there); when both do, skip both. */
static int vseparator(struct vcursor *a, struct vcursor *b, char sep)
{
	bool sa = vpeek(a) == sep, sb = vpeek(b) == sep;

	if (sa != sb)
		return sa ? -1 : 1;
	if (sa) {
		a->p++;
		b->p++;
	}
	return 0;
}

static size_t vrun(const struct vcursor *c, bool (*pred)(char))
{
	size_t n = 0;

	while (c->p + n < c->end && pred(c->p[n]))
		n++;
	return n;
}

/* UAPI.10 step 7: digit runs compare as numbers of any size (leading zeros
 * skipped, then longer is bigger, then bytewise); an empty run sorts below
 * any digits, so letters sort before numbers. */
static int vnumber(struct vcursor *a, struct vcursor *b)
{
	size_t na = vrun(a, is_digit), nb = vrun(b, is_digit);
	int r = CMP(na != 0, nb != 0);

	if (r)
		return r;
	while (na > 0 && *a->p == '0')
		a->p++, na--;
	while (nb > 0 && *b->p == '0')
		b->p++, nb--;
	r = CMP(na, nb);
	if (r == 0)
		r = SIGN(memcmp(a->p, b->p, na));
	a->p += na;
	b->p += nb;
	return r;
}

/* UAPI.10 step 8: letter runs compare bytewise ('B' < 'a'); a run that is a
 * prefix of the other is lower. */
static int valpha(struct vcursor *a, struct vcursor *b)
{
	size_t na = vrun(a, is_alpha), nb = vrun(b, is_alpha);
	int r = SIGN(memcmp(a->p, b->p, MIN(na, nb)));

	if (r == 0)
		r = CMP(na, nb);
	a->p += na;
	b->p += nb;
	return r;
}

static int vstep(struct vcursor *a, struct vcursor *b, bool *ret_done)
{
	int r;

	while (!vat_end(a) && !is_version_char(*a->p))
		a->p++;
	while (!vat_end(b) && !is_version_char(*b->p))
		b->p++;
	if ((r = vseparator(a, b, '~')))
		return r;
	if (vat_end(a) || vat_end(b)) { /* step 3: what has more left is higher */
		*ret_done = true;
		return CMP(!vat_end(a), !vat_end(b));
	}
	if ((r = vseparator(a, b, '-')) || (r = vseparator(a, b, '^')) || (r = vseparator(a, b, '.')))
		return r;
	if (is_digit(vpeek(a)) || is_digit(vpeek(b)))
		return vnumber(a, b);
	return valpha(a, b);
}

int bls_version_cmp_n(const char *a, size_t a_len, const char *b, size_t b_len)
{
	struct vcursor ca = { a, a + a_len }, cb = { b, b + b_len };
	bool done = false;

	/* Every round without a result consumes at least one byte of a or b:
	 * a valid character is a separator or starts a digit or letter run. */
	for (;;) {
		int r = vstep(&ca, &cb, &done);

		if (r || done)
			return r;
	}
}

int bls_version_cmp(const char *a, const char *b)
{
	a = a ? a : "";
	b = b ? b : "";
	return bls_version_cmp_n(a, strlen(a), b, strlen(b));
}

static bool ends_with_nocase(const char *s, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);

	if (n < k)
		return false;
	for (size_t i = 0; i < k; i++) {
		char c = s[n - k + i];

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c != suffix[i])
			return false;
	}
	return true;
}

/* UAPI.1 "Sorting" 4: the file name with its suffix removed. Type #1 ids
 * have ".conf" removed already; Type #2 ids are "name.efi", with "@..." after
 * it for a profile but 0 of a multi-profile UKI (bls_entry_uki_profile()). */
static size_t id_len_without_suffix(const struct bls_entry *e, const char *id)
{
	size_t n = strlen(id);

	/* the last '@': an os-release ID has none */
	for (size_t i = n; e->uki_profile && i-- > 0;)
		if (id[i] == '@') {
			n = i;
			break;
		}

	return ends_with_nocase(id, n, ".efi") ? n - 4 : n;
}

/* UAPI.1 "Boot counting": LEFT == 0 marks the entry "bad" (bls_count.h). */
static bool bls_entry_is_bad(const struct bls_entry *e)
{
	return e->counted && e->tries_left == 0;
}

/* Two entries alike but for their counters (systemd-boot's last rules): more
 * tries left first, then fewer tries done. An uncounted entry ranks as one
 * with unlimited tries, so the order stays total (a counted/uncounted tie
 * would break transitivity across three entries). */
static int bls_tries_cmp(const struct bls_entry *a, const struct bls_entry *b)
{
	uint64_t left_a = a->counted ? a->tries_left : UINT64_MAX, left_b = b->counted ? b->tries_left : UINT64_MAX;
	uint32_t done_a = a->counted ? a->tries_done : 0, done_b = b->counted ? b->tries_done : 0;

	if (left_a != left_b)
		return left_a > left_b ? -1 : 1;
	return CMP(done_a, done_b);
}

static bool is_set(const char *s)
{
	return s && *s;
}

/* UAPI.1 "Alphanumerical Order": strcmp, unset or empty lowest. */
static int alnum_cmp(const char *a, const char *b)
{
	return SIGN(strcmp(a ? a : "", b ? b : ""));
}

int bls_entry_cmp(const struct bls_entry *a, const struct bls_entry *b)
{
	const char *ida = a->id ? a->id : "", *idb = b->id ? b->id : "";
	bool ka = is_set(a->sort_key), kb = is_set(b->sort_key);
	int r = CMP(bls_entry_is_bad(a), bls_entry_is_bad(b)); /* rule 1: bad ones last */

	if (r)
		return r;
	if (ka != kb) /* rule 3: with a sort-key first */
		return ka ? -1 : 1;
	if (ka) { /* rule 2: sort-key, machine-id ascending, version newest first */
		if ((r = alnum_cmp(a->sort_key, b->sort_key)) || (r = alnum_cmp(a->machine_id, b->machine_id)))
			return r;
		if ((r = bls_version_cmp(b->version, a->version)))
			return r;
	}
	/* rule 4: file name, newest version first */
	r = bls_version_cmp_n(idb, id_len_without_suffix(b, idb), ida, id_len_without_suffix(a, ida));
	/* the profiles of one UKI in their order (systemd-boot) */
	return r ? r : (r = CMP(a->uki_profile, b->uki_profile)) ? r : bls_tries_cmp(a, b);
}

/* Insertion sort: stable, no allocation, and menus are short. */
void bls_sort(struct bls_entry **entries, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct bls_entry *e = entries[i];
		size_t j = i;

		for (; j > 0 && bls_entry_cmp(entries[j - 1], e) > 0; j--)
			entries[j] = entries[j - 1];
		entries[j] = e;
	}
}

size_t bls_find_default(struct bls_entry *const *entries, size_t n, const char *glob)
{
	size_t i;

	if (n == 0)
		return SIZE_MAX;
	i = glob && *glob ? bls_find_entry(entries, n, glob) : 0;
	return i == SIZE_MAX ? 0 : i;
}

size_t bls_find_entry(struct bls_entry *const *entries, size_t n, const char *glob)
{
	for (size_t i = 0; i < n; i++) {
		const struct bls_entry *e = entries[i];

		if (!e->id)
			continue;
		if (glob_match(glob, e->id))
			return i;
		/* systemd-boot ids keep ".conf": "default debian-*.conf" must work */
		if (e->type == BLS_TYPE1 && !ends_with_nocase(e->id, strlen(e->id), ".efi") &&
		    glob_match_suffixed(glob, e->id, ".conf"))
			return i;
	}
	return SIZE_MAX;
}
