/* Boot counting in entry file names (UAPI.1 "Boot counting"): parsing
 * "NAME+LEFT[-DONE]SUFFIX" and producing the next name, the good one (no
 * counter) and the bad one (+0-DONE). */
#include "bls_count.h"
#include "fmt.h"

static bool ends_with_nocase(const char *s, size_t n, const char *suffix, size_t k)
{
	if (n < k)
		return false;
	for (size_t i = 0; i < k; i++) {
		char a = s[n - k + i], b = suffix[i];

		if (a >= 'A' && a <= 'Z')
			a = (char)(a - 'A' + 'a');
		if (b >= 'A' && b <= 'Z')
			b = (char)(b - 'A' + 'a');
		if (a != b)
			return false;
	}
	return true;
}

/* Digits at @s[*pos..@end) into a value <= BLS_COUNT_MAX; at least one. */
static bool parse_digits(const char *s, size_t *pos, size_t end, uint32_t *ret)
{
	uint64_t v = 0;
	size_t start = *pos;

	while (*pos < end && s[*pos] >= '0' && s[*pos] <= '9') {
		v = v * 10 + (uint64_t)(s[*pos] - '0');
		if (v > BLS_COUNT_MAX)
			return false;
		(*pos)++;
	}
	*ret = (uint32_t)v;
	return *pos > start;
}

void bls_count_parse(const char *name, const char *suffix, struct bls_counter *ret)
{
	size_t n = strlen(name), k = strlen(suffix), end, plus, pos;
	bool has_suffix = n > k && ends_with_nocase(name, n, suffix, k); /* ".conf" alone keeps its name */
	struct bls_counter c = { 0 };

	end = has_suffix ? n - k : n;
	*ret = (struct bls_counter){ .base_len = end, .suffix_pos = end };
	for (plus = end; plus > 0 && name[plus - 1] != '+'; plus--)
		;
	if (plus < 2 || !has_suffix) /* no '+', an empty NAME, or no suffix */
		return;
	pos = plus;
	if (!parse_digits(name, &pos, end, &c.left))
		return;
	if (pos < end && name[pos] == '-') {
		pos++;
		if (!parse_digits(name, &pos, end, &c.done))
			return;
	}
	if (pos != end)
		return; /* "+3x": the counter must end where the suffix starts */
	c.counted = true;
	c.base_len = plus - 1;
	c.suffix_pos = end;
	*ret = c;
}

/* @c describes a counter inside @name (a caller may pass one of another name). */
static bool counter_ok(const char *name, const struct bls_counter *c)
{
	return c->counted && c->base_len < c->suffix_pos && c->suffix_pos <= strlen(name);
}

char *bls_count_next_name(const char *name, const struct bls_counter *c)
{
	if (!counter_ok(name, c))
		return NULL;
	return fmt_asprintf("%.*s+%u-%u%s", (int)c->base_len, name, c->left ? c->left - 1 : 0,
			    c->done < BLS_COUNT_MAX ? c->done + 1 : BLS_COUNT_MAX, name + c->suffix_pos);
}

char *bls_count_good_name(const char *name, const struct bls_counter *c)
{
	if (!counter_ok(name, c))
		return NULL;
	return fmt_asprintf("%.*s%s", (int)c->base_len, name, name + c->suffix_pos);
}

char *bls_count_bad_name(const char *name, const struct bls_counter *c)
{
	if (!counter_ok(name, c))
		return NULL;
	return fmt_asprintf("%.*s+0-%u%s", (int)c->base_len, name, c->done, name + c->suffix_pos);
}

bool bls_count_same_entry(const char *name, const char *suffix, const char *id)
{
	struct bls_counter c;
	size_t n = strlen(name), k = strlen(suffix);

	if (!ends_with_nocase(name, n, suffix, k))
		return false;
	bls_count_parse(name, suffix, &c);
	return c.base_len == strlen(id) && memcmp(name, id, c.base_len) == 0;
}
