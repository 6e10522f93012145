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

/* Dynamic blocks (§3.2.7) written here from code lengths: the shapes of
 * Huffman code zlib refuses (over-subscribed, incomplete) and the ones it
 * takes (no distance code, one distance code of one bit, a literal/length
 * code of end-of-block alone). Each shape is checked against zlib as well,
 * since fuzz_inflate holds the decoder to zlib. */
struct bit_writer {
	uint8_t buf[192];
	size_t n_bits;
};

static void put_bits(struct bit_writer *w, unsigned v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, w->n_bits++)
		if (v >> i & 1)
			w->buf[w->n_bits / 8] |= (uint8_t)(1u << w->n_bits % 8);
}

/* §3.2.2: the canonical code of @sym, most significant bit first. */
static void put_code(struct bit_writer *w, const uint8_t *lengths, unsigned n, unsigned sym)
{
	unsigned len = lengths[sym], code = 0;

	for (unsigned l = 1; l < len; l++) {
		for (unsigned i = 0; i < n; i++)
			code += lengths[i] == l;
		code <<= 1;
	}
	for (unsigned i = 0; i < sym; i++)
		code += lengths[i] == len;
	while (len--)
		put_bits(w, code >> len & 1, 1);
}

enum { CL_COMPLETE, CL_INCOMPLETE, CL_ONE_BIT };
#define N_LIT 258 /* literals, end of block, 257: length 3 */
#define N_DST 4
#define END 0xffff
#define UNUSED 0xfffe /* the unused one-bit code of a one-code distance code */

struct shape {
	const char *what;
	bool ok;            /* zlib takes it */
	uint16_t lit[4][2]; /* { symbol, code length }, up to a length 0 */
	uint8_t dist[N_DST];
	int cl;
	uint16_t data[8];   /* symbols up to END; after 257, a distance symbol */
	const char *out;    /* what the symbols spell */
};

static size_t dynamic_block(const struct shape *t, uint8_t *buf)
{
	static const uint8_t order[19] = { 16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15 };
	struct bit_writer w = { { 0 }, 0 };
	uint8_t cl[19] = { 0 }, len[N_LIT + N_DST] = { 0 };

	for (unsigned i = 0; i < 4 && t->lit[i][1]; i++)
		len[t->lit[i][0]] = (uint8_t)t->lit[i][1];
	memcpy(len + N_LIT, t->dist, N_DST);
	if (t->cl == CL_ONE_BIT)
		memset(len, 9, sizeof(len));
	/* code lengths 0..15 as 4-bit codes: complete, or without 15; or 9 alone */
	for (unsigned i = 0; i < 16; i++)
		cl[i] = t->cl == CL_ONE_BIT ? i == 9 : t->cl == CL_INCOMPLETE && i == 15 ? 0 : 4;
	put_bits(&w, 1, 1); /* BFINAL */
	put_bits(&w, 2, 2); /* BTYPE dynamic */
	put_bits(&w, N_LIT - 257, 5);
	put_bits(&w, N_DST - 1, 5);
	put_bits(&w, 19 - 4, 4);
	for (unsigned i = 0; i < 19; i++)
		put_bits(&w, cl[order[i]], 3);
	for (unsigned i = 0; i < N_LIT + N_DST; i++)
		put_code(&w, cl, 19, len[i]);
	for (unsigned i = 0; t->data[i] != END; i++) {
		if (t->data[i] == UNUSED)
			put_bits(&w, 1, 1);
		else if (i > 0 && t->data[i - 1] == 257)
			put_code(&w, len + N_LIT, N_DST, t->data[i]);
		else
			put_code(&w, len, N_LIT, t->data[i]);
	}
	memcpy(buf, w.buf, sizeof(w.buf));
	return (w.n_bits + 7) / 8 + 2; /* two bytes more: a refusal is never for want of input */
}

static bool zlib_decodes(const uint8_t *src, size_t len, const char *want)
{
	uint8_t out[16];
	z_stream z = { .next_in = (Bytef *)src, .avail_in = (uInt)len, .next_out = out, .avail_out = sizeof(out) };
	bool ok;

	if (inflateInit2(&z, -15) != Z_OK)
		return false;
	ok = inflate(&z, Z_FINISH) == Z_STREAM_END && z.total_out == strlen(want) &&
	     memcmp(out, want, z.total_out) == 0;
	inflateEnd(&z);
	return ok;
}

TEST(inflate_refuses_what_zlib_refuses)
{
	static const struct shape shapes[] = {
		{ "no distance code, literals only", true, { { 'a', 1 }, { 256, 1 } }, { 0 }, CL_COMPLETE,
		  { 'a', 'a', 256, END }, "aa" },
		{ "one distance code of one bit", true, { { 'a', 1 }, { 256, 2 }, { 257, 2 } }, { 0, 0, 1 },
		  CL_COMPLETE, { 'a', 'a', 'a', 257, 2, 256, END }, "aaaaaa" },
		{ "end of block alone, one bit", true, { { 256, 1 } }, { 0 }, CL_COMPLETE, { 256, END }, "" },
		{ "a match with no distance code", false, { { 'a', 1 }, { 256, 2 }, { 257, 2 } }, { 0 },
		  CL_COMPLETE, { 'a', 257, UNUSED, END }, "aaaa" },
		{ "the unused code of one distance code", false, { { 'a', 1 }, { 256, 2 }, { 257, 2 } },
		  { 0, 1 }, CL_COMPLETE, { 'a', 257, UNUSED, END }, "aaaa" },
		{ "literal/length code without end of block", false, { { 'a', 1 } }, { 0 }, CL_COMPLETE,
		  { 'a', END }, "a" },
		{ "incomplete literal/length code", false, { { 'a', 2 }, { 256, 2 } }, { 0 }, CL_COMPLETE,
		  { 'a', 256, END }, "a" },
		{ "over-subscribed literal/length code", false, { { 'a', 1 }, { 'b', 1 }, { 256, 1 } }, { 0 },
		  CL_COMPLETE, { 'a', 256, END }, "a" },
		{ "incomplete distance code, two codes", false, { { 'a', 1 }, { 256, 2 }, { 257, 2 } }, { 2, 2 },
		  CL_COMPLETE, { 'a', 257, 0, 256, END }, "aaaa" },
		{ "incomplete distance code, one code of two bits", false, { { 'a', 1 }, { 256, 2 }, { 257, 2 } },
		  { 2 }, CL_COMPLETE, { 'a', 257, 0, 256, END }, "aaaa" },
		{ "over-subscribed distance code", false, { { 'a', 1 }, { 256, 2 }, { 257, 2 } }, { 1, 1, 1 },
		  CL_COMPLETE, { 'a', 257, 0, 256, END }, "aaaa" },
		{ "incomplete code-length code", false, { { 'a', 1 }, { 256, 1 } }, { 0 }, CL_INCOMPLETE,
		  { 'a', 256, END }, "a" },
		/* every length 9: an incomplete literal/length code too */
		{ "code-length code of one bit", false, { { 0 } }, { 0 }, CL_ONE_BIT, { 'a', 256, END }, "a" },
	};
	uint8_t buf[192], out[16];

	for (size_t i = 0; i < ARRAY_SIZE(shapes); i++) {
		const struct shape *t = &shapes[i];
		size_t n = dynamic_block(t, buf), want = strlen(t->out);

		if (zlib_decodes(buf, n, t->out) != t->ok)
			test_fail(__FILE__, __LINE__, "%s: zlib %s it", t->what, t->ok ? "refuses" : "takes");
		memset(out, 0, sizeof(out));
		if ((deflate_decode(buf, n, out, want) == EFI_SUCCESS) != t->ok)
			test_fail(__FILE__, __LINE__, "%s: %s", t->what, t->ok ? "refused" : "not refused");
		else if (t->ok)
			CHECK_MEM(out, t->out, want);
	}
}
