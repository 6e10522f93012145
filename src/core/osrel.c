/* os-release(5) parsing: newline-separated KEY=VALUE assignments in a subset of
 * shell syntax (quotes, backslash escapes; no expansion), '#' comments. */
#include "osrel.h"
#include "fmt.h"
#include "log.h"
#include "str16.h"

static const struct {
	const char *key;
	size_t offset;
} osrel_fields[] = {
	{ "PRETTY_NAME", offsetof(struct osrel, pretty_name) },
	{ "NAME", offsetof(struct osrel, name) },
	{ "ID", offsetof(struct osrel, id) },
	{ "VERSION_ID", offsetof(struct osrel, version_id) },
	{ "VERSION", offsetof(struct osrel, version) },
	{ "IMAGE_ID", offsetof(struct osrel, image_id) },
	{ "IMAGE_VERSION", offsetof(struct osrel, image_version) },
	{ "BUILD_ID", offsetof(struct osrel, build_id) },
	{ "TITLE", offsetof(struct osrel, title) },
};

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static bool is_key_char(char c, bool first)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_' || (!first && c >= '0' && c <= '9');
}

static bool has_char(const char *s, size_t n, char c)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] == c)
			return true;
	return false;
}

/* A quoted piece starting after the opening quote at s[*i]; os-release(5):
 * in double quotes, backslash escapes only the shell-special " \ $ `. */
static const char *parse_quoted(const char *s, size_t n, size_t *i, char quote, char *out, size_t *o)
{
	for (;;) {
		if (*i >= n)
			return quote == '"' ? "unterminated double quote" : "unterminated single quote";
		if (s[*i] == quote) {
			(*i)++;
			return NULL;
		}
		if (quote == '"' && s[*i] == '\\' && *i + 1 < n && strchr("\"\\$`", s[*i + 1]) && s[*i + 1]) {
			out[(*o)++] = s[*i + 1];
			*i += 2;
			continue;
		}
		out[(*o)++] = s[(*i)++];
	}
}

/* Decode the shell word s[0..n) into out (never longer than n). Return: NULL
 * or the reason the value is malformed. */
static const char *parse_value(const char *s, size_t n, char *out, size_t *ret_len)
{
	size_t i = 0, o = 0;
	const char *bad;

	while (i < n) {
		char c = s[i];

		if (is_blank(c)) {
			for (; i < n; i++)
				if (!is_blank(s[i]))
					return "blank inside an unquoted value";
			break;
		}
		if (c == '"' || c == '\'') {
			i++;
			bad = parse_quoted(s, n, &i, c, out, &o);
			if (bad)
				return bad;
		} else if (c == '\\') {
			if (i + 1 >= n)
				return "backslash at the end of the line";
			out[o++] = s[i + 1];
			i += 2;
		} else {
			out[o++] = s[i++];
		}
	}
	out[o] = '\0';
	*ret_len = o;
	return NULL;
}

static EFI_STATUS osrel_set(struct osrel *ret, const char *key, size_t key_len, const char *value, size_t value_len)
{
	for (size_t f = 0; f < ARRAY_SIZE(osrel_fields); f++) {
		char **field = (char **)((uint8_t *)ret + osrel_fields[f].offset);
		char *copy;

		if (strlen(osrel_fields[f].key) != key_len || strncmp(osrel_fields[f].key, key, key_len) != 0)
			continue;
		copy = mem_alloc(value_len + 1);
		if (!copy)
			return EFI_OUT_OF_RESOURCES;
		memcpy(copy, value, value_len + 1);
		mem_free(*field);
		*field = copy;
	}
	return EFI_SUCCESS;
}

/* One line without its newline; @value is scratch of at least n + 1 bytes. */
static EFI_STATUS osrel_line(const char *s, size_t n, const char *name, unsigned line_no, char *value,
			     struct osrel *ret)
{
	size_t i = 0, key_start, key_len, value_len;
	char why[UTF8_PROBLEM_MAX];
	const char *bad;

	while (i < n && is_blank(s[i]))
		i++;
	if (i == n || s[i] == '#')
		return EFI_SUCCESS;
	key_start = i;
	while (i < n && is_key_char(s[i], i == key_start))
		i++;
	key_len = i - key_start;
	/* os-release(5) is UTF-8; a .osrel comes from an image, so it is checked
	 * like an entry file (conf_line.c) before a value reaches the menu. */
	bad = utf8_problem(s, n, why);
	if (!bad && (i == n || s[i] != '=' || key_len == 0))
		bad = has_char(s, n, '=') ? "invalid variable name before '='" : "no '=' (expected KEY=VALUE)";
	else if (!bad)
		bad = parse_value(s + i + 1, n - i - 1, value, &value_len);
	if (bad) {
		log_warning("%s:%u: %s, line ignored", name, line_no, bad);
		ret->n_bad_lines++;
		return EFI_SUCCESS;
	}
	return osrel_set(ret, s + key_start, key_len, value, value_len);
}

EFI_STATUS osrel_parse(const char *text, size_t len, const char *name, struct osrel *ret)
{
	_cleanup_free_ char *value = NULL;
	size_t start = 0, end;
	unsigned line_no = 1;
	EFI_STATUS err;

	memset(ret, 0, sizeof(*ret));
	for (end = 0; end < len && text[end]; end++)
		;
	len = end;
	value = mem_alloc(len + 1);
	if (!value)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	while (start < len) {
		for (end = start; end < len && text[end] != '\n'; end++)
			;
		err = osrel_line(text + start, end - start, name, line_no++, value, ret);
		if (EFI_ERROR(err))
			return log_error_status(err, "%s: out of memory", name);
		start = end + 1;
	}
	return EFI_SUCCESS;
}

void osrel_free(struct osrel *o)
{
	for (size_t f = 0; f < ARRAY_SIZE(osrel_fields); f++) {
		char **field = (char **)((uint8_t *)o + osrel_fields[f].offset);
		mem_free(*field);
		*field = NULL;
	}
	o->n_bad_lines = 0;
}

char *uname_from_kernel_version(const char *kver)
{
	size_t start = 0, n = 0, bad;
	char *r;

	if (!kver)
		return NULL;
	while (kver[start] && is_blank(kver[start]))
		start++;
	while (kver[start + n] && !is_blank(kver[start + n]) && kver[start + n] != '\n')
		n++;
	if (n == 0 || !utf8_check(kver + start, n, &bad)) /* it becomes .uname and the menu's title */
		return NULL;
	r = mem_alloc(n + 1);
	if (!r)
		return NULL;
	memcpy(r, kver + start, n);
	r[n] = '\0';
	return r;
}

/* Double-quote @s for os-release: escape the four characters special there. */
static char *osrel_quote(const char *s)
{
	size_t n = 0, o = 0;
	char *r;

	for (size_t i = 0; s[i]; i++)
		n += strchr("\"\\$`", s[i]) ? 2 : 1;
	r = mem_alloc(n + 3);
	if (!r)
		return NULL;
	r[o++] = '"';
	for (size_t i = 0; s[i]; i++) {
		if (strchr("\"\\$`", s[i]))
			r[o++] = '\\';
		r[o++] = s[i];
	}
	r[o++] = '"';
	r[o] = '\0';
	return r;
}

char *osrel_default(const char *kver)
{
	_cleanup_free_ char *uname = uname_from_kernel_version(kver);
	_cleanup_free_ char *pretty = NULL, *pretty_q = NULL, *version_q = NULL;

	if (!uname)
		return fmt_asprintf("NAME=\"Linux\"\nID=linux\nPRETTY_NAME=\"Linux\"\n");
	pretty = fmt_asprintf("Linux %s", uname);
	if (!pretty)
		return NULL;
	pretty_q = osrel_quote(pretty);
	version_q = osrel_quote(uname);
	if (!pretty_q || !version_q)
		return NULL;
	return fmt_asprintf("NAME=\"Linux\"\nID=linux\nPRETTY_NAME=%s\nVERSION_ID=%s\n", pretty_q, version_q);
}
