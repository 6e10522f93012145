/* The one strict UTF-8 decoder (Unicode 15.0 Table 3-7) and the UTF-8 <->
 * UTF-16 conversions built on it: every class of ill-formed input, surrogate
 * pairs both ways, and the exact code units and bytes produced. */
#include "test.h"
#include "core/str16.h"
#include <stdlib.h>

/* utf8_decode() of @len bytes: *@ret_len its result, the code point or ~0. */
static uint32_t decode(const char *s, size_t len, size_t *ret_len)
{
	uint32_t c = ~0u;

	*ret_len = utf8_decode((const uint8_t *)s, len, &c);
	return *ret_len ? c : ~0u;
}

TEST(utf8_decode_well_formed_boundaries)
{
	static const struct {
		const char *s;
		size_t len;
		uint32_t cp;
	} ok[] = {
		{ "\x00", 1, 0 }, { "\x7f", 1, 0x7f },
		{ "\xc2\x80", 2, 0x80 }, { "\xdf\xbf", 2, 0x7ff },
		{ "\xe0\xa0\x80", 3, 0x800 }, { "\xed\x9f\xbf", 3, 0xd7ff }, { "\xee\x80\x80", 3, 0xe000 },
		{ "\xef\xbf\xbd", 3, 0xfffd }, { "\xef\xbf\xbf", 3, 0xffff },
		{ "\xf0\x90\x80\x80", 4, 0x10000 }, { "\xf0\x9f\x98\x80", 4, 0x1f600 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
	};
	size_t len;

	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		CHECK_EQ(decode(ok[i].s, ok[i].len + 1, &len), ok[i].cp); /* a byte after it is not read into it */
		CHECK_EQ(len, ok[i].len);
	}
}

TEST(utf8_decode_refuses_every_ill_formed_class)
{
	static const struct {
		const char *s;
		size_t len;
	} bad[] = {
		{ "\xc0\x80", 2 }, { "\xc1\xbf", 2 },                  /* overlong 2-byte (the overlong NUL) */
		{ "\xe0\x80\x80", 3 }, { "\xe0\x9f\xbf", 3 },          /* overlong 3-byte */
		{ "\xf0\x80\x80\x80", 4 }, { "\xf0\x8f\xbf\xbf", 4 },  /* overlong 4-byte */
		{ "\xed\xa0\x80", 3 }, { "\xed\xbf\xbf", 3 },          /* surrogates U+D800, U+DFFF */
		{ "\xf4\x90\x80\x80", 4 }, { "\xf5\x80\x80\x80", 4 },  /* above U+10FFFF */
		{ "\xf8\x88\x80\x80\x80", 5 }, { "\xfe", 1 }, { "\xff", 1 }, /* no lead byte of any length */
		{ "\x80", 1 }, { "\xbf", 1 },                          /* stray continuation bytes */
		{ "\xc3", 1 }, { "\xe2\x82", 2 }, { "\xf0\x9f\x98", 3 }, /* truncated by the end */
		{ "\xc3" "A", 2 }, { "\xe2\x82" "A", 3 }, { "\xe2" "A\x82", 3 }, /* ... or by the next character */
	};
	size_t len;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(decode(bad[i].s, bad[i].len, &len), ~0u);
		CHECK_EQ(len, 0);
	}
	CHECK_EQ(decode("\xe2\x82\xac", 2, &len), ~0u); /* the length given ends it */
	CHECK_EQ(decode("", 0, &len), ~0u);
}

TEST(utf8_check_and_problem_name_the_offset)
{
	static const char good[] = "quiet \xc3\xa9t\xc3\xa9 \xf0\x9f\x98\x80", evil[] = "quiet\xc0\x80 init=/bin/evil";
	char buf[UTF8_PROBLEM_MAX];
	size_t at = 99;

	CHECK(utf8_check("", 0, &at));
	CHECK(utf8_check(good, strlen(good), &at));
	CHECK_EQ(at, 99);
	CHECK(!utf8_check(evil, strlen(evil), &at));
	CHECK_EQ(at, 5);
	CHECK(!utf8_check("ab\xe2\x82", 4, &at));
	CHECK_EQ(at, 2);
	CHECK(utf8_problem("ok", 2, buf) == NULL);
	CHECK_STR(utf8_problem(evil, strlen(evil), buf), "invalid UTF-8 at byte offset 5 (0xc0)");
	CHECK_STR(utf8_problem("a\xed\xa0\x80", 4, buf), "invalid UTF-8 at byte offset 1 (0xed)");
	CHECK_STR(utf8_problem("\xc3\xa9\x80", 3, buf), "invalid UTF-8 at byte offset 2 (0x80)");
}

TEST(utf8_next_never_passes_the_nul)
{
	const char s[] = "\xf0\x9f\x98\x80" "a\xe2\x82";
	const char *p = s;

	CHECK_EQ(utf8_next(&p), 0x1f600);
	CHECK_EQ(utf8_next(&p), 'a');
	CHECK_EQ(utf8_next(&p), UNICODE_REPLACEMENT); /* 0xe2: cut by the NUL */
	CHECK_EQ(utf8_next(&p), UNICODE_REPLACEMENT); /* 0x82: a stray continuation byte */
	CHECK_EQ(p, s + sizeof(s) - 1);
}

TEST(utf8_encode_each_length)
{
	char out[UTF8_MAX];

	CHECK_EQ(utf8_encode(0x41, out), 1);
	CHECK_MEM(out, "A", 1);
	CHECK_EQ(utf8_encode(0xe9, out), 2);
	CHECK_MEM(out, "\xc3\xa9", 2);
	CHECK_EQ(utf8_encode(0x20ac, out), 3);
	CHECK_MEM(out, "\xe2\x82\xac", 3);
	CHECK_EQ(utf8_encode(0x10ffff, out), 4);
	CHECK_MEM(out, "\xf4\x8f\xbf\xbf", 4);
}

TEST(str8_to_16_surrogate_pairs_and_paths)
{
	static const CHAR16 want[] = { '\\', 'a', 0xe9, 0x20ac, 0xd83d, 0xde00, 0xdbff, 0xdfff, 0 };
	CHAR16 *s = str8_to_16("/a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf", /* path= */ true);

	CHECK(s != NULL);
	CHECK_MEM(s, want, sizeof(want));
	mem_free(s);
}

/* Issue 21: the overlong NUL once ended the UTF-16 string, so PCR 9 and 12
 * showed "quiet" while the kernel read on. Now no input ends it early. */
TEST(str8_to_16_ill_formed_bytes_become_u_fffd)
{
	static const CHAR16 want[] = { 'q', 0xfffd, 0xfffd, ' ', 'x', 0xfffd, 0xfffd, 0xfffd, 0xfffd, 'y', 0 };
	CHAR16 *s = str8_to_16("q\xc0\x80 x\xed\xa0\x80\xfey", /* path= */ false);

	CHECK(s != NULL);
	CHECK_MEM(s, want, sizeof(want));
	CHECK_EQ(strlen16(s), 10);
	mem_free(s);
}

TEST(str16le_to_8_pairs_combined_lone_halves_replaced)
{
	static const uint8_t pair[] = { 'a', 0, 0x3d, 0xd8, 0x00, 0xde, 0xac, 0x20, 0, 0, 'x', 0 };
	static const uint8_t lone[] = { 0x3d, 0xd8, 'b', 0, 0x00, 0xde, 0x3d, 0xd8 }; /* high, b, low, high at end */
	static const uint8_t two_highs[] = { 0x3d, 0xd8, 0x3d, 0xd8, 0x00, 0xde };
	char *s;

	s = str16le_to_8(pair, sizeof(pair) / 2); /* stops at the NUL */
	CHECK_STR(s, "a\xf0\x9f\x98\x80\xe2\x82\xac");
	mem_free(s);
	s = str16le_to_8(lone, sizeof(lone) / 2);
	CHECK_STR(s, "\xef\xbf\xbd" "b" "\xef\xbf\xbd\xef\xbf\xbd");
	mem_free(s);
	s = str16le_to_8(two_highs, 3);
	CHECK_STR(s, "\xef\xbf\xbd\xf0\x9f\x98\x80");
	mem_free(s);
	s = str16le_to_8(pair + 2, 1); /* @max cuts a pair in half: no pair, U+FFFD */
	CHECK_STR(s, "\xef\xbf\xbd");
	mem_free(s);
	s = str16le_to_8(pair + 1, 2); /* unaligned: the bytes, not the CHAR16s, count */
	CHECK_STR(s, "\xe3\xb4\x80\xc3\x98"); /* U+3D00 U+00D8 */
	mem_free(s);
}

TEST(str16_round_trip_is_identity_for_well_formed_text)
{
	static const char *const texts[] = { "", "root=/dev/vda1 quiet", "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
					     "\xf4\x8f\xbf\xbf\xef\xbf\xbf\xee\x80\x80\xed\x9f\xbf" };

	for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		CHAR16 *w = str8_to_16(texts[i], /* path= */ false);
		char *back = w ? str16_to_8(w, SIZE_MAX) : NULL;

		CHECK_STR(back, texts[i]);
		mem_free(back);
		mem_free(w);
	}
}
