/* HTTP redirects (README "Network boot"): where a 301, 302, 303, 307 or 308
 * answer sends a GET (RFC 9110 §15.4, its Location field §10.2.2 resolved
 * per RFC 3986 §5.2), followed only to the same scheme, host and port. The
 * loop that follows them is src/efi/net_http.c's. */
#ifndef CORE_HTTP_REDIRECT_H
#define CORE_HTTP_REDIRECT_H

#include "platform.h"
#include <efi/efi.h>
#include <efi/proto/http.h>

/* Redirects followed in a row for one file; one more is refused. */
#define HTTP_REDIRECTS_MAX 5u

/** http_is_redirect() - @status (the number on the wire) is 301, 302, 303, 307 or 308. */
bool http_is_redirect(unsigned status);

/**
 * http_url_resolve() - the URL the reference @ref (a Location value) names,
 * resolved against @base, an http(s) URL (RFC 3986 §5.2.2: an absolute URL,
 * "//host/path", "/path", "path" or "?query"; dot segments removed, §5.2.4;
 * the fragment dropped: it is never sent), taken only with @base's scheme,
 * host and port (scheme and host in any case, no port as the scheme's own).
 * Return: NULL and a new URL in *@ret; else why it is refused ("another
 * host or port") for "refused (...)", with *@ret the URL it names when that
 * is a URL (another host, another scheme), else NULL. "out of memory" too.
 */
const char *http_url_resolve(const char *base, const char *ref, char **ret);

/**
 * http_redirect() - where an answer's @n headers @h send the GET of @url:
 * its one Location field, by http_url_resolve().
 * Return: as http_url_resolve(); "no Location", "more than one Location".
 */
const char *http_redirect(const EFI_HTTP_HEADER *h, size_t n, const char *url, char **ret);

#endif
