/* The DEFLATE decoder of the packed loaders (src/core/inflate.c). Streams
 * written by hand from RFC 1951 (a stored block, fixed-code literals and an
 * overlapping match), then zlib's streams at every level and strategy over
 * text, noise, zeros and the real loader image, decoded here and compared
 * with the input; then malformed streams, each refused. zlib is the
 * reference the packer uses (src/pack/mkpack.c). */
#include "test.h"
#include "core/inflate.h"
#include "core/platform.h"
#include <stdlib.h>
#include <zlib.h>

static size_t zlib_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, int level, int strategy)
{
	z_stream z = { .next_in = (Bytef *)src, .avail_in = (uInt)len, .next_out = dst, .avail_out = (uInt)cap };
	size_t n = 0;

	if (deflateInit2(&z, level, Z_DEFLATED, -15, 8, strategy) != Z_OK)
		return 0;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		n = z.total_out;
	deflateEnd(&z);
	return n;
}

TEST(inflate_hand_written_streams)
{
	/* §3.2.4: final stored block, LEN 5, NLEN ~5 */
	static const uint8_t stored[] = { 0x01, 0x05, 0x00, 0xfa, 0xff, 'h', 'e', 'l', 'l', 'o' };
	/* §3.2.6: final fixed block, 'a' x4 as literals (0x61 is 8 bits 10010001), end of block */
	static const uint8_t literals[] = { 0x4b, 0x4c, 0x4c, 0x4c, 0x04, 0x00 };
	/* 'a', then length 4 at distance 1: the copy overlaps what it writes */
	static const uint8_t overlap[] = { 0x4b, 0x4c, 0x04, 0x02, 0x00, 0x00 };
	uint8_t out[8];

	CHECK_EQ(deflate_decode(stored, sizeof(stored), out, 5), EFI_SUCCESS);
	CHECK_MEM(out, "hello", 5);
	CHECK_EQ(deflate_decode(literals, sizeof(literals), out, 4), EFI_SUCCESS);
	CHECK_MEM(out, "aaaa", 4);
	memset(out, 0, sizeof(out));
	CHECK_EQ(deflate_decode(overlap, sizeof(overlap), out, 5), EFI_SUCCESS);
	CHECK_MEM(out, "aaaaa", 5);
	/* the same streams with one byte of output too many or too few */
	CHECK_EQ(deflate_decode(stored, sizeof(stored), out, 4), EFI_COMPROMISED_DATA);
	CHECK_EQ(deflate_decode(stored, sizeof(stored), out, 6), EFI_COMPROMISED_DATA);
	CHECK_EQ(deflate_decode(overlap, sizeof(overlap), out, 4), EFI_COMPROMISED_DATA);
	CHECK_EQ(deflate_decode(overlap, sizeof(overlap), out, 6), EFI_COMPROMISED_DATA);
}

static void round_trip(const char *what, const uint8_t *src, size_t len)
{
	static const int strategies[] = { Z_DEFAULT_STRATEGY, Z_FILTERED, Z_HUFFMAN_ONLY, Z_RLE, Z_FIXED };
	size_t cap = len + len / 8 + 1024;
	uint8_t *enc = malloc(cap), *dec = malloc(len + 1);

	for (int level = 0; level <= 9; level += 3)
		for (size_t s = 0; s < ARRAY_SIZE(strategies); s++) {
			size_t n = zlib_raw(src, len, enc, cap, level, strategies[s]);

			if (!n) {
				test_fail(__FILE__, __LINE__, "%s: zlib failed", what);
				continue;
			}
			memset(dec, 0xa5, len + 1);
			if (deflate_decode(enc, n, dec, len) != EFI_SUCCESS || memcmp(dec, src, len) != 0 ||
			    dec[len] != 0xa5)
				test_fail(__FILE__, __LINE__, "%s: level %d strategy %d: not decoded back", what,
					  level, strategies[s]);
			/* every stream cut short is refused */
			if (deflate_decode(enc, n - 1 - (n > 100 ? n / 3 : 0), dec, len) == EFI_SUCCESS)
				test_fail(__FILE__, __LINE__, "%s: level %d strategy %d: a cut stream decoded", what,
					  level, strategies[s]);
		}
	free(enc);
	free(dec);
}

TEST(inflate_decodes_what_zlib_encodes)
{
	size_t big = 300000, len;
	uint8_t *noise = malloc(big), *text = malloc(big), *zeros = calloc(1, big), *loader;
	static const char words[] = "handoff boots Linux by three schemes: stub, handover, legacy. ";

	srand(7);
	for (size_t i = 0; i < big; i++) {
		noise[i] = (uint8_t)rand();
		text[i] = (uint8_t)words[i % (sizeof(words) - 1)] ^ (rand() % 17 == 0 ? 0x20 : 0);
	}
	round_trip("empty", zeros, 0);
	round_trip("one byte", text, 1);
	round_trip("noise", noise, big);
	round_trip("text", text, big);
	round_trip("zeros", zeros, big);
	loader = test_read_file("build/efi/handoff-image.efi", &len);
	if (!loader)
		test_fail(__FILE__, __LINE__, "build/efi/handoff-image.efi: not built");
	else
		round_trip("the loader", loader, len);
	free(loader);
	free(noise);
	free(text);
	free(zeros);
}

TEST(inflate_refuses_malformed_streams)
{
	static const struct {
		const char *what;
		uint8_t stream[8];
		size_t len, out;
	} bad[] = {
		{ "block type 3", { 0x07, 0x00 }, 2, 1 },
		{ "stored NLEN not ~LEN", { 0x01, 0x01, 0x00, 0xff, 0xfe, 'a' }, 6, 1 },
		{ "stored bytes past the input", { 0x01, 0x05, 0x00, 0xfa, 0xff, 'a' }, 6, 5 },
		{ "distance before the start", { 0x4b, 0x04, 0x42, 0x00 }, 4, 4 },
		{ "fixed literal/length code 286", { 0x1b, 0x03 }, 2, 1 },
		{ "a non-final block, then nothing", { 0x00, 0x01, 0x00, 0xfe, 0xff, 'a' }, 6, 1 },
		/* dynamic: HLIT 257, HDIST 1, HCLEN 4; four code-length codes of 1 bit (over-subscribed) */
		{ "over-subscribed code-length code", { 0x05, 0x00, 0x92, 0x04 }, 4, 1 },
		/* dynamic: HLIT 287 */
		{ "HLIT over 286", { 0xf5, 0x00, 0x00, 0x00 }, 4, 1 },
		{ "empty input", { 0 }, 0, 0 },
	};
	uint8_t out[16];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		if (deflate_decode(bad[i].stream, bad[i].len, out, bad[i].out) != EFI_COMPROMISED_DATA)
			test_fail(__FILE__, __LINE__, "not refused: %s", bad[i].what);
}
