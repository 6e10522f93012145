/* libFuzzer: the host tool's readers of files and variables it did not write
 * (src/tool/readers.c, src/tool/efivarfs.c's decoding). An entry file's
 * references are absolute paths without "..", taken whole from a line that
 * is well-formed UTF-8; a command-line file's words are joined by single
 * spaces without the dropped ones; BootOrder gets the new number first and
 * only once, the other numbers in their order; a string variable decodes to
 * well-formed UTF-8 that writes back as the same units (lone surrogates as
 * U+FFFD); LoaderBootCountPath gives a relative path of names or a reason;
 * a configuration file's keys and values are UTF-8, each from one line; a
 * setting written into one is there once, the rest kept. */
#define _GNU_SOURCE /* memmem */
#include "tool/readers.h"
#include "core/array.h"
#include "core/str16.h"
#include "utf8_ref.h"
#include <stdlib.h>
#include <string.h>

static void check_refs(const uint8_t *data, size_t size)
{
	char **refs = NULL;
	size_t n = entry_text_refs((const char *)data, size, &refs);

	for (size_t i = 0; i < n; i++) {
		size_t len = strlen(refs[i]);

		if (refs[i][0] != '/' || strstr(refs[i], "..") || len > size ||
		    !ref_utf8_valid((const uint8_t *)refs[i], len, NULL) || !memmem(data, size, refs[i], len))
			abort();
	}
	strv_free(refs, n);
}

static bool dropped(const char *w, size_t n)
{
	return (n >= 11 && memcmp(w, "BOOT_IMAGE=", 11) == 0) || (n >= 7 && memcmp(w, "initrd=", 7) == 0);
}

static void check_words(const uint8_t *data, size_t size)
{
	char *s = text_words((const char *)data, size, "BOOT_IMAGE=", "initrd="), *w;
	size_t len = strlen(s);

	if (len > size || (len && (s[0] == ' ' || s[len - 1] == ' ')) || strstr(s, "  ") || strpbrk(s, "\t\r\n"))
		abort();
	for (w = s; *w; w += strcspn(w, " ")) {
		w += *w == ' ';
		if (dropped(w, strcspn(w, " ")) || !memmem(data, size, w, strcspn(w, " ")))
			abort();
	}
	free(s);
}

static void check_boot_order(const uint8_t *data, size_t size)
{
	uint16_t num = size >= 2 ? (uint16_t)(data[0] | data[1] << 8) : 0x1234;
	const uint8_t *cur = size >= 2 ? data + 2 : NULL;
	size_t len = size >= 2 ? size - 2 : 0, k = 2;
	uint8_t *out = malloc(len + 2);
	size_t n = boot_order_put_first(cur, len, num, out);

	if (n % 2 || n > len + 2 || (out[0] | out[1] << 8) != num)
		abort();
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint16_t v = (uint16_t)(cur[i] | cur[i + 1] << 8);

		if (v == num)
			continue;
		if (k + 2 > n || memcmp(out + k, cur + i, 2) != 0)
			abort(); /* another number lost or moved */
		k += 2;
	}
	if (k != n)
		abort();
	free(out);
}

/* efivar_read_str() then efivar_write_str() of what it read. */
static void check_string_variable(const uint8_t *data, size_t size)
{
	char *s = str16le_to_8(data, size / 2);
	size_t at;
	CHAR16 *w;

	if (!s || !utf8_check(s, strlen(s), &at) || !ref_utf8_valid((const uint8_t *)s, strlen(s), NULL))
		abort();
	w = str8_to_16(s, /* path= */ false);
	for (size_t i = 0; w && i < strlen16(w); i++) {
		uint16_t c = (uint16_t)(data[2 * i] | data[2 * i + 1] << 8);

		if (w[i] != c && w[i] != 0xfffd)
			abort();
	}
	if (!w)
		abort();
	mem_free(w);
	mem_free(s);
}

/* LoaderBootCountPath: a relative path of names, never "..", never leaving the partition. */
static void check_count_path(const uint8_t *data, size_t size)
{
	char *value = malloc(size + 1), *rel;
	const char *why = NULL;

	memcpy(value, data, size);
	value[size] = '\0';
	rel = count_path_relative(value, &why);
	if (rel) {
		size_t n = strlen(rel);

		if (why || !n || n >= size || rel[0] == '/' || rel[n - 1] == '/' || strchr(rel, '\\') ||
		    strstr(rel, "//") || !ref_utf8_valid((const uint8_t *)rel, n, NULL))
			abort();
		for (size_t i = 0, start = 0; i <= n; i++)
			if (!rel[i] || rel[i] == '/') {
				if (i == start || (i - start == 1 && rel[start] == '.') ||
				    (i - start == 2 && rel[start] == '.' && rel[start + 1] == '.'))
					abort(); /* an empty, "." or ".." component */
				start = i + 1;
			}
		for (size_t i = 0; i < n; i++)
			if ((unsigned char)rel[i] < 0x20)
				abort();
	} else if (!why) {
		abort();
	}
	free(rel);
	free(value);
}

/* handoff.conf and install.conf lines: whole UTF-8 keys and values, never across a line. */
static void check_kv(const uint8_t *data, size_t size)
{
	struct kv_line *v;
	size_t n = kv_parse((const char *)data, size, &v), last = 0;

	for (size_t i = 0; i < n; i++) {
		if (v[i].line <= last || !v[i].key != !v[i].value || !v[i].key == !v[i].problem)
			abort();
		last = v[i].line;
		if (v[i].key && (!*v[i].key || strpbrk(v[i].key, " \t\n\"'") || strchr(v[i].value, '\n') ||
				 !ref_utf8_valid((const uint8_t *)v[i].key, strlen(v[i].key), NULL) ||
				 !ref_utf8_valid((const uint8_t *)v[i].value, strlen(v[i].value), NULL)))
			abort();
	}
	kv_free(v, n);
}

/* A setting written into a configuration file (text_set_setting()): its
 * line is there once, whole; the other lines stay, so the text grows by at
 * most that line and two line ends (CRLF). */
static void check_set_setting(const uint8_t *data, size_t size)
{
	static const char line[] = "secure-boot-enroll force";
	const size_t k = sizeof(line) - 1;
	size_t n = 0, whole = 0;
	char *out = text_set_setting((const char *)data, size, "secure-boot-enroll", ' ', line, &n);

	for (const char *at = out; (at = memmem(at, n - (size_t)(at - out), line, k)); at++)
		whole += (at == out || at[-1] == '\n') && (size_t)(at - out) + k < n && memchr("\r\n", at[k], 2);
	if (n > size + k + 4 || whole != 1)
		abort();
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_refs(data, size);
	check_words(data, size);
	check_boot_order(data, size);
	check_string_variable(data, size);
	check_count_path(data, size);
	check_kv(data, size);
	check_set_setting(data, size);
	return 0;
}
