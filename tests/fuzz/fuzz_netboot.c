/* libFuzzer: network boot paths and URLs (src/core/netboot.c). The input is
 * a location (the loader's URL or TFTP boot file, from the firmware) and a
 * path (from an entry on the server), NUL-separated; then the same bytes as
 * an HTTP Content-Length value and status index. Checks: the root is a
 * prefix of the location ending in '/' (or empty, or the URL up to its host's
 * end: corpus query-right-after-host); a
 * normalized path never climbs (no ".." component) and normalizing is
 * idempotent; a joined URL is the root plus only unreserved characters, '/'
 * and %XX escapes; an http(s) URL holds no control character, space or byte
 * beyond ASCII. The input's lines "Name: value" are also an answer's headers:
 * a length is taken only from exactly one Content-Length, without
 * Transfer-Encoding, chunked only from one Transfer-Encoding without a
 * Content-Length, and a redirect only from exactly one Location. The path
 * is also a Location (src/core/http_redirect.c) resolved against an http(s)
 * location: a URL taken is http(s) of the same scheme, shorter than
 * NET_URL_MAX, without dot segments left, resolving to itself; one refused
 * is named only when it is a URL (corpus redirect-*: malformed Locations;
 * ipv6-*, redirect-ipv6-*: bracketed IPv6 hosts, RFC 3986 §3.2.2). */
#include "core/http_redirect.h"
#include "core/netboot.h"
#include <stdlib.h>
#include <string.h>

static bool hex(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F');
}

static void check_join(const char *loc, size_t root, const char *path)
{
	char *u = net_url_join(loc, root, path, /* encode= */ true);

	if (!u)
		return;
	if (memcmp(u, loc, root) != 0)
		__builtin_trap();
	for (const char *c = u + root; *c; c++) {
		if (*c == '%') {
			if (!hex(c[1]) || !hex(c[2]))
				__builtin_trap();
			c += 2;
		} else if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/", *c)) {
			__builtin_trap();
		}
	}
	free(u);
}

static void check_path(const char *loc, size_t root, const char *path)
{
	char *norm = NULL, *again = NULL;

	if (net_path_normalize(path, &norm) != EFI_SUCCESS)
		return;
	if (norm[0] == '/' || strstr(norm, "//") || strchr(norm, '\\') || !strcmp(norm, "..") ||
	    !strncmp(norm, "../", 3) || strstr(norm, "/../") ||
	    (strlen(norm) >= 3 && !strcmp(norm + strlen(norm) - 3, "/..")))
		__builtin_trap();
	if (net_path_normalize(norm, &again) != EFI_SUCCESS || strcmp(norm, again) != 0)
		__builtin_trap();
	check_join(loc, root, norm);
	free(norm);
	free(again);
}

/* A "." or ".." segment in the path of @url ("scheme://host/path?query"). */
static bool dot_segment(const char *url)
{
	const char *p = strstr(url, "://") + 3;

	p += strcspn(p, "/?");
	while (*p == '/') {
		size_t n = strcspn(++p, "/?");

		if ((n == 1 && p[0] == '.') || (n == 2 && p[0] == '.' && p[1] == '.'))
			return true;
		p += n;
	}
	return false;
}

static void check_redirect(const char *base, const char *ref)
{
	char *to = (char *)1, *again = NULL;
	const char *why;

	if (!net_url_is_http(base))
		return;
	why = http_url_resolve(base, ref, &to);
	if (!to) {
		if (!why)
			__builtin_trap();
		return;
	}
	if (strlen(to) >= NET_URL_MAX || !net_url_chars(to) || !strstr(to, "://"))
		__builtin_trap();
	if (!why && (!net_url_is_http(to) || net_url_is_https(to) != net_url_is_https(base) || dot_segment(to) ||
		     http_url_resolve(to, to, &again) || strcmp(again, to) != 0))
		__builtin_trap();
	free(to);
	free(again);
}

#define HEADERS_MAX 16

static bool named(const EFI_HTTP_HEADER *h, const char *name)
{
	return h->FieldName && h->FieldValue && ascii_strcaseeq((const char *)h->FieldName, name);
}

/* The lines of @text (NUL-terminated, changed) as headers, split at the first ':'. */
static void check_headers(char *text)
{
	EFI_HTTP_HEADER h[HEADERS_MAX];
	size_t n = 0, lengths = 0, te = 0, locations = 0;
	uint64_t v;
	bool chunked;
	char *to = NULL;

	for (char *line = text; line && n < HEADERS_MAX; n++) {
		char *end = strchr(line, '\n'), *colon;

		if (end)
			*end = 0;
		colon = strchr(line, ':');
		if (colon)
			*colon = 0;
		h[n] = (EFI_HTTP_HEADER){ (CHAR8 *)line, colon ? (CHAR8 *)colon + 1 : NULL };
		line = end ? end + 1 : NULL;
	}
	for (size_t i = 0; i < n; i++) {
		lengths += named(&h[i], "Content-Length");
		te += named(&h[i], "Transfer-Encoding");
		locations += named(&h[i], "Location");
	}
	if (!http_body_length(h, n, &v, &chunked) && (lengths + te != 1 || chunked != (te == 1)))
		__builtin_trap();
	if (!http_redirect(h, n, "http://srv/a/b", &to) && (locations != 1 || !to))
		__builtin_trap();
	free(to);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 2), *path;
	const char *host;
	size_t root, auth;
	uint64_t len;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = buf[size + 1] = 0;
	path = buf + strlen(buf) + 1 <= buf + size ? buf + strlen(buf) + 1 : buf + size + 1;
	root = net_root_len(buf);
	/* after a '/', or at the end of a URL's host (then the join adds the '/') */
	if (root > strlen(buf) || (root && buf[root - 1] != '/' && buf[root] && buf[root] != '?' && buf[root] != '#'))
		__builtin_trap();
	auth = net_url_authority(buf, &host);
	if (auth && (host < buf || host + auth > buf + strlen(buf)))
		__builtin_trap();
	check_path(buf, root, path);
	check_redirect(buf, path);
	if (net_url_is_http(buf))
		for (const char *c = buf; *c; c++)
			if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
				__builtin_trap();
	if (http_content_length(buf, &len) && strlen(buf) == 0)
		__builtin_trap();
	uint32_t code = 0;

	memcpy(&code, data, size < 4 ? size : 4);
	if (http_status_number(code) > 505)
		__builtin_trap();
	check_headers(buf);
	free(buf);
	return 0;
}
