/* HMAC-SHA-256 (RFC 2104 with FIPS 180-4's SHA-256, test vectors RFC 4231)
 * and PBKDF2-HMAC-SHA256 (RFC 8018 §5.2, test vectors RFC 7914 §11) on
 * sha256.c: the loader checks loader.conf's editor-password with them, the
 * tool writes it. Secrets they handle are wiped before returning. */
#ifndef CORE_PBKDF2_H
#define CORE_PBKDF2_H

#include "sha256.h"

/* The inner hash already fed the key XOR ipad, the outer one the key XOR opad
 * (RFC 2104 §2): copies of a keyed context hash many messages with that key. */
struct hmac_sha256_ctx {
	struct sha256_ctx inner, outer;
};

/** hmac_sha256_init() - key @ctx with @key (@key_len bytes; longer than a block: its SHA-256). */
void hmac_sha256_init(struct hmac_sha256_ctx *ctx, const void *key, size_t key_len);
/** hmac_sha256_update() - feed @len bytes of @data to the message. */
void hmac_sha256_update(struct hmac_sha256_ctx *ctx, const void *data, size_t len);
/** hmac_sha256_final() - the MAC into @ret; @ctx is spent. */
void hmac_sha256_final(struct hmac_sha256_ctx *ctx, uint8_t ret[SHA256_DIGEST_SIZE]);

/**
 * pbkdf2_sha256() - RFC 8018 §5.2 PBKDF2 with HMAC-SHA-256 as the PRF: @ret_len
 * bytes derived from @password and @salt by @iterations (at least 1) rounds.
 */
void pbkdf2_sha256(const void *password, size_t password_len, const void *salt, size_t salt_len,
		   uint32_t iterations, uint8_t *ret, size_t ret_len);

/** mem_wipe() - zero @n bytes at @p, a store the compiler may not drop as dead. */
void mem_wipe(void *p, size_t n);

/** mem_equal_ct() - @a and @b equal over @n bytes, in a time that depends on @n only. */
bool mem_equal_ct(const void *a, const void *b, size_t n);

#endif
