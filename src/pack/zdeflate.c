/* zdeflate.h: Zopfli's exhaustive DEFLATE (Debian's libzopfli), about 4 %
 * smaller than zlib's level 9 on the loaders' images (docs/design.md
 * "Packed loaders"): the same decoder, and room in the size budget. */
#include "zdeflate.h"
#include <stdlib.h>
#include <string.h>
#include <zopfli/zopfli.h>

size_t zdeflate_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
	ZopfliOptions opt;
	unsigned char *out = NULL;
	size_t n = 0;

	ZopfliInitOptions(&opt);
	ZopfliCompress(&opt, ZOPFLI_FORMAT_DEFLATE, src, len, &out, &n);
	if (!out || n > cap)
		n = 0;
	else
		memcpy(dst, out, n);
	free(out);
	return n;
}
