/* HMAC-SHA-256 and PBKDF2-HMAC-SHA256 (pbkdf2.h). PBKDF2 keys one HMAC
 * context with the password and copies it for each of the c rounds, so a
 * round costs two SHA-256 blocks (RFC 8018 §5.2 step 3, F(P, S, c, i)). */
#include "pbkdf2.h"

#define HMAC_IPAD 0x36 /* RFC 2104 §2 */
#define HMAC_OPAD 0x5c

void mem_wipe(void *p, size_t n)
{
	memset(p, 0, n);
	__asm__ volatile("" : : "r"(p) : "memory"); /* the zeros are observable: not a dead store */
}

bool mem_equal_ct(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	uint8_t diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= x[i] ^ y[i];
	return diff == 0;
}

void hmac_sha256_init(struct hmac_sha256_ctx *ctx, const void *key, size_t key_len)
{
	uint8_t k[SHA256_BLOCK_SIZE] = { 0 }, pad[SHA256_BLOCK_SIZE];

	if (key_len > SHA256_BLOCK_SIZE)
		sha256(key, key_len, k);
	else
		memcpy(k, key, key_len);
	for (unsigned half = 0; half < 2; half++) {
		struct sha256_ctx *h = half ? &ctx->outer : &ctx->inner;

		for (unsigned i = 0; i < SHA256_BLOCK_SIZE; i++)
			pad[i] = k[i] ^ (half ? HMAC_OPAD : HMAC_IPAD);
		sha256_init(h);
		sha256_update(h, pad, sizeof(pad));
	}
	mem_wipe(k, sizeof(k));
	mem_wipe(pad, sizeof(pad));
}

void hmac_sha256_update(struct hmac_sha256_ctx *ctx, const void *data, size_t len)
{
	sha256_update(&ctx->inner, data, len);
}

void hmac_sha256_final(struct hmac_sha256_ctx *ctx, uint8_t ret[SHA256_DIGEST_SIZE])
{
	sha256_final(&ctx->inner, ret);
	sha256_update(&ctx->outer, ret, SHA256_DIGEST_SIZE);
	sha256_final(&ctx->outer, ret);
}

void pbkdf2_sha256(const void *password, size_t password_len, const void *salt, size_t salt_len,
		   uint32_t iterations, uint8_t *ret, size_t ret_len)
{
	struct hmac_sha256_ctx keyed, c;
	uint8_t u[SHA256_DIGEST_SIZE], t[SHA256_DIGEST_SIZE];

	hmac_sha256_init(&keyed, password, password_len);
	for (uint32_t block = 1; ret_len > 0; block++) {
		uint8_t be[4] = { (uint8_t)(block >> 24), (uint8_t)(block >> 16), (uint8_t)(block >> 8),
				  (uint8_t)block };
		size_t n = MIN(ret_len, sizeof(t));

		memset(t, 0, sizeof(t));
		c = keyed; /* U_1 = PRF(P, S || INT(i)) */
		hmac_sha256_update(&c, salt, salt_len);
		hmac_sha256_update(&c, be, sizeof(be));
		for (uint32_t j = 0; j < iterations; j++) {
			if (j > 0) { /* U_j = PRF(P, U_{j-1}) */
				c = keyed;
				hmac_sha256_update(&c, u, sizeof(u));
			}
			hmac_sha256_final(&c, u);
			for (unsigned k = 0; k < sizeof(t); k++) /* T_i = U_1 ^ U_2 ^ ... ^ U_c */
				t[k] ^= u[k];
		}
		memcpy(ret, t, n);
		ret += n;
		ret_len -= n;
	}
	mem_wipe(&keyed, sizeof(keyed));
	mem_wipe(&c, sizeof(c));
	mem_wipe(u, sizeof(u));
	mem_wipe(t, sizeof(t));
}
