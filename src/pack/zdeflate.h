/* The packer's compressor, host side only (build/mkpack and the unit tests). */
#ifndef PACK_ZDEFLATE_H
#define PACK_ZDEFLATE_H

#include <stddef.h>
#include <stdint.h>

/**
 * zdeflate_raw() - Zopfli's smallest raw DEFLATE stream (RFC 1951, no zlib
 * wrapper) of @src (@len bytes) into @dst (@cap bytes): a pack_compress_fn
 * (core/pack.h).
 * Return: the stream's size, or 0 when it does not fit or Zopfli fails.
 */
size_t zdeflate_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap);

#endif
