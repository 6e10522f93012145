/* libFuzzer: the DEFLATE decoder of the packed loaders (src/core/inflate.c),
 * against zlib. The input: 2 bytes giving the output size, then a raw stream.
 * deflate_decode() must agree with zlib: where it succeeds, zlib decodes the same
 * stream to the same bytes (and ends the stream there). The input as data:
 * what zlib compresses, deflate_decode() gives back. */
#include "core/inflate.h"
#include <stdlib.h>
#include <zlib.h>

static void zlib_agrees(const uint8_t *src, size_t len, const uint8_t *out, size_t out_len)
{
	uint8_t *ref = malloc(out_len + 1);
	z_stream z = { .next_in = (Bytef *)src, .avail_in = (uInt)len, .next_out = ref,
		       .avail_out = (uInt)out_len + 1 };

	if (!ref || inflateInit2(&z, -15) != Z_OK)
		abort();
	if (inflate(&z, Z_FINISH) != Z_STREAM_END || z.total_out != out_len || memcmp(ref, out, out_len) != 0)
		abort();
	inflateEnd(&z);
	free(ref);
}

static void round_trip(const uint8_t *data, size_t size)
{
	uLong cap = compressBound(size) + 64;
	uint8_t *enc = malloc(cap), *dec = malloc(size ? size : 1);
	z_stream z = { .next_in = (Bytef *)data, .avail_in = (uInt)size, .next_out = enc, .avail_out = (uInt)cap };

	if (!enc || !dec || deflateInit2(&z, 9, Z_DEFLATED, -15, 9, size & 1 ? Z_FIXED : Z_DEFAULT_STRATEGY) != Z_OK ||
	    deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	if (deflate_decode(enc, z.total_out, dec, size) != EFI_SUCCESS || memcmp(dec, data, size) != 0)
		abort();
	deflateEnd(&z);
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
	if (out && deflate_decode(data + 2, size - 2, out, out_len) == EFI_SUCCESS)
		zlib_agrees(data + 2, size - 2, out, out_len);
	free(out);
	return 0;
}
