/* libFuzzer: the LZ4 block codec of the packed loaders (src/core/lz4.c).
 * The input as a block (after 2 bytes giving the output size): lz4_decode()
 * never reads or writes outside its buffers (ASan), and what it accepts
 * re-encodes and decodes to the same bytes. The input as data: lz4_encode()
 * stays within lz4_encode_bound() and lz4_decode() gives the input back. */
#include "core/lz4.h"
#include <stdlib.h>

static void round_trip(const uint8_t *data, size_t size)
{
	size_t bound = lz4_encode_bound(size), n;
	uint8_t *enc = malloc(bound ? bound : 1), *dec = malloc(size ? size : 1);

	n = lz4_encode(data, size, enc);
	if (!n || n > bound || lz4_decode(enc, n, dec, size) != EFI_SUCCESS || memcmp(dec, data, size) != 0)
		abort();
	free(enc);
	free(dec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t out_len;
	uint8_t *out;

	if (size >= 2) {
		out_len = (size_t)data[0] | (size_t)data[1] << 8;
		out = malloc(out_len ? out_len : 1);
		if (lz4_decode(data + 2, size - 2, out, out_len) == EFI_SUCCESS)
			round_trip(out, out_len);
		free(out);
	}
	round_trip(data, size);
	return 0;
}
