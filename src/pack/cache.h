/* What the unpacker (unpack.c) does between writing the loader's code and
 * jumping to it, which depends on the architecture. */
#ifndef PACK_CACHE_H
#define PACK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __aarch64__
/**
 * cache_sync_code() - make the @len bytes at @start, just written as data,
 * what instruction fetches see (cache_aa64.c).
 */
void cache_sync_code(uintptr_t start, size_t len);
#else
/* x86 keeps instruction fetches coherent with stores; a jump to the written
 * code is enough (Intel SDM vol. 3A §8.1.3, "Handling Self- and
 * Cross-Modifying Code"). */
static inline void cache_sync_code(uintptr_t start, size_t len)
{
}
#endif

#endif
