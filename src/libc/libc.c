/* The few libc functions the freestanding builds need (the loaders, the stub
 * and the probe: one copy for all); clang may also emit calls to memcpy and
 * memset for struct copies. Host builds use the C library. memcpy and
 * memset are per architecture: libc_x86.c, libc_aa64.c. */
#include "core/platform.h"

void *memmove(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;

	for (size_t i = 0; i < n; i++)
		if (x[i] != y[i])
			return x[i] < y[i] ? -1 : 1;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

void *memchr(const void *s, int c, size_t n)
{
	const uint8_t *p = s;

	for (size_t i = 0; i < n; i++)
		if (p[i] == (uint8_t)c)
			return (void *)(p + i);
	return NULL;
}
