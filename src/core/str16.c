/* UTF-8 <-> UTF-16 for firmware strings (paths, LoadOptions, variables,
 * console), through one strict UTF-8 decoder (Unicode 15.0 §3.9, Table 3-7
 * "Well-Formed UTF-8 Byte Sequences"). Code points above U+FFFF become
 * surrogate pairs, as Linux's EFI stub decodes LoadOptions; whatever cannot be
 * decoded becomes U+FFFD, never a NUL that would end the string early. Pure, so
 * the stub's handling of LoadOptions is host-tested and fuzzed. */
#include "str16.h"
#include "fmt.h"

#define SURROGATE_HIGH 0xd800u
#define SURROGATE_LOW 0xdc00u
#define SURROGATE_END 0xe000u
#define UNICODE_MAX 0x10ffffu

size_t strlen16(const CHAR16 *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

/* Each continuation byte is checked before the next one is read, so a
 * NUL-terminated string is never read past its NUL. */
size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *ret_cp)
{
	static const uint32_t min[] = { 0, 0x80, 0x800, 0x10000 }; /* below: an overlong form */
	uint32_t c;
	size_t len;

	if (n == 0)
		return 0;
	c = s[0];
	len = c < 0x80 ? 1 : c < 0xc0 ? 0 : c < 0xe0 ? 2 : c < 0xf0 ? 3 : c < 0xf8 ? 4 : 0;
	if (len == 0) /* a stray continuation byte, or no lead byte at all */
		return 0;
	if (len > 1)
		c &= 0x7fu >> len;
	for (size_t i = 1; i < len; i++) {
		if (i >= n || (s[i] & 0xc0) != 0x80) /* truncated */
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min[len - 1] || c > UNICODE_MAX || (c >= SURROGATE_HIGH && c < SURROGATE_END))
		return 0;
	*ret_cp = c;
	return len;
}

size_t utf8_encode(uint32_t cp, char *out)
{
	uint8_t *o = (uint8_t *)out;
	size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;

	if (len == 1) {
		o[0] = (uint8_t)cp;
		return 1;
	}
	for (size_t i = len - 1; i > 0; i--, cp >>= 6)
		o[i] = (uint8_t)(0x80 | (cp & 0x3f));
	o[0] = (uint8_t)((0xff00u >> len) | cp); /* lead byte 0xc0, 0xe0 or 0xf0 */
	return len;
}

bool utf8_check(const char *s, size_t n, size_t *ret_offset)
{
	uint32_t c;

	for (size_t i = 0; i < n;) {
		size_t len = utf8_decode((const uint8_t *)s + i, n - i, &c);

		if (!len) {
			*ret_offset = i;
			return false;
		}
		i += len;
	}
	return true;
}

const char *utf8_problem(const char *s, size_t n, char buf[UTF8_PROBLEM_MAX])
{
	size_t at;

	if (utf8_check(s, n, &at))
		return NULL;
	fmt_snprintf(buf, UTF8_PROBLEM_MAX, "invalid UTF-8 at byte offset %zu (0x%02x)", at, (uint8_t)s[at]);
	return buf;
}

uint32_t utf8_next(const char **p)
{
	uint32_t c = UNICODE_REPLACEMENT;
	size_t len = utf8_decode((const uint8_t *)*p, 4, &c); /* stops at the NUL: see utf8_decode() */

	*p += len ? len : 1;
	return c;
}

CHAR16 *str8_to_16(const char *s, bool path)
{
	/* no UTF-8 sequence gives more UTF-16 units than it has bytes */
	CHAR16 *out = mem_alloc((strlen(s) + 1) * sizeof(CHAR16));
	size_t n = 0;

	if (!out)
		return NULL;
	while (*s) {
		uint32_t c = utf8_next(&s);

		if (path && c == '/')
			c = '\\';
		if (c >= 0x10000) {
			c -= 0x10000;
			out[n++] = (CHAR16)(SURROGATE_HIGH | c >> 10);
			c = SURROGATE_LOW | (c & 0x3ff);
		}
		out[n++] = (CHAR16)c;
	}
	out[n] = 0;
	return out;
}

char *str16le_to_8(const uint8_t *s, size_t max)
{
	size_t n = 0, len = 0;
	char *out;

	while (len < max && get_le16(s + 2 * len))
		len++;
	out = mem_alloc(len * 3 + 1); /* 3 bytes per unit, or 4 per pair */
	if (!out)
		return NULL;
	for (size_t i = 0; i < len; i++) {
		uint32_t c = get_le16(s + 2 * i), lo = i + 1 < len ? get_le16(s + 2 * (i + 1)) : 0;

		if (c >= SURROGATE_HIGH && c < SURROGATE_LOW && lo >= SURROGATE_LOW && lo < SURROGATE_END) {
			c = 0x10000 + ((c - SURROGATE_HIGH) << 10) + (lo - SURROGATE_LOW);
			i++;
		} else if (c >= SURROGATE_HIGH && c < SURROGATE_END) { /* half of a pair alone */
			c = UNICODE_REPLACEMENT;
		}
		n += utf8_encode(c, out + n);
	}
	out[n] = '\0';
	return out;
}

char *str16_to_8(const CHAR16 *s, size_t max)
{
	/* x86 is little-endian: a CHAR16 array is UTF-16LE in memory */
	return str16le_to_8((const uint8_t *)s, max);
}

bool str8_has_suffix_ci(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	if (m > n)
		return false;
	for (size_t i = 0; i < m; i++) {
		char a = s[n - m + i], b = suffix[i];
		if ((a | 0x20) != (b | 0x20) && a != b)
			return false;
	}
	return true;
}
