/* LZ4 block format (the "LZ4 Block Format Description" of the lz4 project):
 * the compression of the packed loaders (docs/image-formats.md "Packed
 * loaders"). Sequences of a token (literal count in the high nibble, match
 * length - 4 in the low one, 15 meaning "more bytes follow, each added, until
 * one below 255"), the literals, a 16-bit little-endian offset back into the
 * output, and the match; the last sequence has literals only. */
#ifndef CORE_LZ4_H
#define CORE_LZ4_H

#include "platform.h"
#include <efi/efi.h>

/**
 * lz4_decode() - decompress the block @src (@src_len bytes) into exactly
 * @dst_len bytes at @dst. Every length and offset is checked against both
 * buffers before it is used: a block that would read past @src, reach before
 * the start of @dst, write past its end or end short of it is refused.
 * Return: EFI_SUCCESS, or EFI_COMPROMISED_DATA with @dst partly written.
 */
EFI_STATUS lz4_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

/**
 * lz4_encode_bound() - the most bytes lz4_encode() writes for @len bytes of
 * input (all literals), or 0 when that does not fit in a size_t.
 */
size_t lz4_encode_bound(size_t len);

/**
 * lz4_encode() - compress @src (@len bytes) into @dst (lz4_encode_bound(@len)
 * bytes): for each position the longest match its hash chain finds, then the
 * cheapest encoding of the whole input over those (an optimal parse), keeping
 * the format's end rules (the last 5 bytes are literals, no match
 * starts in the last 12), so lz4's own decoder reads it too. Host side (the
 * build), but pure like the rest of src/core.
 * Return: the compressed size, or 0 when out of memory.
 */
size_t lz4_encode(const uint8_t *src, size_t len, uint8_t *dst);

#endif
