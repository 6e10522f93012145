/* LZMA decoding for the packed loaders (pack.h), from the LZMA specification
 * (lzma-specification.txt of the LZMA SDK): a raw stream with no header and
 * no end marker, of a size the caller knows, with fixed properties. Small
 * over fast; every distance and length checked against the output. The build
 * compresses with liblzma (src/pack/lzma_enc.c). */
#ifndef CORE_LZMA_H
#define CORE_LZMA_H

#include "fwarch.h"
#include "platform.h"
#include <efi/efi.h>

/* The properties (specification: lc, lp, pb): literals coded by the top three
 * bits of the byte before, no position bits; the best on the x86 loaders'
 * images. The AArch64 loader's, whose code is 4-byte words: literals by the
 * top bit of the byte before and their position in the word (lc 1, lp 2),
 * 941 bytes less stream than lc 3 lp 0 (pb 2 would take 1.3 KB more off, at
 * the cost of probabilities by position in the decoder). lc + lp is at most
 * LZMA_LIT_BITS: the literal probabilities are sized for that. */
#define LZMA_LC 3
#define LZMA_LP 0
#define LZMA_PB 0
#define LZMA_AA64_LC 1
#define LZMA_AA64_LP 2
#define LZMA_LIT_BITS 3

/**
 * lzma_decode_arch() - decode the raw LZMA stream @src (@src_len bytes, the
 * properties of the loader for @fw: LZMA_AA64_LC and LZMA_AA64_LP for
 * FW_AA64, LZMA_LC and LZMA_LP otherwise, LZMA_PB; no end marker) into
 * exactly @dst_len bytes at @dst. A firmware build decodes its own
 * architecture's (fw_is()). Uses about 16 KB of stack for the probabilities.
 * Return: EFI_SUCCESS; EFI_COMPROMISED_DATA for a stream that reads past
 * @src_len, refers before the output's start or past its end, carries an end
 * marker, or does not finish (the range decoder's code 0) at exactly @dst_len
 * bytes and the last byte of @src.
 */
EFI_STATUS lzma_decode_arch(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len, enum fw_arch fw);

/** lzma_decode() - lzma_decode_arch() for x86 (LZMA_LC, LZMA_LP). */
EFI_STATUS lzma_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

#endif
