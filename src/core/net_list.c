/* loader/entries.list (net_list.h): the line syntax of loader.conf (a UTF-8
 * BOM, CRLF line ends, '#' comments, lines of at most CONF_LINE_MAX bytes,
 * no NUL), but a line is an entry file's path, "sha256 HEX PATH" or "host
 * ID PATH": one or three words. Anything else is refused by name, never guessed at: a pin
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
#define HOST_KEYWORD "host"
#define MAC_TEXT 17 /* "52:54:00:12:34:56" */

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

/* A machine's identifier in a "host" line: a MAC address "xx:xx:xx:xx:xx:xx"
 * (or with '-'). Return: its length (6), 0 if it is none. */
static uint8_t host_id(const char *s, size_t n, uint8_t ret[NET_HOST_ID_MAX])
{
	for (size_t i = 0; n == MAC_TEXT && i < 6; i++)
		if (!hex_decode(s + 3 * i, 1, ret + i) || (i < 5 && s[3 * i + 2] != ':' && s[3 * i + 2] != '-'))
			return 0;
	return n == MAC_TEXT ? 6 : 0;
}

/* Splits @s (@n bytes, no blank at either end) at blanks into @w and @wn.
 * Return: the number of words, 4 for four or more. */
static size_t split_words(const char *s, size_t n, const char *w[4], size_t wn[4])
{
	size_t k = 0, i = 0;

	while (i < n && k < 4) {
		w[k] = s + i;
		while (i < n && !blank(s[i]))
			i++;
		wn[k] = (size_t)(s + i - w[k]);
		k++;
		while (i < n && blank(s[i]))
			i++;
	}
	return k;
}

static bool is_word(const char *w, size_t n, const char *keyword)
{
	return n == strlen(keyword) && memcmp(w, keyword, n) == 0;
}

/* One line as words: an entry file's path; "sha256 HEX PATH"; or, outside a
 * host list, "host ID PATH". Return: false when it is none of them. */
static bool parse_words(const struct net_list *l, struct net_list_item *it, const char *s, size_t n)
{
	const char *w[4];
	size_t wn[4], k = split_words(s, n, w, wn);

	if (k == 3 && is_word(w[0], wn[0], PIN_KEYWORD))
		it->pinned = wn[1] == HEX_DIGITS && hex_decode(w[1], SHA256_DIGEST_SIZE, it->sha256);
	else if (k == 3 && is_word(w[0], wn[0], HOST_KEYWORD) && !l->hosted)
		it->host_len = host_id(w[1], wn[1], it->host);
	if (k == 1 || it->pinned || it->host_len)
		it->path = line_path(w[k - 1], wn[k - 1]);
	if (it->path && k == 1 && !net_list_entry_file(it->path))
		mem_free(TAKE_PTR(it->path));
	return it->path != NULL;
}

/* One non-blank, non-comment line (its ends not blank). */
static EFI_STATUS parse_item(struct net_list *l, const char *s, size_t n, const char *name, unsigned line)
{
	struct net_list_item it = { 0 };

	if (!parse_words(l, &it, s, n)) {
		log_error("%s:%u: '%.*s' is not an entry file (loader/entries/NAME.conf, EFI/Linux/NAME.efi), "
			  "'sha256 HEX PATH' nor 'host MAC PATH' (a PATH: one word, below the root), ignored",
			  name, line, (int)MIN(n, (size_t)64), s);
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

/* @text's lines into @l, after its items. */
static EFI_STATUS parse_text(struct net_list *l, const char *text, size_t len, const char *name)
{
	static const char bom[3] = { '\xef', '\xbb', '\xbf' };
	size_t pos = len >= sizeof(bom) && memcmp(text, bom, sizeof(bom)) == 0 ? sizeof(bom) : 0;
	unsigned line = 0;

	while (pos < len) {
		const char *end = memchr(text + pos, '\n', len - pos);
		size_t n = end ? (size_t)(end - (text + pos)) : len - pos;
		EFI_STATUS err = parse_line(l, text + pos, n, name, ++line);

		if (EFI_ERROR(err)) {
			net_list_free(l);
			return err;
		}
		pos += n + 1;
	}
	return EFI_SUCCESS;
}

EFI_STATUS net_list_parse(const char *text, size_t len, const char *name, struct net_list *ret)
{
	*ret = (struct net_list){ 0 };
	return parse_text(ret, text, len, name);
}

static bool is_entry(const struct net_list_item *it)
{
	return !it->pinned && !it->host_len;
}

EFI_STATUS net_list_parse_host(const char *text, size_t len, const char *name, struct net_list *l)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++) {
		if (is_entry(&l->items[i]))
			mem_free(TAKE_PTR(l->items[i].path));
		else
			l->items[kept++] = l->items[i];
	}
	l->n = kept;
	l->hosted = true;
	return parse_text(l, text, len, name);
}

const char *net_list_host(const struct net_list *l, const uint8_t *mac)
{
	for (size_t i = 0; mac && i < l->n; i++)
		if (l->items[i].host_len && memcmp(mac, l->items[i].host, l->items[i].host_len) == 0)
			return l->items[i].path;
	return NULL;
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
		const char *rest = is_entry(it) ? below(it->path, dir) : NULL;

		if (rest && !strchr(rest, '/'))
			return rest;
	}
	return NULL;
}

bool net_list_has_dir(const struct net_list *l, const char *dir)
{
	for (size_t i = 0; i < l->n; i++)
		if (is_entry(&l->items[i]) && below(l->items[i].path, dir))
			return true;
	return !*dir;
}
