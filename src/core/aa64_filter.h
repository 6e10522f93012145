/* The packed AArch64 loader's branch filter (pack.h, docs/image-formats.md
 * "Packed loaders"): before compression, BL and ADRP name their targets by
 * absolute position in the image instead of relative to themselves, so that
 * every call of one function, every reference to one page, carries the same
 * bits and the compressor finds them repeated. The AArch64 counterpart of
 * x86_filter.h; our own design, in place, reversible. */
#ifndef CORE_AA64_FILTER_H
#define CORE_AA64_FILTER_H

#include "platform.h"

/**
 * aa64_filter_encode() - rewrite, in place, each little-endian word of @buf
 * (@len bytes, RVA 0 at @buf) at a multiple of 4 that encodes a BL (its imm26
 * becomes the target's word index, modulo 2^26) or an ADRP (its imm21 becomes
 * the target's page number, modulo 2^21). aa64_filter_decode() undoes it.
 */
void aa64_filter_encode(uint8_t *buf, size_t len);

/**
 * aa64_filter_decode() - the inverse of aa64_filter_encode(), in place: any
 * bytes come back as aa64_filter_encode() would have had to see them.
 */
void aa64_filter_decode(uint8_t *buf, size_t len);

#endif
