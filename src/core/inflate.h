/* DEFLATE decoding (RFC 1951), for the packed loaders (pack.h): small over
 * fast, every count checked against both buffers. The build compresses with
 * zlib (raw deflate, src/pack/mkpack.c); any conforming stream decodes. */
#ifndef CORE_INFLATE_H
#define CORE_INFLATE_H

#include "platform.h"
#include <efi/efi.h>

/**
 * deflate_decode() - decode the raw DEFLATE stream @src (@src_len bytes) into
 * exactly @dst_len bytes at @dst.
 * Return: EFI_SUCCESS; EFI_COMPROMISED_DATA for any stream that is malformed,
 * reads past @src_len, refers before the output's start, or does not end its
 * last block at exactly @dst_len bytes.
 */
EFI_STATUS deflate_decode(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len);

#endif
