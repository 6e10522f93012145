/* Pure readers of the tool's untrusted input (readers.h): what an entry file
 * refers to, the words of a command-line file, BootOrder. No file system
 * here: the callers read the bytes, tests/fuzz/fuzz_tool_readers.c fuzzes these. */
#define _GNU_SOURCE /* memmem */
#include "readers.h"
#include "tool.h"
#include "core/array.h"
#include "core/str16.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Around a value: what isspace() trims in the C locale. */
static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f';
}

/* Between the words of a command-line file. */
static bool is_word_sep(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

static char *dup_n(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/* One line's reference: "KEY /path" with KEY one of the file keys. */
static char *line_ref(const char *p, size_t len)
{
	static const char *const keys[] = { "linux", "initrd", "efi", "devicetree" };
	size_t klen = 0, v, vlen;

	if (memchr(p, '\0', len) || !utf8_check(p, len, &v))
		return NULL;
	while (klen < len && p[klen] != ' ' && p[klen] != '\t')
		klen++;
	for (v = klen; v < len && (p[v] == ' ' || p[v] == '\t'); v++)
		;
	for (vlen = len - v; vlen && is_blank(p[v + vlen - 1]); vlen--)
		;
	if (!vlen || p[v] != '/' || memmem(p + v, vlen, "..", 2))
		return NULL;
	for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		if (klen == strlen(keys[k]) && strncmp(p, keys[k], klen) == 0)
			return dup_n(p + v, vlen);
	return NULL;
}

size_t entry_text_refs(const char *text, size_t len, char ***ret)
{
	char **refs = NULL, *ref;
	size_t n = 0;

	for (size_t pos = 0, end; pos < len; pos = end + 1) {
		const char *lf = memchr(text + pos, '\n', len - pos);

		end = lf ? (size_t)(lf - text) : len;
		ref = line_ref(text + pos, end - pos);
		if (ref && array_append(&refs, &n, sizeof(ref), &ref) != EFI_SUCCESS) {
			fputs("handoff: out of memory\n", stderr);
			exit(EXIT_FAIL);
		}
	}
	*ret = refs;
	return n;
}

static bool starts_with(const char *w, size_t n, const char *prefix)
{
	return prefix && n >= strlen(prefix) && strncmp(w, prefix, strlen(prefix)) == 0;
}

char *text_words(const char *text, size_t len, const char *drop1, const char *drop2)
{
	struct strbuf sb = { 0 };
	size_t i = 0;

	len = strnlen(text, len);
	while (i < len) {
		size_t start, n;

		while (i < len && is_word_sep(text[i]))
			i++;
		for (start = i; i < len && !is_word_sep(text[i]); i++)
			;
		n = i - start;
		if (n && !starts_with(text + start, n, drop1) && !starts_with(text + start, n, drop2)) {
			if (sb.len)
				sb_putc(&sb, ' ');
			sb_putn(&sb, text + start, n);
		}
	}
	return sb.buf ? sb.buf : xstrdup("");
}

size_t boot_order_put_first(const uint8_t *cur, size_t len, uint16_t num, uint8_t *out)
{
	size_t n = 2;

	put_le16(out, num);
	for (size_t i = 0; cur && i + 1 < len; i += 2)
		if (get_le16(cur + i) != num) {
			memcpy(out + n, cur + i, 2);
			n += 2;
		}
	return n;
}

/* The component of @n bytes at @s is a name: not empty, ".", or "..". */
static bool component_ok(const char *s, size_t n)
{
	return n && !(n == 1 && s[0] == '.') && !(n == 2 && s[0] == '.' && s[1] == '.');
}

char *count_path_relative(const char *value, const char **ret_why)
{
	size_t len = strlen(value), at, o = 0, comp = 0;
	char *out;

	if (len == 0 || len > PATH_VALUE_MAX)
		return *ret_why = len ? "longer than 1024 bytes" : "empty", NULL;
	if (!utf8_check(value, len, &at))
		return *ret_why = "not well-formed UTF-8", NULL;
	if (value[0] != '\\' && value[0] != '/')
		return *ret_why = "not a path from the partition's root (no leading '\\')", NULL;
	out = xmalloc(len);
	for (size_t i = 1; i <= len; i++) {
		char c = value[i];

		if (c && (unsigned char)c < 0x20)
			*ret_why = "holds a control character";
		else if (c && c != '\\' && c != '/') {
			out[o++] = c;
			continue;
		} else if (!component_ok(out + comp, o - comp))
			*ret_why = "has an empty, \".\" or \"..\" component";
		else {
			out[o++] = c ? '/' : '\0';
			comp = o;
			continue;
		}
		free(out);
		return NULL;
	}
	return out;
}

static char *trimmed(const char *s, size_t n)
{
	while (n && is_blank(*s))
		s++, n--;
	while (n && is_blank(s[n - 1]))
		n--;
	if (n >= 2 && (s[0] == '"' || s[0] == '\'') && s[n - 1] == s[0])
		s++, n -= 2;
	return dup_n(s, n);
}

/* One line (without its line feed) into @ret; false for a blank line or a comment. */
static bool kv_line_parse(const char *p, size_t len, struct kv_line *ret)
{
	const char *eq;
	size_t i = 0, at;

	while (i < len && is_blank(p[i]))
		i++;
	if (i == len || p[i] == '#')
		return false;
	eq = memchr(p, '=', len);
	if (memchr(p, '\0', len))
		ret->problem = "holds a NUL byte";
	else if (!utf8_check(p, len, &at))
		ret->problem = "is not well-formed UTF-8";
	else if (!eq)
		ret->problem = "is not key=value";
	if (ret->problem)
		return true;
	ret->key = trimmed(p, (size_t)(eq - p));
	ret->value = trimmed(eq + 1, len - (size_t)(eq + 1 - p));
	if (!*ret->key || strpbrk(ret->key, " \t\"'")) {
		free(ret->key);
		free(ret->value);
		ret->key = ret->value = NULL;
		ret->problem = "has no usable key before '='";
	}
	return true;
}

size_t kv_parse(const char *text, size_t len, struct kv_line **ret)
{
	struct kv_line *v = NULL, cur;
	size_t n = 0, line = 0;

	for (size_t pos = 0, end; pos < len; pos = end + 1) {
		const char *lf = memchr(text + pos, '\n', len - pos);

		end = lf ? (size_t)(lf - text) : len;
		cur = (struct kv_line){ .line = ++line };
		if (kv_line_parse(text + pos, end - pos, &cur) &&
		    array_append(&v, &n, sizeof(cur), &cur) != EFI_SUCCESS) {
			fputs("handoff: out of memory\n", stderr);
			exit(EXIT_FAIL);
		}
	}
	*ret = v;
	return n;
}

void kv_free(struct kv_line *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
	}
	free(v);
}

/* Does the line @p (@len bytes) set @key: blanks, @key, then a blank, @sep or its end? */
static bool line_sets(const char *p, size_t len, const char *key, char sep)
{
	size_t i = 0, n = strlen(key);

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (len - i < n || memcmp(p + i, key, n) != 0)
		return false;
	i += n;
	return i == len || p[i] == sep || p[i] == ' ' || p[i] == '\t' || p[i] == '\r';
}

char *text_set_setting(const char *text, size_t len, const char *key, char sep, const char *line, size_t *ret_len)
{
	const char *first_nl = len ? memchr(text, '\n', len) : NULL;
	const char *nl = first_nl && first_nl > text && first_nl[-1] == '\r' ? "\r\n" : "\n";
	struct strbuf sb = { 0 };
	bool done = false;

	for (size_t pos = 0, end; pos < len; pos = end + 1) {
		const char *lf = memchr(text + pos, '\n', len - pos);

		end = lf ? (size_t)(lf - text) : len;
		if (!line_sets(text + pos, end - pos, key, sep))
			sb_printf(&sb, "%.*s%s", (int)(end - pos), text + pos, lf ? "\n" : nl);
		else if (!done && line)
			sb_printf(&sb, "%s%s", line, nl);
		done |= line_sets(text + pos, end - pos, key, sep);
	}
	if (!done && line)
		sb_printf(&sb, "%s%s", line, nl);
	*ret_len = sb.len;
	return sb.buf ? sb.buf : xstrdup("");
}
