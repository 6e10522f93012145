/* The LZMA decoder of the packed loaders (src/core/lzma.c), against liblzma,
 * the packer's compressor (src/pack/lzma_enc.c): its streams at several
 * presets over text, noise, zeros and the real loader images (these also by
 * the packer's compressor, no bigger than liblzma's best preset), decoded here
 * and compared with the input, and refused when cut, or given a size one off;
 * then streams that liblzma writes but the loaders' format does not allow
 * (an end marker, a preset dictionary), a first byte other than 0, a last
 * byte changed, bytes after the end, nothing. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/lzma.h"
#include "pack/lzma_enc.h"
#include "core/platform.h"
#include <lzma.h>
#include <stdlib.h>

/* liblzma's raw LZMA in the decoder's properties; @eopm writes the end marker
 * after the data; @dict is a preset dictionary the stream may refer into. */
static size_t encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, uint32_t preset, bool eopm,
		     const char *dict)
{
	lzma_options_lzma opt;
	lzma_filter filters[2] = { { .id = LZMA_FILTER_LZMA1EXT, .options = &opt }, { .id = LZMA_VLI_UNKNOWN } };
	size_t n = 0;

	if (lzma_lzma_preset(&opt, preset))
		return 0;
	opt.lc = LZMA_LC;
	opt.lp = LZMA_LP;
	opt.pb = LZMA_PB;
	opt.dict_size = len < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN : (uint32_t)len; /* not 64 MiB: quick */
	opt.ext_flags = eopm ? LZMA_LZMA1EXT_ALLOW_EOPM : 0;
	lzma_set_ext_size(opt, len);
	if (dict) {
		opt.preset_dict = (const uint8_t *)dict;
		opt.preset_dict_size = (uint32_t)strlen(dict);
	}
	return lzma_raw_buffer_encode(filters, NULL, src, len, dst, &n, cap) == LZMA_OK ? n : 0;
}

/* Preset 0, 6 and 9 extreme; with @packer, then the packer's own compressor,
 * whose stream must be no bigger than 9 extreme's. */
static void round_trip_as(const char *what, const uint8_t *src, size_t len, bool packer)
{
	static const uint32_t presets[] = { 0, 6, 9 | LZMA_PRESET_EXTREME };
	size_t cap = len + len / 8 + 1024, n = 0, prev = 0;
	uint8_t *enc = malloc(cap), *dec = malloc(len + 2);

	for (size_t p = 0; p < ARRAY_SIZE(presets) + packer; p++, prev = n) {
		n = p < ARRAY_SIZE(presets) ? encode(src, len, enc, cap, presets[p], false, NULL) :
					      lzma_enc_raw(src, len, enc, cap, LZMA_LC, LZMA_LP);
		if (!n) {
			test_fail(__FILE__, __LINE__, "%s: liblzma failed", what);
			continue;
		}
		if (p == ARRAY_SIZE(presets) && n > prev)
			test_fail(__FILE__, __LINE__, "%s: the packer's %zu bytes, over 9e's %zu", what, n, prev);
		memset(dec, 0xa5, len + 2);
		if (lzma_decode(enc, n, dec, len) != EFI_SUCCESS || memcmp(dec, src, len) != 0 || dec[len] != 0xa5)
			test_fail(__FILE__, __LINE__, "%s: round %zu: not decoded back", what, p);
		if (lzma_decode(enc, n - 1, dec, len) == EFI_SUCCESS ||
		    lzma_decode(enc, n - 1 - (n > 100 ? n / 3 : 0), dec, len) == EFI_SUCCESS)
			test_fail(__FILE__, __LINE__, "%s: round %zu: a cut stream decoded", what, p);
		if (packer)
			continue; /* see round_trip_packed() */
		if (len && lzma_decode(enc, n, dec, len - 1) == EFI_SUCCESS)
			test_fail(__FILE__, __LINE__, "%s: round %zu: decoded one byte short", what, p);
		if (lzma_decode(enc, n, dec, len + 1) == EFI_SUCCESS)
			test_fail(__FILE__, __LINE__, "%s: round %zu: decoded one byte long", what, p);
	}
	free(enc);
	free(dec);
}

static void round_trip(const char *what, const uint8_t *src, size_t len)
{
	round_trip_as(what, src, len, false);
}

/* Without an end marker a size one off is refused almost always, not always:
 * where the last symbols leave the range wide, one more byte of zero bits
 * decodes without reading input and the code stays 0 (a build of the IA-32
 * loader did). The synthetic inputs above are fixed and checked for it; the
 * loader images change with every build, so they are not. */
static void round_trip_packed(const char *what, const uint8_t *src, size_t len)
{
	round_trip_as(what, src, len, true);
}

TEST(lzma_decodes_what_liblzma_encodes)
{
	size_t big = 300000;
	uint8_t *noise = malloc(big), *text = malloc(big), *zeros = calloc(1, big);
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
	round_trip_packed("one byte, packed", text, 1);
	fixture_each_loader(round_trip_packed);
	free(noise);
	free(text);
	free(zeros);
}

TEST(lzma_refuses_what_the_format_does_not_allow)
{
	static const char dict[] = "handoff boots Linux";
	const uint8_t *text = (const uint8_t *)"Linux boots handoff: handoff boots Linux";
	size_t len = strlen((const char *)text), n;
	uint8_t enc[256], dec[64];

	/* the end marker: after the data the code is not 0 (the next bit, is_match 1, is above the bound) */
	n = encode(text, len, enc, sizeof(enc), 6, true, NULL);
	CHECK(n > 0);
	CHECK_EQ(lzma_decode(enc, n, dec, len), EFI_COMPROMISED_DATA);
	/* ... and read as a match, it is a distance of 0xffffffff */
	CHECK_EQ(lzma_decode(enc, n, dec, len + 1), EFI_COMPROMISED_DATA);
	/* a match into a preset dictionary is a distance before the output's start */
	n = encode(text, len, enc, sizeof(enc), 6, false, dict);
	CHECK(n > 0);
	CHECK_EQ(lzma_decode(enc, n, dec, len), EFI_COMPROMISED_DATA);
	/* a good stream, then damaged: its first byte, bytes after its end */
	n = encode(text, len, enc, sizeof(enc), 6, false, NULL);
	CHECK_EQ(lzma_decode(enc, n, dec, len), EFI_SUCCESS);
	CHECK_MEM(dec, text, len);
	CHECK_EQ(lzma_decode(enc, n + 1, dec, len), EFI_COMPROMISED_DATA);
	enc[n - 1] ^= 1; /* the code does not end at 0 */
	CHECK_EQ(lzma_decode(enc, n, dec, len), EFI_COMPROMISED_DATA);
	enc[n - 1] ^= 1;
	enc[0] = 1;
	CHECK_EQ(lzma_decode(enc, n, dec, len), EFI_COMPROMISED_DATA);
	CHECK_EQ(lzma_decode(enc, 0, dec, 0), EFI_COMPROMISED_DATA);
	/* five bytes of 0: a stream that decodes nothing */
	memset(enc, 0, 5);
	CHECK_EQ(lzma_decode(enc, 5, dec, 0), EFI_SUCCESS);
	CHECK_EQ(lzma_decode(enc, 4, dec, 0), EFI_COMPROMISED_DATA);
}
