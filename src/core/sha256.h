/* SHA-256 (FIPS 180-4 §6.2), incremental: the probe hashes an initrd it reads
 * through a callback, chunk by chunk, and the host tests compare digests
 * with sha256sum. And hex, both ways, for the digests' text forms. */
#ifndef CORE_SHA256_H
#define CORE_SHA256_H

#include "platform.h"

#define SHA256_DIGEST_SIZE 32u
#define SHA256_BLOCK_SIZE 64u
#define SHA256_HEX_SIZE (2 * SHA256_DIGEST_SIZE + 1)

struct sha256_ctx {
	uint32_t h[8];
	uint64_t n_bytes;                  /* total fed so far */
	uint8_t block[SHA256_BLOCK_SIZE];  /* pending partial block */
	size_t block_len;
};

/** sha256_init() - start a new digest (FIPS 180-4 §5.3.3 initial hash value). */
void sha256_init(struct sha256_ctx *ctx);
/** sha256_update() - feed @len bytes of @data. */
void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len);
/** sha256_final() - pad (§5.1.1), write the digest to @ret; @ctx is spent. */
void sha256_final(struct sha256_ctx *ctx, uint8_t ret[SHA256_DIGEST_SIZE]);
/** sha256() - one-shot digest of @data. */
void sha256(const void *data, size_t len, uint8_t ret[SHA256_DIGEST_SIZE]);
/** sha256_hex() - lower-case hex of @digest into @ret (NUL-terminated). */
void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char ret[SHA256_HEX_SIZE]);
/** hex_encode() - lower-case hex of @n bytes at @data into @ret (2 * @n digits and a NUL). */
void hex_encode(const uint8_t *data, size_t n, char *ret);
/** hex_value() - the hex digit @c (either case) as 0-15, or -1. */
int hex_value(char c);
/** hex_decode() - the 2 * @n hex digits (either case) at @s as @n bytes. Return: false if one is not a digit. */
bool hex_decode(const char *s, size_t n, uint8_t *ret);

#endif
