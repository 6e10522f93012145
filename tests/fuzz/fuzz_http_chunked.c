/* libFuzzer: chunked transfer coding (src/core/http_chunked.c), bytes from
 * an HTTP server. The input is a body; decoded whole, and again in pieces
 * whose sizes come from the input's own bytes, each piece put after the data
 * decoded so far (as net_http.c does). Checks: no read or write outside the
 * pieces (ASan); never more data than bytes in; the same data, the same
 * reason and the same end either way; once done, any further byte refused. */
#include "core/http_chunked.h"
#include <stdlib.h>
#include <string.h>

struct result {
	const char *why;
	size_t n;
	bool done;
};

/* @data fed in pieces of @piece(i) bytes into @out; the result. */
static struct result run(const uint8_t *data, size_t size, bool split, uint8_t *out)
{
	struct http_chunked c = {};
	struct result r = { NULL, 0, false };

	for (size_t in = 0, i = 0; in < size; i++) {
		size_t k = split ? MIN(size - in, (size_t)data[i % size] % 17 + 1) : size, got;
		uint8_t *piece = malloc(k); /* exactly @k bytes: ASan sees any overread */

		memcpy(piece, data + in, k);
		r.why = http_chunked_feed(&c, piece, k, &got);
		if (!r.why) {
			if (got > k)
				__builtin_trap();
			memcpy(out + r.n, piece, got);
			r.n += got;
		}
		free(piece);
		in += k;
		if (r.why)
			break;
	}
	r.done = http_chunked_done(&c);
	if (r.done && !r.why) {
		uint8_t extra = 'x';
		size_t got;

		if (!http_chunked_feed(&c, &extra, 1, &got))
			__builtin_trap();
	}
	return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *a = malloc(size + 1), *b = malloc(size + 1);
	struct result whole = run(data, size, false, a), pieces = run(data, size, true, b);

	if ((whole.why == NULL) != (pieces.why == NULL) || (whole.why && strcmp(whole.why, pieces.why)))
		__builtin_trap();
	if (!whole.why && (whole.n != pieces.n || whole.done != pieces.done || memcmp(a, b, whole.n)))
		__builtin_trap();
	free(a);
	free(b);
	return 0;
}
