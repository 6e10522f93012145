/* HMAC-SHA-256 against RFC 4231 §4 (all seven cases), PBKDF2-HMAC-SHA256
 * against RFC 7914 §11 (its two vectors, 64 bytes: two output blocks) and
 * RFC 6070's inputs (those are SHA-1's; the SHA-256 outputs here are Python's
 * hashlib.pbkdf2_hmac, an independent implementation). */
#include "test.h"
#include "core/pbkdf2.h"

static void unhex(const char *hex, uint8_t *ret, size_t n)
{
	CHECK_EQ(strlen(hex), 2 * n);
	CHECK(hex_decode(hex, n, ret));
}

static void check_hmac(const void *key, size_t key_len, const void *msg, size_t msg_len, const char *want_hex,
		       size_t want_len)
{
	struct hmac_sha256_ctx ctx;
	uint8_t mac[SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];

	unhex(want_hex, want, want_len);
	hmac_sha256_init(&ctx, key, key_len);
	hmac_sha256_update(&ctx, msg, msg_len);
	hmac_sha256_final(&ctx, mac);
	CHECK_MEM(mac, want, want_len);
}

TEST(hmac_sha256_rfc4231)
{
	uint8_t k1[20], k3[20], k4[25], k5[20], k6[131], d3[50], d4[50];
	static const char m6[] = "Test Using Larger Than Block-Size Key - Hash Key First";
	static const char m7[] = "This is a test using a larger than block-size key and a larger than block-size data. "
				 "The key needs to be hashed before being used by the HMAC algorithm.";

	memset(k1, 0x0b, sizeof(k1));
	memset(k3, 0xaa, sizeof(k3));
	memset(d3, 0xdd, sizeof(d3));
	for (unsigned i = 0; i < sizeof(k4); i++)
		k4[i] = (uint8_t)(i + 1);
	memset(d4, 0xcd, sizeof(d4));
	memset(k5, 0x0c, sizeof(k5));
	memset(k6, 0xaa, sizeof(k6));
	check_hmac(k1, 20, "Hi There", 8, "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7", 32);
	check_hmac("Jefe", 4, "what do ya want for nothing?", 28,
		   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", 32);
	check_hmac(k3, 20, d3, 50, "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe", 32);
	check_hmac(k4, 25, d4, 50, "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b", 32);
	check_hmac(k5, 20, "Test With Truncation", 20, "a3b6167473100ee06e0c796c2955552b", 16); /* 128 bits */
	check_hmac(k6, 131, m6, strlen(m6), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54", 32);
	check_hmac(k6, 131, m7, strlen(m7), "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2", 32);
}

/* The message fed in pieces gives the one-shot MAC (RFC 4231 case 2 in bytes). */
TEST(hmac_sha256_update_in_pieces)
{
	static const char msg[] = "what do ya want for nothing?";
	struct hmac_sha256_ctx ctx;
	uint8_t mac[SHA256_DIGEST_SIZE], want[SHA256_DIGEST_SIZE];

	unhex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843", want, 32);
	hmac_sha256_init(&ctx, "Jefe", 4);
	for (size_t i = 0; i < strlen(msg); i++)
		hmac_sha256_update(&ctx, msg + i, 1);
	hmac_sha256_final(&ctx, mac);
	CHECK_MEM(mac, want, 32);
}

static void check_pbkdf2(const void *pw, size_t pw_len, const void *salt, size_t salt_len, uint32_t c,
			 const char *want_hex)
{
	uint8_t got[64], want[64];
	size_t n = strlen(want_hex) / 2;

	unhex(want_hex, want, n);
	memset(got, 0xee, sizeof(got));
	pbkdf2_sha256(pw, pw_len, salt, salt_len, c, got, n);
	CHECK_MEM(got, want, n);
	for (size_t i = n; i < sizeof(got); i++) /* nothing written past dkLen */
		CHECK_EQ(got[i], 0xee);
}

TEST(pbkdf2_sha256_rfc7914)
{
	check_pbkdf2("passwd", 6, "salt", 4, 1,
		     "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
		     "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783");
	check_pbkdf2("Password", 8, "NaCl", 4, 80000,
		     "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
		     "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d");
}

TEST(pbkdf2_sha256_rfc6070_inputs)
{
	check_pbkdf2("password", 8, "salt", 4, 1, "120fb6cffcf8b32c43e7225256c4f837a86548c92ccc35480805987cb70be17b");
	check_pbkdf2("password", 8, "salt", 4, 2, "ae4d0c95af6b46d32d0adff928f06dd02a303f8ef3c251dfd6e2d85a95474c43");
	check_pbkdf2("password", 8, "salt", 4, 4096,
		     "c5e478d59288c841aa530db6845c4c8d962893a001ce4e11a4963873aa98134a");
	check_pbkdf2("passwordPASSWORDpassword", 24, "saltSALTsaltSALTsaltSALTsaltSALTsalt", 36, 4096,
		     "348c89dbcbd32b2f32d814b8116e84cf2b17347ebc1800181c4e2a1fb8dd53e1c635518c7dac47e9");
	check_pbkdf2("pass\0word", 9, "sa\0lt", 5, 4096, "89b69d0516f829893c696226650a8687");
}

TEST(mem_equal_ct_and_wipe)
{
	uint8_t a[33], b[33];

	memset(a, 0x5a, sizeof(a));
	memcpy(b, a, sizeof(b));
	CHECK(mem_equal_ct(a, b, sizeof(a)));
	CHECK(mem_equal_ct(a, b, 0));
	for (size_t i = 0; i < sizeof(b); i++) {
		b[i] ^= 0x80;
		CHECK(!mem_equal_ct(a, b, sizeof(a)));
		b[i] ^= 0x80;
	}
	mem_wipe(a, sizeof(a));
	for (size_t i = 0; i < sizeof(a); i++)
		CHECK_EQ(a[i], 0);
}
