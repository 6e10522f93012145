/* Line splitting for loader.conf and BLS entries (Boot Loader Specification,
 * "Type #1 Boot Loader Entry Files": one key and value per line, '#'
 * comments, the value is the rest of the line). */
#include "lines.h"
#include "log.h"

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool split_line(const char *s, size_t n, struct kv_line *l)
{
	size_t k = 0, v;

	while (n && (is_blank(s[n - 1]) || s[n - 1] == '\r'))
		n--;
	while (k < n && is_blank(s[k]))
		k++;
	s += k;
	n -= k;
	for (k = 0; k < n && !is_blank(s[k]); k++)
		;
	for (v = k; v < n && is_blank(s[v]); v++)
		;
	l->key = s;
	l->key_len = k;
	l->value = s + v;
	l->value_len = n - v;
	return l->value_len > 0;
}

static bool is_comment_or_blank(const char *s, size_t n)
{
	while (n && (is_blank(*s) || *s == '\r'))
		s++, n--;
	return n == 0 || *s == '#';
}

unsigned kv_parse(const char *text, size_t len, const char *path, kv_line_fn fn, void *ctx)
{
	unsigned bad = 0, number = 0;
	size_t pos = 0;

	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		pos = 3;
	while (pos < len) {
		const char *s = text + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;
		struct kv_line l = { .number = ++number };

		pos += n + 1;
		if (memchr(s, '\0', n)) {
			log_error("%s:%u: NUL byte in line, ignored", path, number);
			bad++;
		} else if (n > LINE_MAX_LEN) {
			log_error("%s:%u: line longer than %u bytes, ignored", path, number, LINE_MAX_LEN);
			bad++;
		} else if (is_comment_or_blank(s, n)) {
			continue;
		} else if (!split_line(s, n, &l)) {
			log_error("%s:%u: '%.*s' has no value, ignored", path, number, (int)MIN(l.key_len, (size_t)64), l.key);
			bad++;
		} else if (!fn(ctx, &l)) {
			bad++;
		}
	}
	return bad;
}

bool kv_key_is(const struct kv_line *l, const char *key)
{
	return strlen(key) == l->key_len && memcmp(l->key, key, l->key_len) == 0;
}

char *kv_value_dup(const struct kv_line *l)
{
	char *s = mem_alloc(l->value_len + 1);

	if (s) {
		memcpy(s, l->value, l->value_len);
		s[l->value_len] = '\0';
	}
	return s;
}

bool kv_value_bool(const struct kv_line *l, bool *ret)
{
	static const char *const yes[] = { "yes", "true", "on", "1" }, *const no[] = { "no", "false", "off", "0" };

	for (size_t i = 0; i < ARRAY_SIZE(yes); i++) {
		if (l->value_len == strlen(yes[i]) && memcmp(l->value, yes[i], l->value_len) == 0)
			return *ret = true, true;
		if (l->value_len == strlen(no[i]) && memcmp(l->value, no[i], l->value_len) == 0)
			return *ret = false, true;
	}
	return false;
}
