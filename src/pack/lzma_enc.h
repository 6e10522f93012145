/* The packer's compressor (host side, src/pack/mkpack.c and the tests):
 * liblzma's raw LZMA at its best settings, in the properties the loaders'
 * decoder takes (src/core/lzma.h), without an end marker. */
#ifndef PACK_LZMA_ENC_H
#define PACK_LZMA_ENC_H

#include <stddef.h>
#include <stdint.h>

/**
 * lzma_enc_raw() - @len bytes of @src as a raw LZMA stream (@lc, @lp,
 * LZMA_PB; no end marker: the reader knows the size) into @dst
 * (@cap bytes). A pack_compress_fn (src/core/pack.h).
 * Return: the stream's size, or 0 when it does not fit or liblzma fails.
 */
size_t lzma_enc_raw(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, unsigned lc, unsigned lp);

#endif
