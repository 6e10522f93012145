/* memcpy and memset on AArch64 firmware: plain loops, eight bytes at a time
 * where the addresses and the length allow (no SIMD: -mgeneral-regs-only).
 * The freestanding build (-ffreestanding: no builtins) does not turn these
 * loops back into calls of themselves. */
#include "core/platform.h"

#define WORD sizeof(uint64_t)

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;
	size_t i = 0;

	if ((((uintptr_t)d | (uintptr_t)s) & (WORD - 1)) == 0)
		for (; i + WORD <= n; i += WORD)
			*(uint64_t *)(d + i) = *(const uint64_t *)(s + i);
	for (; i < n; i++)
		d[i] = s[i];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;
	uint64_t pattern = (uint8_t)c * 0x0101010101010101ull;
	size_t i = 0;

	if (((uintptr_t)d & (WORD - 1)) == 0)
		for (; i + WORD <= n; i += WORD)
			*(uint64_t *)(d + i) = pattern;
	for (; i < n; i++)
		d[i] = (uint8_t)c;
	return dst;
}
