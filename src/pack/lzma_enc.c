/* lzma_enc.h: liblzma (Debian's liblzma-dev) as the packer's compressor:
 * preset 9 extreme, a dictionary the size of the input (the whole image is in
 * reach, and no more memory than that is asked for), and, as liblzma's parser
 * takes what its match finder offers and stops looking at nice_len, several
 * match finders and nice_len values tried, the smallest stream kept: on the
 * loaders' images 0.1-0.2 % below the preset's own (bt4, 273), for about 2 s
 * of build time. The same input gives the same stream. */
#include "lzma_enc.h"
#include "core/lzma.h"
#include <lzma.h>
#include <stdlib.h>
#include <string.h>

static const lzma_match_finder finders[] = { LZMA_MF_BT2, LZMA_MF_BT3, LZMA_MF_BT4 };
static const uint32_t nice_lens[] = { 16, 24, 32, 48, 64, 128, 273 };

static size_t encode(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, lzma_match_finder mf, uint32_t nice,
		     unsigned lc, unsigned lp)
{
	lzma_options_lzma opt;
	lzma_filter filters[2] = { { .id = LZMA_FILTER_LZMA1EXT, .options = &opt }, { .id = LZMA_VLI_UNKNOWN } };
	size_t n = 0;

	if (lzma_lzma_preset(&opt, 9 | LZMA_PRESET_EXTREME))
		return 0;
	opt.lc = lc;
	opt.lp = lp;
	opt.pb = LZMA_PB;
	opt.mf = mf;
	opt.nice_len = nice;
	opt.dict_size = len < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN : len > (1u << 30) ? 1u << 30 : (uint32_t)len;
	opt.ext_flags = 0; /* no end marker */
	lzma_set_ext_size(opt, len);
	if (lzma_raw_buffer_encode(filters, NULL, src, len, dst, &n, cap) != LZMA_OK)
		return 0;
	return n;
}

size_t lzma_enc_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, unsigned lc, unsigned lp)
{
	uint8_t *tmp = malloc(cap ? cap : 1);
	size_t best = 0;

	for (size_t f = 0; tmp && f < sizeof(finders) / sizeof(finders[0]); f++)
		for (size_t i = 0; i < sizeof(nice_lens) / sizeof(nice_lens[0]); i++) {
			size_t n = encode(src, len, tmp, cap, finders[f], nice_lens[i], lc, lp);

			if (n && (!best || n < best)) {
				memcpy(dst, tmp, n);
				best = n;
			}
		}
	free(tmp);
	return best;
}
