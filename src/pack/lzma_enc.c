/* lzma_enc.h: liblzma (Debian's liblzma-dev) as the packer's compressor:
 * preset 9 extreme (the longest matches), a dictionary the size of the input
 * (the whole image is in reach, and no more memory than that is asked for). */
#include "lzma_enc.h"
#include "core/lzma.h"
#include <lzma.h>

size_t lzma_enc_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
	lzma_options_lzma opt;
	lzma_filter filters[2] = { { .id = LZMA_FILTER_LZMA1EXT, .options = &opt }, { .id = LZMA_VLI_UNKNOWN } };
	size_t n = 0;

	if (lzma_lzma_preset(&opt, 9 | LZMA_PRESET_EXTREME))
		return 0;
	opt.lc = LZMA_LC;
	opt.lp = LZMA_LP;
	opt.pb = LZMA_PB;
	opt.dict_size = len < LZMA_DICT_SIZE_MIN ? LZMA_DICT_SIZE_MIN : len > (1u << 30) ? 1u << 30 : (uint32_t)len;
	opt.ext_flags = 0; /* no end marker */
	lzma_set_ext_size(opt, len);
	if (lzma_raw_buffer_encode(filters, NULL, src, len, dst, &n, cap) != LZMA_OK)
		return 0;
	return n;
}
