/* libFuzzer: boot counters in file names (src/core/bls_count.c). The first
 * byte picks the suffix (".conf", ".efi" or none), the rest is the name.
 * Checked: the parse stays inside the name, the next name parses back with
 * LEFT one lower (not below 0) and DONE one higher (saturating), the same
 * NAME and suffix, and bls_count_same_entry() agrees with the parse; the
 * good name is NAME and the suffix, the bad one parses back as +0-DONE. */
#include "core/bls_count.h"
#include <stdlib.h>

#define NAME_MAX_LEN 512

static const char *const suffixes[] = { ".conf", ".efi", "" };

static void check_next(const char *name, const char *suffix, const struct bls_counter *c)
{
	struct bls_counter n;
	char *next = bls_count_next_name(name, c);

	if (!c->counted) {
		if (next)
			__builtin_trap();
		return;
	}
	if (!next)
		__builtin_trap();
	bls_count_parse(next, suffix, &n);
	if (!n.counted || n.base_len != c->base_len || memcmp(next, name, c->base_len) != 0)
		__builtin_trap();
	if (n.left != (c->left ? c->left - 1 : 0) || n.done != (c->done < BLS_COUNT_MAX ? c->done + 1 : BLS_COUNT_MAX))
		__builtin_trap();
	if (strcmp(next + n.suffix_pos, name + c->suffix_pos) != 0)
		__builtin_trap();
	free(next);
}

/* handoff bless: good is NAME and the suffix, bad parses back as +0-DONE of the same NAME. */
static void check_marks(const char *name, const char *suffix, const struct bls_counter *c)
{
	char *good = bls_count_good_name(name, c), *bad = bls_count_bad_name(name, c);
	struct bls_counter b;

	if (!c->counted) {
		if (good || bad)
			__builtin_trap();
		return;
	}
	if (!good || !bad || strlen(good) != c->base_len + strlen(name + c->suffix_pos) ||
	    memcmp(good, name, c->base_len) != 0 || strcmp(good + c->base_len, name + c->suffix_pos) != 0)
		__builtin_trap();
	bls_count_parse(bad, suffix, &b);
	if (!b.counted || b.base_len != c->base_len || memcmp(bad, name, c->base_len) != 0 || b.left != 0 ||
	    b.done != c->done || strcmp(bad + b.suffix_pos, name + c->suffix_pos) != 0)
		__builtin_trap();
	free(good);
	free(bad);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *suffix;
	struct bls_counter c;
	char *name, *id;
	size_t n = 0;

	if (size < 1 || size > NAME_MAX_LEN)
		return 0;
	suffix = suffixes[data[0] % 3];
	name = malloc(size);
	for (size_t i = 1; i < size; i++)
		if (data[i]) /* a file name holds no NUL */
			name[n++] = (char)data[i];
	name[n] = '\0';
	bls_count_parse(name, suffix, &c);
	if (c.base_len > n || c.suffix_pos > n || c.base_len > c.suffix_pos)
		__builtin_trap();
	if (c.counted && (c.left > BLS_COUNT_MAX || c.done > BLS_COUNT_MAX || name[c.base_len] != '+'))
		__builtin_trap();
	check_next(name, suffix, &c);
	check_marks(name, suffix, &c);
	id = malloc(c.base_len + 1);
	memcpy(id, name, c.base_len);
	id[c.base_len] = '\0';
	if (*suffix && c.suffix_pos < n && !bls_count_same_entry(name, suffix, id))
		__builtin_trap();
	free(id);
	free(name);
	return 0;
}
