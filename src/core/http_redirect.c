/* HTTP redirects (http_redirect.h): a Location value resolved against the
 * URL asked for by RFC 3986 §5.2.2 ("strict"): the part of that URL the
 * reference keeps (none, its scheme, its origin, its path, up to its last
 * '/') followed by the reference, without its fragment; then the result's
 * dot segments removed in place (§5.2.4) and its origin compared with the
 * URL's. Every length is bounded by the value's, refused at NET_URL_MAX. */
#include "http_redirect.h"
#include "netboot.h"

bool http_is_redirect(unsigned status)
{
	return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

/* How many bytes of @s come before NUL or one of @stop. */
static size_t span_until(const char *s, const char *stop)
{
	size_t n = 0;

	while (s[n] && !strchr(stop, s[n]))
		n++;
	return n;
}

static bool alpha(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* @ref starts with a scheme (§3.1: ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"). */
static bool has_scheme(const char *ref)
{
	size_t i = 0;

	if (alpha(ref[0]))
		for (i = 1; alpha(ref[i]) || (ref[i] >= '0' && ref[i] <= '9') || (ref[i] && strchr("+-.", ref[i])); i++)
			;
	return i && ref[i] == ':';
}

/* How many bytes of @base (with its authority ending at @path, its path at
 * @query) reference @ref keeps (§5.2.2); *@slash: a '/' goes between (§5.2.3). */
static size_t base_kept(const char *base, size_t host, size_t path, size_t query, const char *ref, bool *slash)
{
	size_t keep = path;

	*slash = false;
	if (has_scheme(ref))
		return 0;
	if (ref[0] == '/')
		return ref[1] == '/' ? host - 2 : path; /* "//host": "scheme:" */
	if (ref[0] == '?' || ref[0] == '#')
		return ref[0] == '?' ? query : query + span_until(base + query, "#");
	for (size_t i = path; i < query; i++)
		keep = base[i] == '/' ? i + 1 : keep;
	*slash = keep == path;
	return keep;
}

/* RFC 3986 §5.2.4 on the @n bytes at @s, a path that is empty or starts
 * with '/' (every merged or absolute path is), in place: the output never
 * passes the input read. Segment by segment, as §5.2.4's steps B, C and E
 * do on such a path; a ".." at the top stays at the top.
 * Return: the new length. */
static size_t remove_dots(char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0, k; i < n; i += k) {
		bool dot = i + 1 < n && s[i + 1] == '.', dots = dot && i + 2 < n && s[i + 2] == '.';

		for (k = 1; i + k < n && s[i + k] != '/'; k++)
			;
		if (dot && k == 2u + dots) { /* "/." or "/.." */
			while (dots && w > 0 && s[--w] != '/')
				;
			if (i + k == n)
				s[w++] = '/';
			continue;
		}
		memmove(s + w, s + i, k);
		w += k;
	}
	return w;
}

/* Authority @a (@n bytes) without a port that is the scheme's own (@port,
 * ":80" or ":443"), nor an empty one (RFC 3986 §3.2.3: "host:" is "host"). */
static size_t authority_len(const char *a, size_t n, const char *port)
{
	size_t k = strlen(port);

	if (n > k && !memcmp(a + n - k, port, k))
		return n - k;
	return n && a[n - 1] == ':' ? n - 1 : n;
}

const char *http_url_resolve(const char *base, const char *ref, char **ret)
{
	const char *bhost, *host;
	size_t n = strlen(ref), bauth = net_url_authority(base, &bhost), auth, keep, path, query, len;
	const char *port = net_url_is_https(base) ? ":443" : ":80";
	bool slash;
	char *out;

	*ret = NULL;
	if (n >= NET_URL_MAX)
		return "a Location too long";
	if (!n || !bauth)
		return "an invalid Location";
	path = (size_t)(bhost - base) + bauth;
	keep = base_kept(base, (size_t)(bhost - base), path, path + span_until(base + path, "?#"), ref, &slash);
	if (!(out = mem_alloc(keep + n + 2)))
		return "out of memory";
	memcpy(out, base, keep);
	if (slash)
		out[keep++] = '/';
	memcpy(out + keep, ref, len = span_until(ref, "#"));
	out[keep + len] = 0;
	if (!(auth = net_url_authority(out, &host)) || !net_url_chars(out)) {
		mem_free(out);
		return "an invalid Location";
	}
	path = (size_t)(host - out) + auth;
	query = path + span_until(out + path, "?");
	len = path + remove_dots(out + path, query - path);
	memmove(out + len, out + query, strlen(out + query) + 1);
	if (strlen(out) >= NET_URL_MAX) {
		mem_free(out);
		return "a Location too long";
	}
	*ret = out;
	if (host - out != bhost - base || !ascii_caseeqn(out, base, (size_t)(host - out)))
		return "another scheme";
	auth = authority_len(host, auth, port);
	if (authority_len(bhost, bauth, port) != auth || !ascii_caseeqn(host, bhost, auth))
		return "another host or port";
	return NULL;
}

const char *http_redirect(const EFI_HTTP_HEADER *h, size_t n, const char *url, char **ret)
{
	const char *loc = NULL;

	*ret = NULL;
	for (size_t i = 0; i < n; i++) {
		if (!h[i].FieldName || !h[i].FieldValue || !ascii_strcaseeq((const char *)h[i].FieldName, "Location"))
			continue;
		if (loc)
			return "more than one Location";
		loc = (const char *)h[i].FieldValue;
	}
	return loc ? http_url_resolve(url, loc, ret) : "no Location";
}
