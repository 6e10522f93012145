/* The LZ4 block codec (src/core/lz4.c). Decoder inputs are written out by
 * hand from the lz4 project's "LZ4 Block Format Description"; the encoder is
 * checked by round trips and by a walk over its sequences written here,
 * which also checks the format's end rules. (check_binaries.py decodes the
 * packed loaders with python3-lz4, the reference implementation.) */
#include "test.h"
#include "core/lz4.h"
#include <stdlib.h>

static EFI_STATUS decode(const uint8_t *src, size_t len, uint8_t *dst, size_t dst_len)
{
	memset(dst, 0xee, dst_len);
	return lz4_decode(src, len, dst, dst_len);
}

TEST(lz4_decode_literals_and_overlapping_match)
{
	/* "a", then 8 bytes from offset 1 (overlapping), then "b" */
	static const uint8_t block[] = { 0x14, 'a', 0x01, 0x00, 0x10, 'b' };
	static const uint8_t lits[] = { 0x50, 'h', 'e', 'l', 'l', 'o' };
	uint8_t out[16];

	CHECK_EQ(decode(block, sizeof(block), out, 10), EFI_SUCCESS);
	CHECK_MEM(out, "aaaaaaaaab", 10);
	CHECK_EQ(decode(lits, sizeof(lits), out, 5), EFI_SUCCESS);
	CHECK_MEM(out, "hello", 5);
	CHECK_EQ(decode((const uint8_t *)"\0", 1, out, 0), EFI_SUCCESS); /* an empty block: one empty token */
}

TEST(lz4_decode_extended_lengths)
{
	/* 15 + 3 = 18 literals, then a match of 4 + 15 + 255 + 1 = 275 from offset 18, then 1 literal */
	uint8_t block[64], out[300], want[300];
	size_t n = 0;

	block[n++] = 0xff;
	block[n++] = 3;
	for (int i = 0; i < 18; i++)
		block[n++] = (uint8_t)('A' + i);
	block[n++] = 18;
	block[n++] = 0;
	block[n++] = 255;
	block[n++] = 1;
	block[n++] = 0x10;
	block[n++] = 'z';
	for (int i = 0; i < 18 + 275; i++)
		want[i] = (uint8_t)('A' + i % 18);
	want[18 + 275] = 'z';
	CHECK_EQ(decode(block, n, out, 294), EFI_SUCCESS);
	CHECK_MEM(out, want, 294);
}

TEST(lz4_decode_refuses_what_does_not_fit)
{
	static const struct {
		const char *why;
		uint8_t block[8];
		size_t len, dst_len;
	} bad[] = {
		{ "offset 0", { 0x10, 'a', 0x00, 0x00, 0x00 }, 5, 5 },
		{ "offset before the start", { 0x10, 'a', 0x02, 0x00, 0x00 }, 5, 5 },
		{ "literals past the block", { 0x30, 'a', 'b' }, 3, 3 },
		{ "literals past the output", { 0x30, 'a', 'b', 'c' }, 4, 2 },
		{ "match past the output", { 0x10, 'a', 0x01, 0x00, 0x00 }, 5, 4 },
		{ "offset cut short", { 0x10, 'a', 0x01 }, 3, 5 },
		{ "length bytes cut short", { 0xf0, 255 }, 2, 300 },
		{ "output ends short", { 0x20, 'a', 'b' }, 3, 3 },
		{ "match with nothing after it", { 0x10, 'a', 0x01, 0x00 }, 4, 5 },
	};
	uint8_t out[512];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (decode(bad[i].block, bad[i].len, out, bad[i].dst_len) != EFI_COMPROMISED_DATA)
			test_fail(__FILE__, __LINE__, "not refused: %s", bad[i].why);
}

/* Walks the sequences of @block written here from the format description:
 * checks the end rules and returns the decoded size, or -1. */
static long walk(const uint8_t *b, size_t len)
{
	size_t p = 0, out = 0, last_start = 0, last_end = 0;
	bool any_match = false;

	while (p < len) {
		size_t lit = b[p] >> 4, match = b[p] & 15;

		p++;
		if (lit == 15)
			do
				lit += b[p];
			while (b[p++] == 255);
		p += lit;
		out += lit;
		if (p == len)
			break;
		p += 2;
		if (match == 15)
			do
				match += b[p];
			while (b[p++] == 255);
		last_start = out;
		any_match = true;
		out += match + 4;
		last_end = out;
	}
	if (p != len)
		return -1;
	/* no match starts in the last 12 bytes, the last 5 are literals */
	if (any_match && (last_start + 12 > out || last_end + 5 > out))
		return -1;
	return (long)out;
}

static void round_trip(const uint8_t *src, size_t len, const char *what)
{
	uint8_t *enc = malloc(lz4_encode_bound(len)), *dec = malloc(len ? len : 1);
	size_t n = lz4_encode(src, len, enc);

	if (!n || n > lz4_encode_bound(len))
		test_fail(__FILE__, __LINE__, "%s: encoded size %zu", what, n);
	else if (walk(enc, n) != (long)len)
		test_fail(__FILE__, __LINE__, "%s: sequences do not add up to %zu bytes or break end rules",
			  what, len);
	else if (lz4_decode(enc, n, dec, len) != EFI_SUCCESS || memcmp(dec, src, len) != 0)
		test_fail(__FILE__, __LINE__, "%s: does not decode to the input", what);
	free(enc);
	free(dec);
}

TEST(lz4_encode_round_trips)
{
	size_t big = 200000;
	uint8_t *buf = calloc(1, big);
	uint32_t x = 12345;

	round_trip(buf, 0, "empty");
	round_trip((const uint8_t *)"hello world", 11, "shorter than a match may start");
	round_trip(buf, big, "zeros");
	for (size_t i = 0; i < big; i++)
		buf[i] = (uint8_t)((x = x * 1103515245 + 12345) >> 24);
	round_trip(buf, big, "noise");
	for (size_t i = 0; i < big; i++)
		buf[i] = (uint8_t)"the quick brown fox jumps over the lazy dog "[i % 44] ^ (i % 1000 == 0);
	round_trip(buf, big, "text with sparse changes");
	free(buf);
}

TEST(lz4_encode_compresses)
{
	size_t big = 100000, n;
	uint8_t *zeros = calloc(1, big), *enc = malloc(lz4_encode_bound(big));

	n = lz4_encode(zeros, big, enc);
	CHECK(n > 0 && n < 500); /* one match of ~100000 bytes: ~400 length bytes */
	free(zeros);
	free(enc);
}
