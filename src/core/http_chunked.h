/* Chunked transfer coding (RFC 9112 §7.1), decoded as the bytes arrive: the
 * firmware's HTTP client hands a chunked body over as it came, size lines
 * and all (README "Network boot"); src/efi/net_http.c feeds it here. */
#ifndef CORE_HTTP_CHUNKED_H
#define CORE_HTTP_CHUNKED_H

#include "platform.h"

/* Framing bytes (a size line with its extensions, the trailer section)
 * taken in a row before chunk data comes: more is refused, so a server
 * cannot keep a download going forever without sending data. */
#define HTTP_CHUNKED_FRAMING_MAX 8192u

/* Where a decoder is; zeroed, it expects the first chunk's size line. */
struct http_chunked {
	uint32_t left;    /* the chunk size being read, then its data bytes still to come */
	uint32_t framing; /* framing bytes since the last data byte */
	uint8_t state;
	bool cr;          /* the line's CR came */
	bool text;        /* the line has bytes before its CRLF */
};

/**
 * http_chunked_feed() - decode @n more bytes of a chunked body at @buf, in
 * place: the chunk data among them moves to the start of @buf. Chunk
 * extensions (§7.1.1) and trailer fields (§7.1.2) are skipped; every line
 * ends in CRLF. After an error the decoder is not fed again.
 * Return: NULL with *@ret_n data bytes now at @buf, or why the coding is
 * wrong for "the answer has ...": "a bad chunk size" (the size line), "a
 * chunk size too large" (4 GiB or more), "bad chunked coding" (no CRLF after
 * chunk data, a CR or LF alone, bytes after the end, HTTP_CHUNKED_FRAMING_MAX).
 */
const char *http_chunked_feed(struct http_chunked *c, uint8_t *buf, size_t n, size_t *ret_n);

/** http_chunked_done() - the last chunk and the empty line after its trailer section came. */
bool http_chunked_done(const struct http_chunked *c);

#endif
