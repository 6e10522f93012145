/* The one place where the host build and the UEFI build of src/core differ:
 * libc string functions (from libc on the host, from src/libc/libc.c in UEFI)
 * and the allocator (malloc, or AllocatePool in src/efi/mem.c). */
#ifndef CORE_PLATFORM_H
#define CORE_PLATFORM_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if __STDC_HOSTED__
#include <string.h>
#else
void *memcpy(void *restrict dst, const void *restrict src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
void *memset(void *dst, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
void *memchr(const void *s, int c, size_t n);
#endif

/* Returns NULL on failure; never asserts (docs/style.md rule 7: a big initrd that does
 * not fit must go back to the menu, not freeze). */
void *mem_alloc(size_t size);
void mem_free(void *p);

static inline void *mem_zalloc(size_t size)
{
	void *p = mem_alloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define ALIGN_UP(v, a) (((v) + ((a) - 1)) & ~((__typeof__(v))(a) - 1))
#define ALIGN_DOWN(v, a) ((v) & ~((__typeof__(v))(a) - 1))
#define IS_POWER_OF_2(v) ((v) != 0 && ((v) & ((v) - 1)) == 0)

/* Take ownership: return the pointer and clear the variable (systemd's TAKE_PTR). */
#define TAKE_PTR(p) ({ __typeof__(p) _tp = (p); (p) = NULL; _tp; })

static inline void mem_freep(void *pp)
{
	mem_free(*(void **)pp);
}
#define _cleanup_free_ __attribute__((cleanup(mem_freep)))
/* Undo with @fn(&var) when var goes out of scope (fn takes a pointer to it). */
#define _cleanup_(fn) __attribute__((cleanup(fn)))

/* Little-endian loads from byte buffers that need not be aligned. */
static inline uint16_t get_le16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t get_le64(const uint8_t *p) { return get_le32(p) | (uint64_t)get_le32(p + 4) << 32; }
static inline void put_le16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void put_le32(uint8_t *p, uint32_t v)
{
	put_le16(p, (uint16_t)v);
	put_le16(p + 2, (uint16_t)(v >> 16));
}
static inline void put_le64(uint8_t *p, uint64_t v)
{
	put_le32(p, (uint32_t)v);
	put_le32(p + 4, (uint32_t)(v >> 32));
}

/* True when [off, off+len) lies inside a buffer of size total, without overflow. */
static inline bool range_ok(uint64_t off, uint64_t len, uint64_t total)
{
	return off <= total && len <= total - off;
}

#endif
