/* Shell-style glob matching for loader.conf's "default" (loader.conf(5): "a
 * glob pattern to select the default entry"). Iterative, with one backtrack
 * point for the last '*': O(pattern * string) time whatever the input, no
 * recursion (a pattern like "*a*a*a*b" cannot blow up). */
#include "bls.h"

/* The subject: @s followed by @suffix, without building the string. */
struct glob_subject {
	const char *s, *suffix;
	size_t s_len, len;
};

static char subject_at(const struct glob_subject *g, size_t i)
{
	return i < g->s_len ? g->s[i] : g->suffix[i - g->s_len];
}

/* A "[...]" class at @p (just after '['). Returns the character after the
 * closing ']' and whether @c is in the class, or NULL when no ']' closes it
 * (then '[' is an ordinary character, as in fnmatch). */
static const char *class_match(const char *p, char c, bool *ret_in)
{
	unsigned char uc = (unsigned char)c;
	bool negate = *p == '!' || *p == '^', in = false;

	if (negate)
		p++;
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		unsigned char lo = (unsigned char)*p, hi = lo;

		if (p[1] == '-' && p[2] && p[2] != ']') {
			hi = (unsigned char)p[2];
			p += 3;
		} else
			p++;
		if (lo <= uc && uc <= hi)
			in = true;
	}
	if (*p != ']')
		return NULL;
	*ret_in = in != negate;
	return p + 1;
}

/* One pattern element other than '*' against @c. On a match, returns the
 * pattern position after the element; otherwise NULL. */
static const char *element_match(const char *p, char c)
{
	const char *next;
	bool in;

	if (*p == '?')
		return p + 1;
	if (*p == '[' && (next = class_match(p + 1, c, &in)))
		return in ? next : NULL;
	return *p == c ? p + 1 : NULL;
}

static bool glob_run(const char *p, const struct glob_subject *g)
{
	const char *star_p = NULL, *next;
	size_t i = 0, star_i = 0;

	while (i < g->len) {
		if (*p == '*') {
			star_p = ++p; /* remember where to retry: '*' takes one more char */
			star_i = i;
		} else if (*p && (next = element_match(p, subject_at(g, i)))) {
			p = next;
			i++;
		} else if (star_p) {
			p = star_p;
			i = ++star_i;
		} else
			return false;
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

bool glob_match_suffixed(const char *pattern, const char *s, const char *suffix)
{
	struct glob_subject g = { .s = s, .suffix = suffix ? suffix : "" };

	g.s_len = strlen(s);
	g.len = g.s_len + strlen(g.suffix);
	return glob_run(pattern, &g);
}

bool glob_match(const char *pattern, const char *s)
{
	return glob_match_suffixed(pattern, s, "");
}
