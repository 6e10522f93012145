/* UTF-8 <-> UCS-2 for firmware strings (paths, LoadOptions, console). Code
 * points above U+FFFF cannot be expressed in UCS-2 and become '?'. Pure, so
 * the stub's handling of LoadOptions is host-tested and fuzzed. */
#include "str16.h"

size_t strlen16(const CHAR16 *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

uint32_t utf8_next(const char **p)
{
	const uint8_t *s = (const uint8_t *)*p;
	uint32_t c = s[0];
	int n = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2 : (c & 0xf8) == 0xf0 ? 3 : -1;

	if (n < 0) {
		*p += 1;
		return 0xfffd;
	}
	c &= 0x7f >> n;
	for (int i = 1; i <= n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*p += 1;
			return 0xfffd;
		}
		c = c << 6 | (s[i] & 0x3f);
	}
	*p += n + 1;
	return c;
}

CHAR16 *str8_to_16(const char *s, bool path)
{
	CHAR16 *out = mem_alloc((strlen(s) + 1) * sizeof(CHAR16));
	size_t n = 0;

	if (!out)
		return NULL;
	while (*s) {
		uint32_t c = utf8_next(&s);
		if (path && c == '/')
			c = '\\';
		out[n++] = c > 0xffff ? '?' : (CHAR16)c;
	}
	out[n] = 0;
	return out;
}

char *str16_to_8(const CHAR16 *s, size_t max)
{
	size_t n = 0, len = 0;
	char *out;

	while (len < max && s[len])
		len++;
	out = mem_alloc(len * 3 + 1);
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		CHAR16 c = s[i];
		if (c < 0x80) {
			out[n++] = (char)c;
		} else if (c < 0x800) {
			out[n++] = (char)(0xc0 | c >> 6);
			out[n++] = (char)(0x80 | (c & 0x3f));
		} else {
			out[n++] = (char)(0xe0 | c >> 12);
			out[n++] = (char)(0x80 | ((c >> 6) & 0x3f));
			out[n++] = (char)(0x80 | (c & 0x3f));
		}
	}
	out[n] = '\0';
	return out;
}
