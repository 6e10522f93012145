/* memcpy and memset on x86 (x86-64 and IA-32 firmware, the probe): the
 * string instructions (Intel SDM Vol. 2B "REP MOVS", "REP STOS"). */
#include "core/platform.h"

void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	/* rep movsb is fast on every CPU with ERMS and compact everywhere. */
	__asm__ volatile("rep movsb" : "+D"(d), "+S"(s), "+c"(n) : : "memory");
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	__asm__ volatile("rep stosb" : "+D"(d), "+c"(n) : "a"(c) : "memory");
	return dst;
}
