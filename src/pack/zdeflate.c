/* zdeflate.h: level 9, the largest window (15 bits) and memory level (9),
 * negative window bits for a raw stream. */
#include "zdeflate.h"
#include <zlib.h>

size_t zdeflate_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap)
{
	z_stream z = { .next_in = (Bytef *)src, .avail_in = (uInt)len, .next_out = dst, .avail_out = (uInt)cap };
	size_t n = 0;

	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return 0;
	if (deflate(&z, Z_FINISH) == Z_STREAM_END)
		n = z.total_out;
	deflateEnd(&z);
	return n;
}
