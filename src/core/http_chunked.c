/* Chunked transfer coding (RFC 9112 §7.1), decoded in place (http_chunked.h).
 * Everything but chunk data is a line ending in CRLF: a chunk size line,
 * the empty line after chunk data, trailer fields up to an empty line; a
 * byte at a time through those, chunk data moved in runs. A chunk size
 * counts the data bytes expected and nothing else: no allocation or copy is
 * sized by it. */
#include "http_chunked.h"
#include "sha256.h"

enum {
	CH_SIZE,    /* a chunk size line: 1*HEXDIG [ ";" extensions ] */
	CH_EXT,     /* its extensions, skipped up to CR */
	CH_DATA,
	CH_CRLF,    /* the empty line after chunk data */
	CH_TRAILER, /* a trailer field, or the empty line that ends the body */
	CH_DONE,
};

#define BAD_SIZE "a bad chunk size"
#define BAD "bad chunked coding"

/* A line's LF: what comes after it. */
static const char *line_end(struct http_chunked *c)
{
	bool text = c->text;

	c->text = false;
	if (c->state <= CH_EXT && !text)
		return BAD_SIZE;
	if (c->state <= CH_EXT)
		c->state = c->left ? CH_DATA : CH_TRAILER; /* size 0: the last chunk */
	else
		c->state = c->state == CH_CRLF ? CH_SIZE : text ? CH_TRAILER : CH_DONE;
	return NULL;
}

/* One byte outside chunk data; extensions (§7.1.1) and trailer fields
 * (§7.1.2) are skipped. */
static const char *step(struct http_chunked *c, uint8_t b)
{
	int d = hex_value((char)b);

	if (++c->framing > HTTP_CHUNKED_FRAMING_MAX || c->state == CH_DONE || c->cr != (b == '\n'))
		return BAD; /* a CR is followed by LF, an LF follows a CR */
	c->cr = b == '\r';
	if (b == '\n')
		return line_end(c);
	if (c->cr)
		return NULL;
	if (c->state == CH_CRLF)
		return BAD;
	if (c->state == CH_SIZE) {
		if (b == ';' && c->text)
			c->state = CH_EXT;
		else if (d < 0)
			return BAD_SIZE;
		else if (c->left >> 28)
			return "a chunk size too large"; /* 4 GiB or more: nothing the loader takes is near */
		else
			c->left = c->left << 4 | (unsigned)d;
	}
	c->text = true;
	return NULL;
}

const char *http_chunked_feed(struct http_chunked *c, uint8_t *buf, size_t n, size_t *ret_n)
{
	size_t in = 0, out = 0;

	while (in < n) {
		const char *why;

		if (c->state == CH_DATA) {
			size_t run = MIN(n - in, (size_t)c->left);

			memmove(buf + out, buf + in, run);
			out += run;
			in += run;
			c->left -= run;
			c->framing = 0;
			if (!c->left)
				c->state = CH_CRLF;
			continue;
		}
		why = step(c, buf[in++]);
		if (why)
			return why;
	}
	*ret_n = out;
	return NULL;
}

bool http_chunked_done(const struct http_chunked *c)
{
	return c->state == CH_DONE;
}
