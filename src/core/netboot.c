/* Network boot paths and URLs (netboot.h): the tree's root from the loader's
 * own location, loader paths made safe and turned into URLs (RFC 3986), and
 * the two facts read from an HTTP response. Everything here is checked
 * against its length: paths come from entries on the server. */
#include "netboot.h"

static char lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

bool ascii_caseeqn(const char *a, const char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (lower(a[i]) != lower(b[i]))
			return false;
	return true;
}

static bool prefix_caseeq(const char *s, const char *prefix)
{
	return ascii_caseeqn(s, prefix, strlen(prefix));
}

bool ascii_strcaseeq(const char *a, const char *b)
{
	return strlen(a) == strlen(b) && prefix_caseeq(a, b);
}

bool net_url_is_https(const char *url)
{
	return prefix_caseeq(url, "https://");
}

/* Where the path starts: after "scheme://host" in a URL, at 0 in a TFTP path. */
static size_t path_start(const char *loc)
{
	const char *sep = strchr(loc, ':');
	size_t i;

	if (!sep || sep[1] != '/' || sep[2] != '/')
		return 0;
	for (i = (size_t)(sep - loc) + 3; loc[i] && loc[i] != '/' && loc[i] != '?' && loc[i] != '#'; i++)
		;
	return i;
}

size_t net_root_len(const char *loc)
{
	size_t start = path_start(loc), root = start, efi = SIZE_MAX;

	for (size_t i = start; loc[i] && loc[i] != '?' && loc[i] != '#'; i++) {
		if (loc[i] == '/')
			root = i + 1;
		if ((i == start || loc[i - 1] == '/') && prefix_caseeq(loc + i, "efi/"))
			efi = i;
	}
	return efi != SIZE_MAX ? efi : root;
}

bool net_url_chars(const char *url)
{
	for (const char *c = url; *c; c++)
		if ((unsigned char)*c <= ' ' || (unsigned char)*c >= 0x7f)
			return false; /* RFC 3986 §2: not in a URL unescaped */
	return true;
}

bool net_url_is_http(const char *url)
{
	const char *host;

	return net_url_chars(url) && (prefix_caseeq(url, "http://") || net_url_is_https(url)) &&
	       net_url_authority(url, &host);
}

size_t net_url_authority(const char *url, const char **ret_start)
{
	size_t end = path_start(url);
	const char *sep = strchr(url, ':');

	if (!end)
		return 0;
	*ret_start = sep + 3;
	return end - (size_t)(sep + 3 - url);
}

/* One component [@s, @s + @n): "" and "." are dropped, ".." and control characters refused. */
static bool add_component(const char *s, size_t n, char *out, size_t *len)
{
	if (n == 0 || (n == 1 && s[0] == '.'))
		return true;
	if (n == 2 && s[0] == '.' && s[1] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			return false;
	if (*len)
		out[(*len)++] = '/';
	memcpy(out + *len, s, n);
	*len += n;
	return true;
}

EFI_STATUS net_path_normalize(const char *path, char **ret)
{
	size_t n = strlen(path), len = 0, start = 0;
	char *out;

	if (n >= NET_URL_MAX)
		return EFI_INVALID_PARAMETER;
	out = mem_alloc(n + 1); /* never longer than the input */
	if (!out)
		return EFI_OUT_OF_RESOURCES;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && path[i] != '/' && path[i] != '\\')
			continue;
		if (!add_component(path + start, i - start, out, &len)) {
			mem_free(out);
			return EFI_INVALID_PARAMETER;
		}
		start = i + 1;
	}
	out[len] = 0;
	*ret = out;
	return EFI_SUCCESS;
}

static bool unreserved(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
	       c == '_' || c == '~' || c == '/';
}

char *net_url_join(const char *root, size_t root_len, const char *path, bool encode)
{
	static const char hex[] = "0123456789ABCDEF";
	bool slash = root_len && root[root_len - 1] != '/';
	size_t n = root_len + slash;
	char *out;

	for (const char *p = path; *p; p++)
		n += !encode || unreserved((unsigned char)*p) ? 1 : 3;
	if (n >= NET_URL_MAX || !(out = mem_alloc(n + 1)))
		return NULL;
	memcpy(out, root, root_len);
	n = root_len;
	if (slash)
		out[n++] = '/';
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if (!encode || unreserved(*p)) {
			out[n++] = (char)*p;
			continue;
		}
		out[n++] = '%';
		out[n++] = hex[*p >> 4];
		out[n++] = hex[*p & 15];
	}
	out[n] = 0;
	return out;
}

/* The specification lists the codes in runs (100-101, 200-206, 300-305, 307,
 * 400-417, 500-505) and appends 308; each run maps by an offset. */
#define HTTP_RUN(first, last) HTTP_STATUS_##first, HTTP_STATUS_##last

unsigned http_status_number(uint32_t c)
{
	static const struct {
		uint8_t first, last;
		uint16_t number;
	} runs[] = {
		{ HTTP_RUN(100_CONTINUE, 101_SWITCHING_PROTOCOLS), 100 },
		{ HTTP_RUN(200_OK, 206_PARTIAL_CONTENT), 200 },
		{ HTTP_RUN(300_MULTIPLE_CHOICES, 305_USE_PROXY), 300 },
		{ HTTP_RUN(307_TEMPORARY_REDIRECT, 307_TEMPORARY_REDIRECT), 307 },
		{ HTTP_RUN(400_BAD_REQUEST, 417_EXPECTATION_FAILED), 400 },
		{ HTTP_RUN(500_INTERNAL_SERVER_ERROR, 505_HTTP_VERSION_NOT_SUPPORTED), 500 },
		{ HTTP_RUN(308_PERMANENT_REDIRECT, 308_PERMANENT_REDIRECT), 308 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(runs); i++)
		if (c >= runs[i].first && c <= runs[i].last)
			return runs[i].number + (c - runs[i].first);
	return 0;
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

const char *http_body_length(const EFI_HTTP_HEADER *h, size_t n, uint64_t *ret, bool *ret_chunked)
{
	const char *length = NULL;
	bool chunked = false;

	for (size_t i = 0; i < n; i++) {
		if (!h[i].FieldName || !h[i].FieldValue)
			continue;
		if (ascii_strcaseeq((const char *)h[i].FieldName, "Transfer-Encoding")) {
			/* a second field makes a list (RFC 9110 §5.3): chunked is applied once */
			if (chunked || !ascii_strcaseeq((const char *)h[i].FieldValue, "chunked"))
				return "a Transfer-Encoding other than chunked";
			chunked = true;
			continue;
		}
		if (!ascii_strcaseeq((const char *)h[i].FieldName, "Content-Length"))
			continue;
		if (length)
			return "more than one Content-Length";
		length = (const char *)h[i].FieldValue;
	}
	*ret_chunked = chunked;
	if (chunked)
		return length ? "a Transfer-Encoding and a Content-Length" : NULL; /* §6.3: request smuggling */
	if (!length)
		return "no Content-Length";
	return http_content_length(length, ret) ? NULL : "an invalid Content-Length";
}

bool http_content_length(const char *value, uint64_t *ret)
{
	uint64_t v = 0;
	bool digits = false;

	while (blank(*value))
		value++;
	for (; *value >= '0' && *value <= '9'; value++, digits = true) {
		uint64_t d = (uint64_t)(*value - '0');

		if (v > (UINT64_MAX - d) / 10)
			return false;
		v = v * 10 + d;
	}
	while (blank(*value))
		value++;
	if (!digits || *value)
		return false;
	*ret = v;
	return true;
}
