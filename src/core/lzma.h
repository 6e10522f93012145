/* LZMA decoding for the packed loaders (pack.h), from the LZMA specification
 * (lzma-specification.txt of the LZMA SDK): a raw stream with no header and
 * no end marker, of a size the caller knows, with fixed properties. Small
 * over fast; every distance and length checked against the output. The build
 * compresses with liblzma (src/pack/lzma_enc.c). */
#ifndef CORE_LZMA_H
#define CORE_LZMA_H

#include "platform.h"
#include <efi/efi.h>

/* The properties (specification: lc, lp, pb): literals coded by the top three
 * bits of the byte before, no position bits; the best on the loaders' images. */
#define LZMA_LC 3
#define LZMA_LP 0
#define LZMA_PB 0

/**
 * lzma_decode() - decode the raw LZMA stream @src (@src_len bytes, properties
 * LZMA_LC, LZMA_LP, LZMA_PB, no end marker) into exactly @dst_len bytes at @dst.
 * Uses about 16 KB of stack for the probabilities.
 * Return: EFI_SUCCESS; EFI_COMPROMISED_DATA for a stream that reads past
 * @src_len, refers before the output's start or past its end, carries an end
 * marker, or does not finish (the range decoder's code 0) at exactly @dst_len
 * bytes and the last byte of @src.
 */
EFI_STATUS lzma_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

#endif
