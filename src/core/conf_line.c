/* Line reader for loader.conf and BLS Type #1 entries (conf_line.h). The
 * text need not be NUL-terminated: every access is bounded by its length. */
#include "conf_line.h"
#include "fmt.h"
#include "log.h"
#include "str16.h"

static const char utf8_bom[3] = { '\xef', '\xbb', '\xbf' };

/* Blanks separate key and value. CR counts as one, so a CRLF line end (or a
 * stray CR at the end of a line written on another system) is trimmed. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static char ascii_lower(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

void conf_reader_init(struct conf_reader *r, const char *text, size_t len, const char *path)
{
	*r = (struct conf_reader){ .text = text, .len = len, .path = path ? path : "(config)" };
	if (len >= sizeof(utf8_bom) && memcmp(text, utf8_bom, sizeof(utf8_bom)) == 0)
		r->pos = sizeof(utf8_bom);
}

static void line_verror(struct conf_reader *r, unsigned line, const char *fmt, va_list ap)
{
	char reason[256];

	fmt_vsnprintf(reason, sizeof(reason), fmt, ap);
	log_error("%s:%u: %s", r->path, line, reason);
	r->n_errors++;
}

static void line_error(struct conf_reader *r, unsigned line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void line_error(struct conf_reader *r, unsigned line, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_verror(r, line, fmt, ap);
	va_end(ap);
}

void conf_line_error(struct conf_reader *r, const struct conf_kv *kv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	line_verror(r, kv->line, fmt, ap);
	va_end(ap);
}

/* The next line without its LF or CRLF; false at the end of the text. */
static bool next_raw_line(struct conf_reader *r, const char **ret_start, size_t *ret_len)
{
	size_t start = r->pos, end = start;

	if (start >= r->len)
		return false;
	while (end < r->len && r->text[end] != '\n')
		end++;
	r->pos = end < r->len ? end + 1 : end;
	r->line++;
	if (end > start && r->text[end - 1] == '\r') /* CRLF: the CR is part of the line end */
		end--;
	*ret_start = r->text + start;
	*ret_len = end - start;
	return true;
}

static bool has_nul(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == '\0')
			return true;
	return false;
}

/* Split a trimmed, non-empty line into key and value. False: no value. */
static bool split_key_value(const char *s, size_t n, struct conf_kv *kv)
{
	size_t k = 0, v;

	while (k < n && !is_blank(s[k]))
		k++;
	for (v = k; v < n && is_blank(s[v]); v++)
		;
	kv->key = s;
	kv->key_len = k;
	kv->value = s + v;
	kv->value_len = n - v;
	return v < n;
}

/* Can the raw line @s (@n bytes) be read at all? Logs why not. */
static bool line_readable(struct conf_reader *r, const char *s, size_t n)
{
	const char *bad;
	char why[UTF8_PROBLEM_MAX];

	if (n > CONF_LINE_MAX)
		line_error(r, r->line, "line longer than %u bytes (%zu), ignored", CONF_LINE_MAX, n);
	else if (has_nul(s, n))
		line_error(r, r->line, "NUL byte in line, ignored");
	/* Both files are UTF-8 (UAPI.1): a line that is not, is not guessed at
	 * (an overlong NUL would end the value for one reader and not another). */
	else if ((bad = utf8_problem(s, n, why)))
		line_error(r, r->line, "%s, ignored", bad);
	else
		return true;
	return false;
}

/* A line conf_next() rejects: does it set the key the caller watches? */
static void note_rejected(struct conf_reader *r, const char *s, size_t n)
{
	size_t k = r->watch_key ? strlen(r->watch_key) : 0;

	while (n > 0 && is_blank(s[0]))
		s++, n--;
	if (k && n >= k && memcmp(s, r->watch_key, k) == 0 && (n == k || is_blank(s[k])))
		r->watch_key_rejected = true;
}

bool conf_next(struct conf_reader *r, struct conf_kv *ret)
{
	const char *s;
	size_t n;

	while (next_raw_line(r, &s, &n)) {
		if (!line_readable(r, s, n)) {
			note_rejected(r, s, n);
			continue;
		}
		while (n > 0 && is_blank(s[0]))
			s++, n--;
		while (n > 0 && is_blank(s[n - 1]))
			n--;
		if (n == 0 || s[0] == '#')
			continue;
		ret->line = r->line;
		if (!split_key_value(s, n, ret)) {
			line_error(r, r->line, "'%.*s' has no value, ignored", (int)ret->key_len, ret->key);
			note_rejected(r, s, n);
			continue;
		}
		return true;
	}
	return false;
}

bool conf_key_is(const struct conf_kv *kv, const char *name)
{
	size_t n = strlen(name);

	return kv->key_len == n && memcmp(kv->key, name, n) == 0;
}

bool conf_value_is(const struct conf_kv *kv, const char *s)
{
	size_t n = strlen(s);

	if (kv->value_len != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (ascii_lower(kv->value[i]) != ascii_lower(s[i]))
			return false;
	return true;
}

char *conf_strndup(const char *s, size_t n)
{
	char *p = n < SIZE_MAX ? mem_alloc(n + 1) : NULL;

	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

bool conf_parse_bool(const struct conf_kv *kv, bool *ret)
{
	/* loader.conf(5): yes/y/true/t/on/1 and no/n/false/f/off/0 */
	static const char *const yes[] = { "yes", "y", "true", "t", "on", "1" };
	static const char *const no[] = { "no", "n", "false", "f", "off", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (conf_value_is(kv, yes[i])) {
			*ret = true;
			return true;
		}
		if (conf_value_is(kv, no[i])) {
			*ret = false;
			return true;
		}
	}
	return false;
}

bool conf_parse_uint(const struct conf_kv *kv, uint64_t max, uint64_t *ret)
{
	uint64_t v = 0;

	if (kv->value_len == 0)
		return false;
	for (size_t i = 0; i < kv->value_len; i++) {
		char c = kv->value[i];

		uint64_t d = (uint64_t)(c - '0');

		if (c < '0' || c > '9' || d > max || v > (max - d) / 10) /* v * 10 + d > max */
			return false;
		v = v * 10 + d;
	}
	*ret = v;
	return true;
}
