/* Entry order and selection. Version comparison follows the UAPI "Version
 * Format Specification": segments of digits compare numerically, letters
 * lexically, '~' sorts before everything (even the end), and '-', '^', '.'
 * separate segments with fixed precedence. Order of entries follows the Boot
 * Loader Specification: sort-key, machine-id, version (newest first), then id. */
#include "bls.h"
#include "fmt.h"

static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static bool is_version_char(char c) { return is_digit(c) || is_alpha(c) || (c && strchr("~-^.", c)); }
static int sign(long v) { return (v > 0) - (v < 0); }

/* A separator present in only one string decides: that string is older. */
static bool separator(const char **a, const char **b, char sep, int *ret)
{
	if (**a != sep && **b != sep)
		return false;
	if ((**a == sep) != (**b == sep)) {
		*ret = **a == sep ? -1 : 1;
		return true;
	}
	(*a)++;
	(*b)++;
	return false;
}

static int compare_run(const char **a, const char **b)
{
	const char *ea = *a, *eb = *b;
	int r;

	if (is_digit(**a) || is_digit(**b)) {
		while (is_digit(*ea)) ea++;
		while (is_digit(*eb)) eb++;
		if ((ea == *a) != (eb == *b))
			return ea == *a ? -1 : 1; /* a number is newer than letters */
		while (**a == '0') (*a)++;
		while (**b == '0') (*b)++;
		r = sign((ea - *a) - (eb - *b));
		if (!r)
			r = sign(strncmp(*a, *b, (size_t)(ea - *a)));
	} else {
		while (is_alpha(*ea)) ea++;
		while (is_alpha(*eb)) eb++;
		r = sign(strncmp(*a, *b, (size_t)MIN(ea - *a, eb - *b)));
		if (!r)
			r = sign((ea - *a) - (eb - *b));
	}
	*a = ea;
	*b = eb;
	return r;
}

int bls_version_cmp(const char *a, const char *b)
{
	int r;

	if (!a || !b)
		return (a != NULL) - (b != NULL);
	for (;;) {
		while (*a && !is_version_char(*a)) a++;
		while (*b && !is_version_char(*b)) b++;
		if (separator(&a, &b, '~', &r))
			return r;
		if (!*a || !*b)
			return (*a != 0) - (*b != 0);
		if (separator(&a, &b, '-', &r) || separator(&a, &b, '^', &r) || separator(&a, &b, '.', &r))
			return r;
		if (!*a || !*b)
			return (*a != 0) - (*b != 0);
		r = compare_run(&a, &b);
		if (r)
			return r;
	}
}

static int strcmp_null(const char *a, const char *b)
{
	if (!a || !b)
		return (a != NULL) - (b != NULL);
	return strcmp(a, b);
}

int bls_entry_cmp(const struct bls_entry *a, const struct bls_entry *b)
{
	int r;

	if (!a->sort_key != !b->sort_key)
		return a->sort_key ? -1 : 1; /* entries with a sort-key come first */
	if (a->sort_key) {
		if ((r = strcmp_null(a->sort_key, b->sort_key)))
			return r;
		if ((r = strcmp_null(a->machine_id, b->machine_id)))
			return r;
		if ((r = bls_version_cmp(b->version, a->version)))
			return r; /* newest first */
	}
	return bls_version_cmp(b->id, a->id);
}

void bls_sort(struct bls_entry **entries, size_t n)
{
	/* Insertion sort: stable, no allocation, and menus are short. */
	for (size_t i = 1; i < n; i++) {
		struct bls_entry *e = entries[i];
		size_t j = i;

		for (; j > 0 && bls_entry_cmp(entries[j - 1], e) > 0; j--)
			entries[j] = entries[j - 1];
		entries[j] = e;
	}
}

/* One bracket expression at *p (just after '['); *p moves past ']'. */
static bool match_class(const char **p, char c)
{
	const char *s = *p;
	bool negate = *s == '!' || *s == '^', hit = false;

	if (negate)
		s++;
	for (bool first = true; *s && (first || *s != ']'); first = false, s++) {
		if (s[1] == '-' && s[2] && s[2] != ']') {
			hit |= c >= s[0] && c <= s[2];
			s += 2;
		} else {
			hit |= c == *s;
		}
	}
	*p = *s ? s + 1 : s;
	return hit != negate;
}

bool glob_match(const char *p, const char *s)
{
	const char *star_p = NULL, *star_s = NULL;

	/* Iterative: on a mismatch, retry from the last '*' one character later. */
	while (*s) {
		const char *next = p;
		if (*p == '*') {
			star_p = ++p;
			star_s = s;
			continue;
		}
		if (*p == '?' || (*p == '[' && (next = p + 1, match_class(&next, *s))) || (*p != '[' && *p == *s)) {
			p = *p == '[' ? next : p + 1;
			s++;
			continue;
		}
		if (!star_p)
			return false;
		p = star_p;
		s = ++star_s;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

size_t bls_find_default(struct bls_entry *const *entries, size_t n, const char *glob)
{
	if (n == 0)
		return SIZE_MAX;
	for (size_t i = 0; glob && i < n; i++) {
		_cleanup_free_ char *with_conf = fmt_asprintf("%s.conf", entries[i]->id);
		if (glob_match(glob, entries[i]->id) || (with_conf && glob_match(glob, with_conf)))
			return i;
	}
	return 0;
}
