/* loader/entries.list (net_list.h): the line syntax of loader.conf (a UTF-8
 * BOM, CRLF line ends, '#' comments, lines of at most CONF_LINE_MAX bytes,
 * no NUL), but a line is a path, or "sha256 HEX PATH". Paths are normalized
 * here once (net_path_normalize()), so lookups compare plain strings. */
#include "net_list.h"
#include "array.h"
#include "conf_line.h"
#include "fmt.h"
#include "log.h"
#include "netboot.h"

#define PIN_KEYWORD "sha256"

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Exactly 2 * SHA256_DIGEST_SIZE hex digits at @s. */
static bool parse_digest(const char *s, size_t n, uint8_t ret[SHA256_DIGEST_SIZE])
{
	if (n != 2 * SHA256_DIGEST_SIZE)
		return false;
	for (size_t i = 0; i < SHA256_DIGEST_SIZE; i++) {
		int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		ret[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}

/* The normalized copy of the path [@s, @s + @n); NULL (logged) when it is not a valid one. */
static char *line_path(const char *s, size_t n, const char *name, unsigned line)
{
	_cleanup_free_ char *raw = conf_strndup(s, n);
	char *path = NULL;

	if (raw && net_path_normalize(raw, &path) == EFI_SUCCESS && !*path) {
		mem_free(path);
		path = NULL;
	}
	if (raw && !path)
		log_error("%s:%u: '%.*s' is not a file below the tree's root ('..', a control character?), ignored",
			  name, line, (int)MIN(n, (size_t)64), s);
	return path;
}

/* One non-blank, non-comment line: "PATH" or "sha256 HEX PATH". */
static EFI_STATUS parse_item(struct net_list *l, const char *s, size_t n, const char *name, unsigned line)
{
	struct net_list_item it = { 0 };
	size_t kw = sizeof(PIN_KEYWORD) - 1, hex, p;

	if (n > kw && memcmp(s, PIN_KEYWORD, kw) == 0 && blank(s[kw])) {
		for (hex = kw; hex < n && blank(s[hex]); hex++)
			;
		for (p = hex; p < n && !blank(s[p]); p++)
			;
		if (!parse_digest(s + hex, p - hex, it.sha256)) {
			log_error("%s:%u: sha256 wants %u hex digits and a path, ignored", name, line,
				  2 * SHA256_DIGEST_SIZE);
			l->n_errors++;
			return EFI_SUCCESS;
		}
		while (p < n && blank(s[p]))
			p++;
		it.pinned = true;
		s += p;
		n -= p;
	}
	if (!(it.path = line_path(s, n, name, line))) {
		l->n_errors++;
		return EFI_SUCCESS;
	}
	if (array_append(&l->items, &l->n, sizeof(it), &it) != EFI_SUCCESS) {
		mem_free(it.path);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS parse_line(struct net_list *l, const char *s, size_t n, const char *name, unsigned line)
{
	while (n && blank(s[0]))
		s++, n--;
	while (n && blank(s[n - 1]))
		n--;
	if (n == 0 || s[0] == '#')
		return EFI_SUCCESS;
	if (n > CONF_LINE_MAX || memchr(s, 0, n)) {
		log_error("%s:%u: line longer than %u bytes or with a NUL byte, ignored", name, line, CONF_LINE_MAX);
		l->n_errors++;
		return EFI_SUCCESS;
	}
	return parse_item(l, s, n, name, line);
}

EFI_STATUS net_list_parse(const char *text, size_t len, const char *name, struct net_list *ret)
{
	static const char bom[3] = { '\xef', '\xbb', '\xbf' };
	size_t pos = len >= sizeof(bom) && memcmp(text, bom, sizeof(bom)) == 0 ? sizeof(bom) : 0;
	unsigned line = 0;

	*ret = (struct net_list){ 0 };
	while (pos < len) {
		const char *end = memchr(text + pos, '\n', len - pos);
		size_t n = end ? (size_t)(end - (text + pos)) : len - pos;
		EFI_STATUS err = parse_line(ret, text + pos, n, name, ++line);

		if (EFI_ERROR(err)) {
			net_list_free(ret);
			return err;
		}
		pos += n + 1;
	}
	return EFI_SUCCESS;
}

void net_list_free(struct net_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		mem_free(l->items[i].path);
	mem_free(l->items);
	*l = (struct net_list){ 0 };
}

const uint8_t *net_list_pin(const struct net_list *l, const char *path)
{
	for (size_t i = 0; i < l->n; i++)
		if (l->items[i].pinned && ascii_strcaseeq(l->items[i].path, path))
			return l->items[i].sha256;
	return NULL;
}

/* The rest of @path after the directory @dir and its '/', or NULL when @path is not below @dir. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 0)
		return path;
	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

const char *net_list_next_in(const struct net_list *l, const char *dir, size_t *cursor)
{
	while (*cursor < l->n) {
		const struct net_list_item *it = &l->items[(*cursor)++];
		const char *rest = it->pinned ? NULL : below(it->path, dir);

		if (rest && !strchr(rest, '/'))
			return rest;
	}
	return NULL;
}

bool net_list_has_dir(const struct net_list *l, const char *dir)
{
	for (size_t i = 0; i < l->n; i++)
		if (!l->items[i].pinned && below(l->items[i].path, dir))
			return true;
	return !*dir;
}
