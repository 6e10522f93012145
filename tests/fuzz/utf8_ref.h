/* Reference UTF-8 and UTF-16 decoders for the fuzzers' properties, written
 * apart from src/core/str16.c so that the two can disagree: UTF-8 by the byte
 * ranges of Unicode 15.0 Table 3-7 (no arithmetic on code points), UTF-16
 * LoadOptions the way Linux's EFI stub turns them into its command line
 * (drivers/firmware/efi/libstub efi_convert_cmdline()). */
#ifndef FUZZ_UTF8_REF_H
#define FUZZ_UTF8_REF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of the well-formed sequence at @s (Table 3-7), or 0. */
static inline size_t ref_utf8_seq(const uint8_t *s, size_t n)
{
	uint8_t b = s[0], lo = 0x80, hi = 0xbf;
	size_t len;

	if (b <= 0x7f)
		return 1;
	if (b >= 0xc2 && b <= 0xdf)
		len = 2;
	else if (b == 0xe0)
		len = 3, lo = 0xa0;
	else if ((b >= 0xe1 && b <= 0xec) || b == 0xee || b == 0xef)
		len = 3;
	else if (b == 0xed)
		len = 3, hi = 0x9f;
	else if (b == 0xf0)
		len = 4, lo = 0x90;
	else if (b >= 0xf1 && b <= 0xf3)
		len = 4;
	else if (b == 0xf4)
		len = 4, hi = 0x8f;
	else
		return 0;
	if (n < len || s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

/* The scalar value of the well-formed sequence of @len bytes at @s. */
static inline uint32_t ref_utf8_value(const uint8_t *s, size_t len)
{
	static const uint8_t lead_mask[] = { 0, 0x7f, 0x1f, 0x0f, 0x07 };
	uint32_t c = s[0] & lead_mask[len];

	for (size_t i = 1; i < len; i++)
		c = c * 64 + (s[i] & 0x3f);
	return c;
}

/* Whether @s[0..@n) is well-formed; *@ret_bad is where it stops being. */
static inline bool ref_utf8_valid(const uint8_t *s, size_t n, size_t *ret_bad)
{
	for (size_t i = 0, len; i < n; i += len)
		if (!(len = ref_utf8_seq(s + i, n - i))) {
			if (ret_bad)
				*ret_bad = i;
			return false;
		}
	return true;
}

/*
 * efi_convert_cmdline(): @size bytes of UTF-16LE LoadOptions to UTF-8 in
 * @out (room for 3 bytes a unit and a NUL). It stops at a NUL or a line feed
 * (*@ret_units: units read before it), combines a high and a low surrogate
 * into 4 bytes and writes U+FFFD for a lone one (*@ret_lone is then set).
 * Return: the bytes written before the NUL it adds.
 */
static inline size_t ref_linux_cmdline(const uint8_t *u, size_t size, uint8_t *out, size_t *ret_units,
				       bool *ret_lone)
{
	size_t n_units = size / 2, o = 0, i;

	*ret_lone = false;
	for (i = 0; i < n_units; i++) {
		uint32_t c = (uint32_t)u[2 * i] | (uint32_t)u[2 * i + 1] << 8, lo;

		if (c == 0 || c == '\n')
			break;
		if (c >= 0xd800 && c <= 0xdbff && i + 1 < n_units &&
		    (lo = (uint32_t)u[2 * i + 2] | (uint32_t)u[2 * i + 3] << 8) >= 0xdc00 && lo <= 0xdfff) {
			c = 0x10000 + (c - 0xd800) * 0x400 + (lo - 0xdc00);
			i++;
		} else if (c >= 0xd800 && c <= 0xdfff) {
			c = 0xfffd;
			*ret_lone = true;
		}
		if (c < 0x80) {
			out[o++] = (uint8_t)c;
		} else if (c < 0x800) {
			out[o++] = (uint8_t)(0xc0 + c / 64);
			out[o++] = (uint8_t)(0x80 + c % 64);
		} else if (c < 0x10000) {
			out[o++] = (uint8_t)(0xe0 + c / 4096);
			out[o++] = (uint8_t)(0x80 + c / 64 % 64);
			out[o++] = (uint8_t)(0x80 + c % 64);
		} else {
			out[o++] = (uint8_t)(0xf0 + c / 262144);
			out[o++] = (uint8_t)(0x80 + c / 4096 % 64);
			out[o++] = (uint8_t)(0x80 + c / 64 % 64);
			out[o++] = (uint8_t)(0x80 + c % 64);
		}
	}
	out[o] = 0;
	*ret_units = i;
	return o;
}

#endif
