/* loader/entries.list (net_list.h): the line syntax of loader.conf (a UTF-8
 * BOM, CRLF line ends, '#' comments, lines of at most CONF_LINE_MAX bytes,
 * no NUL), but a line is an entry file's path, or "sha256 HEX PATH": one or
 * three words. Anything else is refused by name, never guessed at: a pin
 * misspelt must not pin nothing, or another path, silently. Paths are
 * normalized here once (net_path_normalize()), so lookups compare plain
 * strings. */
#include "net_list.h"
#include "array.h"
#include "conf_line.h"
#include "fmt.h"
#include "log.h"
#include "netboot.h"

#define PIN_KEYWORD "sha256"
#define HEX_DIGITS (2 * SHA256_DIGEST_SIZE)

static bool blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

bool net_list_word_ok(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= ' ' || s[i] == '#' || s[i] == 0x7f)
			return false;
	return n > 0;
}

/* The rest of @path after the directory @dir and its '/', or NULL when @path is not below @dir. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (n == 0)
		return path;
	return strncmp(path, dir, n) == 0 && path[n] == '/' ? path + n + 1 : NULL;
}

/* @path is a file directly in @dir whose name ends in @suffix (any case) after something. */
static bool named_in(const char *path, const char *dir, const char *suffix)
{
	const char *name = below(path, dir);
	size_t n = name ? strlen(name) : 0, s = strlen(suffix);

	return n > s && !strchr(name, '/') && ascii_strcaseeq(name + n - s, suffix);
}

bool net_list_entry_file(const char *path)
{
	return named_in(path, "loader/entries", ".conf") || named_in(path, "EFI/Linux", ".efi");
}

/* The normalized copy of the path [@s, @s + @n): one word naming a file below the root, or NULL. */
static char *line_path(const char *s, size_t n)
{
	_cleanup_free_ char *raw = net_list_word_ok(s, n) ? conf_strndup(s, n) : NULL;
	char *path = NULL;

	if (raw && net_path_normalize(raw, &path) == EFI_SUCCESS && !*path)
		mem_free(TAKE_PTR(path));
	return path;
}

/* One non-blank, non-comment line (its ends not blank): an entry file's path,
 * or "sha256", the digest and a path, blank separated. */
static EFI_STATUS parse_item(struct net_list *l, const char *s, size_t n, const char *name, unsigned line)
{
	struct net_list_item it = { 0 };
	size_t kw = sizeof(PIN_KEYWORD) - 1, p = 0;

	if (n > kw && memcmp(s, PIN_KEYWORD, kw) == 0 && blank(s[kw])) {
		for (p = kw; blank(s[p]); p++)
			; /* stops inside: the line ends with a word */
		it.pinned = n - p > HEX_DIGITS && hex_decode(s + p, SHA256_DIGEST_SIZE, it.sha256) &&
			    blank(s[p + HEX_DIGITS]);
		for (p += HEX_DIGITS; it.pinned && blank(s[p]); p++)
			;
	}
	if (it.pinned || p == 0)
		it.path = line_path(s + p, n - p);
	if (it.path && !it.pinned && !net_list_entry_file(it.path))
		mem_free(TAKE_PTR(it.path));
	if (!it.path) {
		log_error("%s:%u: '%.*s' is not an entry file (loader/entries/NAME.conf, EFI/Linux/NAME.efi) nor "
			  "'sha256 HEX PATH' (paths: one word, below the root), ignored", name, line,
			  (int)MIN(n, (size_t)64), s);
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

/* The first line naming @path (ASCII case-insensitively), a pin when @pinned. */
static const struct net_list_item *find(const struct net_list *l, const char *path, bool pinned)
{
	for (size_t i = 0; i < l->n; i++)
		if ((l->items[i].pinned || !pinned) && ascii_strcaseeq(l->items[i].path, path))
			return &l->items[i];
	return NULL;
}

const uint8_t *net_list_pin(const struct net_list *l, const char *path)
{
	const struct net_list_item *it = find(l, path, /* pinned= */ true);

	return it ? it->sha256 : NULL;
}

bool net_list_vouches(const struct net_list *l, const char *path)
{
	return find(l, path, /* pinned= */ false) != NULL;
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
