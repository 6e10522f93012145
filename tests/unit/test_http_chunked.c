/* Chunked transfer coding (src/core/http_chunked.c, RFC 9112 §7.1): exact
 * data bytes for good bodies fed whole, in two pieces split at every
 * position and a byte at a time (as net_http.c feeds it: each piece lands
 * after the data decoded so far); the exact reason for bad ones. */
#include "test.h"
#include "core/http_chunked.h"
#include <stdlib.h>

/* A body as nginx sends one, with what §7.1 allows besides: extensions,
 * upper and lower case hex, leading zeros, a trailer section. */
static const char good[] = "5\r\nhello\r\n"
			   "0b;name=value;x=\"q;\\\"\"\r\n, chunked\r\n\r\n"
			   "0018\r\n 0123456789abcdef\r\n\r\nxyz\r\n"
			   "0;last\r\n"
			   "Expires: never\r\nX-Sum: 1\r\n"
			   "\r\n";
static const char good_data[] = "hello, chunked\r\n 0123456789abcdef\r\n\r\nxyz";

/* @len bytes of @msg fed in pieces of at most @piece, the split at @split
 * first (0: none); the decoded bytes in @out, the reason or NULL. */
static const char *decode(const char *msg, size_t len, size_t split, size_t piece, uint8_t *out, size_t *ret_n,
			  bool *ret_done)
{
	struct http_chunked c = {};
	size_t in = 0, n = 0;

	while (in < len) {
		size_t k = MIN(len - in, split && in < split ? split - in : piece), got = 7;
		const char *why;

		memcpy(out + n, msg + in, k); /* the next piece lands after the data so far */
		why = http_chunked_feed(&c, out + n, k, &got);
		if (why)
			return why;
		CHECK(got <= k);
		n += got;
		in += k;
	}
	*ret_n = n;
	*ret_done = http_chunked_done(&c);
	return NULL;
}

TEST(http_chunked_good_body_any_split)
{
	uint8_t out[sizeof(good)];
	size_t len = sizeof(good) - 1, n;
	bool done;

	for (size_t split = 0; split < len; split++) {
		memset(out, 0xaa, sizeof(out));
		n = 0;
		CHECK(decode(good, len, split, len, out, &n, &done) == NULL);
		CHECK_EQ(n, sizeof(good_data) - 1);
		CHECK_MEM(out, good_data, sizeof(good_data) - 1);
		CHECK(done);
	}
	CHECK(decode(good, len, 0, 1, out, &n, &done) == NULL);
	CHECK_EQ(n, sizeof(good_data) - 1);
	CHECK_MEM(out, good_data, sizeof(good_data) - 1);
	CHECK(done);
	/* one byte short of the end: everything decoded, not done */
	CHECK(decode(good, len - 1, 0, len, out, &n, &done) == NULL);
	CHECK_EQ(n, sizeof(good_data) - 1);
	CHECK(!done);
}

TEST(http_chunked_empty_and_unfinished)
{
	uint8_t out[64];
	size_t n;
	bool done;

	CHECK(decode("0\r\n\r\n", 5, 0, 5, out, &n, &done) == NULL);
	CHECK_EQ(n, 0);
	CHECK(done);
	CHECK(decode("", 0, 0, 1, out, &n, &done) == NULL);
	CHECK(!done);
	CHECK(decode("3\r\nabc\r\n0\r\n", 11, 0, 11, out, &n, &done) == NULL); /* no final CRLF yet */
	CHECK_EQ(n, 3);
	CHECK(!done);
	CHECK(decode("3\r\nab", 5, 0, 5, out, &n, &done) == NULL); /* inside a chunk */
	CHECK_EQ(n, 2);
	CHECK(!done);
}

#define BAD(msg, why)                                                                              \
	do {                                                                                       \
		uint8_t out_[sizeof(msg)];                                                         \
		size_t n_;                                                                         \
		bool done_;                                                                        \
		CHECK_STR(decode(msg, sizeof(msg) - 1, 0, sizeof(msg), out_, &n_, &done_), why); \
		CHECK_STR(decode(msg, sizeof(msg) - 1, 0, 1, out_, &n_, &done_), why);           \
	} while (0)

TEST(http_chunked_garbage)
{
	BAD("\r\n", "a bad chunk size");
	BAD("x\r\n", "a bad chunk size");
	BAD(";ext\r\n", "a bad chunk size");
	BAD("-1\r\n", "a bad chunk size");
	BAD("0x5\r\nhello\r\n", "a bad chunk size");
	BAD("5 \r\nhello\r\n", "a bad chunk size");
	BAD(" 5\r\nhello\r\n", "a bad chunk size");
	BAD("5\nhello\r\n", "bad chunked coding");
	BAD("5\r\rhello\r\n", "bad chunked coding");
	BAD("5;ext\nhello\r\n", "bad chunked coding");
	BAD("5\r\nhello\n0\r\n\r\n", "bad chunked coding");
	BAD("5\r\nhelloX\r\n", "bad chunked coding");
	BAD("5\r\nhello\r\r", "bad chunked coding");
	BAD("5\r\nhello\r\n\r\n", "a bad chunk size"); /* an empty size line is not the last chunk */
	BAD("0\r\n\n", "bad chunked coding");
	BAD("0\r\nA: b\n\r\n", "bad chunked coding");
	BAD("0\r\nA: b\r\r\n", "bad chunked coding");
	BAD("0\r\n\rX", "bad chunked coding");
	BAD("0\r\n\r\nX", "bad chunked coding");
	BAD("0\r\n\r\n0\r\n\r\n", "bad chunked coding");
}

TEST(http_chunked_sizes)
{
	uint8_t out[64];
	struct http_chunked c = {};
	size_t n = 7;
	char big[] = "FFFFFFFF\r\nabc";

	/* 32 bits: taken, only counts what is to come */
	CHECK(http_chunked_feed(&c, (uint8_t *)big, sizeof(big) - 1, &n) == NULL);
	CHECK_EQ(n, 3);
	CHECK_EQ(c.left, UINT32_MAX - 3);
	CHECK_MEM(big, "abc", 3);
	/* leading zeros do not count as bits */
	CHECK(decode("00000000000000000000001\r\nA\r\n0\r\n\r\n", 33, 0, 64, out, &n, (bool[]){ 0 }) == NULL);
	CHECK_EQ(n, 1);
	/* 4 GiB (33 bits), 65 bits, and sizes that would wrap 32 or 64 bits */
	BAD("100000000\r\n", "a chunk size too large");
	BAD("FFFFFFFF0\r\n", "a chunk size too large");
	BAD("10000000000000000\r\n", "a chunk size too large");
	BAD("1FFFFFFFFFFFFFFFF\r\n", "a chunk size too large");
	BAD("FFFFFFFFFFFFFFFFF\r\n", "a chunk size too large");
	BAD("ffffffffffffffff0;x\r\n", "a chunk size too large");
}

TEST(http_chunked_framing_bounded)
{
	size_t len = HTTP_CHUNKED_FRAMING_MAX + 16;
	char *msg = malloc(len);
	uint8_t *out = malloc(len);
	size_t n;
	bool done;

	/* an extension that never ends */
	memcpy(msg, "1;", 2);
	memset(msg + 2, 'x', len - 2);
	CHECK_STR(decode(msg, len, 0, len, out, &n, &done), "bad chunked coding");
	/* exactly the limit: taken */
	memcpy(msg + HTTP_CHUNKED_FRAMING_MAX - 2, "\r\n", 2);
	CHECK(decode(msg, HTTP_CHUNKED_FRAMING_MAX + 1, 0, len, out, &n, &done) == NULL);
	CHECK_EQ(n, 1);
	/* trailer lines without end */
	memcpy(msg, "0\r\n", 3);
	for (size_t i = 3; i + 4 <= len; i += 4)
		memcpy(msg + i, "A:\r\n", 4);
	CHECK_STR(decode(msg, len, 0, 100, out, &n, &done), "bad chunked coding");
	free(msg);
	free(out);
}
