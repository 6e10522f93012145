/* SHA-256 as specified in FIPS 180-4: message schedule and compression of
 * §6.2.2, constants of §4.2.2, padding of §5.1.1. Written for size first:
 * no unrolled rounds, but the working variables in registers (PBKDF2 runs
 * the compression millions of times for the editor password). */
#include "sha256.h"

/* §4.2.2: first 32 bits of the fractional parts of the cube roots of the
 * first 64 primes. */
static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
	0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
	0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
	0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
	0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
	0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
	0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t ror32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* §6.2.2 steps 1-4 for one 512-bit block. The working variables a..h are
 * named, not an array shifted each round: they stay in registers (PBKDF2
 * runs this twice per iteration, the editor password's cost). */
static void sha256_block(uint32_t h[8], const uint8_t *blk)
{
	uint32_t w[64], a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];

	for (unsigned t = 0; t < 16; t++)
		w[t] = get_be32(blk + 4 * t);
	for (unsigned t = 16; t < 64; t++) {
		uint32_t s0 = ror32(w[t - 15], 7) ^ ror32(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = ror32(w[t - 2], 17) ^ ror32(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	for (unsigned t = 0; t < 64; t++) {
		uint32_t t1 = k + (ror32(e, 6) ^ ror32(e, 11) ^ ror32(e, 25)) + ((e & f) ^ (~e & g)) + K[t] + w[t];
		uint32_t t2 = (ror32(a, 2) ^ ror32(a, 13) ^ ror32(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));

		k = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

void sha256_init(struct sha256_ctx *ctx)
{
	/* §5.3.3 */
	static const uint32_t h0[8] = {
		0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
	};

	memcpy(ctx->h, h0, sizeof(h0));
	ctx->n_bytes = 0;
	ctx->block_len = 0;
}

void sha256_update(struct sha256_ctx *ctx, const void *data, size_t len)
{
	const uint8_t *p = data;

	ctx->n_bytes += len;
	while (len > 0) {
		size_t n = MIN(len, SHA256_BLOCK_SIZE - ctx->block_len);

		memcpy(ctx->block + ctx->block_len, p, n);
		ctx->block_len += n;
		p += n;
		len -= n;
		if (ctx->block_len == SHA256_BLOCK_SIZE) {
			sha256_block(ctx->h, ctx->block);
			ctx->block_len = 0;
		}
	}
}

void sha256_final(struct sha256_ctx *ctx, uint8_t ret[SHA256_DIGEST_SIZE])
{
	uint64_t bits = ctx->n_bytes * 8;
	uint8_t pad[SHA256_BLOCK_SIZE + 8] = { 0x80 };
	/* §5.1.1: a 1 bit, zeros up to 448 mod 512, then the 64-bit length. */
	size_t pad_len = (ctx->block_len < 56 ? 56 : 120) - ctx->block_len;

	for (unsigned i = 0; i < 8; i++)
		pad[pad_len + i] = (uint8_t)(bits >> (56 - 8 * i));
	sha256_update(ctx, pad, pad_len + 8);
	for (unsigned i = 0; i < 8; i++)
		put_be32(ret + 4 * i, ctx->h[i]);
}

void sha256(const void *data, size_t len, uint8_t ret[SHA256_DIGEST_SIZE])
{
	struct sha256_ctx ctx;

	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, ret);
}

void hex_encode(const uint8_t *data, size_t n, char *ret)
{
	static const char hex[] = "0123456789abcdef";

	for (size_t i = 0; i < n; i++) {
		ret[2 * i] = hex[data[i] >> 4];
		ret[2 * i + 1] = hex[data[i] & 0xf];
	}
	ret[2 * n] = '\0';
}

void sha256_hex(const uint8_t digest[SHA256_DIGEST_SIZE], char ret[SHA256_HEX_SIZE])
{
	hex_encode(digest, SHA256_DIGEST_SIZE, ret);
}

int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)(c | 0x20);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool hex_decode(const char *s, size_t n, uint8_t *ret)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hex_value(s[2 * i]), lo = hex_value(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		ret[i] = (uint8_t)(hi << 4 | lo);
	}
	return true;
}
