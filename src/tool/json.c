/* JSON writer (RFC 8259). Strings are escaped per §7: '"', '\\' and control
 * characters; bytes that are not well-formed UTF-8 (RFC 3629 §4: no
 * overlongs, no surrogates, nothing above U+10FFFF; the loader's own decoder,
 * utf8_decode()) become U+FFFD, so the output parses whatever a hostile image
 * carried in its names. */
#include "json.h"
#include "core/str16.h"
#include <string.h>

void json_init(struct json *j, struct strbuf *out)
{
	memset(j, 0, sizeof(*j));
	j->out = out;
}

static void json_escape(struct strbuf *out, const char *str, size_t n)
{
	const uint8_t *s = (const uint8_t *)str;

	sb_putc(out, '"');
	for (size_t i = 0; i < n;) {
		uint32_t cp;
		size_t l = utf8_decode(s + i, n - i, &cp);

		if (l == 0) {
			sb_puts(out, "\\ufffd");
			i++;
		} else if (s[i] == '"' || s[i] == '\\') {
			sb_putc(out, '\\');
			sb_putc(out, (char)s[i++]);
		} else if (s[i] == '\n') {
			sb_puts(out, "\\n"), i++;
		} else if (s[i] == '\t') {
			sb_puts(out, "\\t"), i++;
		} else if (s[i] < 0x20 || s[i] == 0x7f) {
			sb_printf(out, "\\u%04x", s[i++]);
		} else {
			sb_putn(out, (const char *)s + i, l);
			i += l;
		}
	}
	sb_putc(out, '"');
}

static void json_indent(struct json *j)
{
	sb_putc(j->out, '\n');
	for (int i = 0; i < j->depth; i++)
		sb_puts(j->out, "  ");
}

/* Separator, indentation and key before any value. */
static void json_key(struct json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->has_items[j->depth])
			sb_putc(j->out, ',');
		j->has_items[j->depth] = true;
		json_indent(j);
	}
	if (key) {
		json_escape(j->out, key, strlen(key));
		sb_puts(j->out, ": ");
	}
}

static void json_open(struct json *j, const char *key, char c)
{
	json_key(j, key);
	sb_putc(j->out, c);
	if (j->depth + 1 < JSON_MAX_DEPTH)
		j->depth++;
	j->has_items[j->depth] = false;
}

static void json_close(struct json *j, char c)
{
	bool items = j->has_items[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (items)
		json_indent(j);
	sb_putc(j->out, c);
	if (j->depth == 0)
		sb_putc(j->out, '\n');
}

void json_obj_begin(struct json *j, const char *key) { json_open(j, key, '{'); }
void json_obj_end(struct json *j) { json_close(j, '}'); }
void json_arr_begin(struct json *j, const char *key) { json_open(j, key, '['); }
void json_arr_end(struct json *j) { json_close(j, ']'); }

void json_strn(struct json *j, const char *key, const char *s, size_t n)
{
	json_key(j, key);
	json_escape(j->out, s, n);
}

void json_str(struct json *j, const char *key, const char *s)
{
	if (!s) {
		json_null(j, key);
		return;
	}
	json_strn(j, key, s, strlen(s));
}

void json_uint(struct json *j, const char *key, uint64_t v)
{
	json_key(j, key);
	sb_printf(j->out, "%llu", (unsigned long long)v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_key(j, key);
	sb_puts(j->out, v ? "true" : "false");
}

void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	sb_puts(j->out, "null");
}
