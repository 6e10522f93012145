/* libFuzzer: the UTF-8 <-> UTF-16 conversions of src/core/str16.c against
 * the reference of utf8_ref.h. The input as UTF-8: utf8_check() agrees with
 * Table 3-7 (offset included), str8_to_16() gives exactly the reference's
 * code units (U+FFFD per ill-formed byte, pairs above U+FFFF, never an early
 * NUL), and back through str16_to_8() a well-formed input comes out
 * unchanged. The input as UTF-16LE: str16le_to_8() always gives well-formed
 * UTF-8, which converts back to the input's units with lone surrogates
 * replaced. utf8_next() never steps past the NUL. */
#include "core/str16.h"
#include "utf8_ref.h"
#include <stdlib.h>

/* The reference's UTF-16 for the C string @s: one unit per byte at most. */
static size_t ref_to_16(const uint8_t *s, uint16_t *out)
{
	size_t o = 0, n = strlen((const char *)s);

	for (size_t i = 0, len; i < n; i += len) {
		uint32_t c = 0xfffd;

		len = ref_utf8_seq(s + i, n - i);
		if (len)
			c = ref_utf8_value(s + i, len);
		else
			len = 1;
		if (c >= 0x10000) {
			out[o++] = (uint16_t)(0xd800 + (c - 0x10000) / 0x400);
			c = 0xdc00 + (c - 0x10000) % 0x400;
		}
		out[o++] = (uint16_t)c;
	}
	out[o] = 0;
	return o;
}

static void check_utf8_input(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *back;
	uint16_t *want = malloc((size + 1) * sizeof(uint16_t));
	size_t at = SIZE_MAX, ref_at = SIZE_MAX, n_want;
	bool valid = ref_utf8_valid(data, size, &ref_at);
	CHAR16 *w;

	if (utf8_check((const char *)data, size, &at) != valid || (!valid && at != ref_at))
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	n_want = ref_to_16((const uint8_t *)s, want);
	w = str8_to_16(s, /* path= */ false);
	if (!w || strlen16(w) != n_want || memcmp(w, want, (n_want + 1) * sizeof(CHAR16)) != 0)
		abort();
	back = str16_to_8(w, SIZE_MAX);
	if (!back || !ref_utf8_valid((const uint8_t *)back, strlen(back), NULL))
		abort();
	if (ref_utf8_valid((const uint8_t *)s, strlen(s), NULL) && strcmp(back, s) != 0)
		abort(); /* the round trip is the identity for well-formed text */
	mem_free(back);
	mem_free(w);
	free(want);
	free(s);
}

static void check_utf16_input(const uint8_t *data, size_t size)
{
	size_t n = size / 2, units = 0;
	char *s = str16le_to_8(data, n);
	CHAR16 *back;

	if (!s || !ref_utf8_valid((const uint8_t *)s, strlen(s), NULL))
		abort();
	back = str8_to_16(s, /* path= */ false);
	if (!back)
		abort();
	/* the input's units up to its NUL, each lone surrogate as U+FFFD */
	for (size_t i = 0; i < n; i++) {
		uint16_t c = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);
		uint16_t next = i + 1 < n ? (uint16_t)(data[2 * i + 2] | data[2 * i + 3] << 8) : 0;
		bool pair = c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;

		if (c == 0)
			break;
		if (!pair && c >= 0xd800 && c <= 0xdfff)
			c = 0xfffd;
		if (back[units++] != c || (pair && back[units++] != next))
			abort();
		i += pair;
	}
	if (back[units] != 0 || strlen(s) > 3 * units)
		abort();
	mem_free(back);
	mem_free(s);
}

static void check_next(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);
	const char *p = s, *end;

	memcpy(s, data, size);
	s[size] = '\0';
	end = s + strlen(s);
	while (*p) {
		uint32_t c = utf8_next(&p);

		if (p > end || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
			abort();
	}
	free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_utf8_input(data, size);
	check_utf16_input(data, size);
	check_next(data, size);
	return 0;
}
