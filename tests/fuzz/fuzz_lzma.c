/* libFuzzer: the LZMA decoder of the packed loaders (src/core/lzma.c), against
 * liblzma. The input: 2 bytes giving the output size, then a raw stream.
 * lzma_decode() must agree with liblzma: where it succeeds, liblzma decodes
 * the same stream (same properties, that size, no end marker) to the same
 * bytes. The input as data: what liblzma compresses, lzma_decode() gives back. */
#include "core/lzma.h"
#include <lzma.h>
#include <stdlib.h>

static lzma_filter *filters(lzma_options_lzma *opt, uint32_t preset, size_t size)
{
	static lzma_filter f[2];

	if (lzma_lzma_preset(opt, preset))
		abort();
	opt->lc = LZMA_LC;
	opt->lp = LZMA_LP;
	opt->pb = LZMA_PB;
	opt->dict_size = size < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN : (uint32_t)size; /* every distance; fast */
	opt->ext_flags = 0;
	lzma_set_ext_size(*opt, size);
	f[0] = (lzma_filter){ .id = LZMA_FILTER_LZMA1EXT, .options = opt };
	f[1] = (lzma_filter){ .id = LZMA_VLI_UNKNOWN };
	return f;
}

static void liblzma_agrees(const uint8_t *src, size_t len, const uint8_t *out, size_t out_len)
{
	lzma_options_lzma opt;
	uint8_t *ref = malloc(out_len + 1);
	size_t in_pos = 0, out_pos = 0;

	if (!ref || lzma_raw_buffer_decode(filters(&opt, 0, out_len), NULL, src, &in_pos, len, ref, &out_pos,
					   out_len + 1) != LZMA_OK ||
	    out_pos != out_len || memcmp(ref, out, out_len) != 0)
		abort();
	free(ref);
}

static void round_trip(const uint8_t *data, size_t size)
{
	lzma_options_lzma opt;
	size_t cap = size + size / 8 + 64, n = 0;
	uint8_t *enc = malloc(cap), *dec = malloc(size ? size : 1);

	if (!enc || !dec ||
	    lzma_raw_buffer_encode(filters(&opt, size & 1 ? 0 : 6, size), NULL, data, size, enc, &n, cap) != LZMA_OK)
		abort();
	if (lzma_decode(enc, n, dec, size) != EFI_SUCCESS || memcmp(dec, data, size) != 0)
		abort();
	free(enc);
	free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t out_len;
	uint8_t *out;

	round_trip(data, size);
	if (size < 2)
		return 0;
	out_len = get_le16(data);
	out = malloc(out_len + 1);
	if (out && lzma_decode(data + 2, size - 2, out, out_len) == EFI_SUCCESS)
		liblzma_agrees(data + 2, size - 2, out, out_len);
	free(out);
	return 0;
}
