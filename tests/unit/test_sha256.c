/* SHA-256 against the FIPS 180-4 / NIST example vectors, against sha256sum(1)
 * on a real file, and incremental feeding at awkward chunk sizes; hex both ways. */
#include "test.h"
#include "core/sha256.h"
#include <stdlib.h>

static const char *hex_of(const void *data, size_t len)
{
	static char hex[SHA256_HEX_SIZE];
	uint8_t d[SHA256_DIGEST_SIZE];

	sha256(data, len, d);
	sha256_hex(d, hex);
	return hex;
}

TEST(sha256_fips_vectors)
{
	/* NIST CSRC "SHA256.pdf" examples and the FIPS 180-2 appendix B. */
	CHECK_STR(hex_of("", 0), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	CHECK_STR(hex_of("abc", 3), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	CHECK_STR(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 56),
		  "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	CHECK_STR(hex_of("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnop"
			 "qrsmnopqrstnopqrstu",
			 112),
		  "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
}

TEST(sha256_million_a)
{
	struct sha256_ctx ctx;
	uint8_t d[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];
	char a[1000];

	memset(a, 'a', sizeof(a));
	sha256_init(&ctx);
	for (int i = 0; i < 1000; i++)
		sha256_update(&ctx, a, sizeof(a));
	sha256_final(&ctx, d);
	sha256_hex(d, hex);
	CHECK_STR(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Every padding boundary (55, 56, 63, 64, 65 bytes...) fed in odd chunks
 * gives the one-shot digest. */
TEST(sha256_chunked_equals_oneshot)
{
	uint8_t buf[300], d1[SHA256_DIGEST_SIZE], d2[SHA256_DIGEST_SIZE];

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	for (size_t len = 0; len <= sizeof(buf); len += 1) {
		struct sha256_ctx ctx;
		size_t off = 0, step = 1 + len % 13;

		sha256(buf, len, d1);
		sha256_init(&ctx);
		while (off < len) {
			size_t n = MIN(step, len - off);
			sha256_update(&ctx, buf + off, n);
			off += n;
		}
		sha256_final(&ctx, d2);
		CHECK_MEM(d1, d2, sizeof(d1));
	}
}

TEST(sha256_matches_sha256sum)
{
	const char *path = "Makefile";
	size_t len = 0;
	uint8_t *data = test_read_file(path, &len);
	char line[128] = "", cmd[64];
	FILE *p;

	CHECK(data != NULL);
	if (!data)
		return;
	snprintf(cmd, sizeof(cmd), "sha256sum %s", path);
	p = popen(cmd, "r");
	CHECK(p != NULL);
	if (p) {
		CHECK(fgets(line, sizeof(line), p) != NULL);
		pclose(p);
	}
	CHECK(strlen(line) > 64);
	line[64] = '\0';
	CHECK_STR(hex_of(data, len), line);
	free(data);
}

TEST(hex_encode_and_decode)
{
	static const uint8_t bytes[] = { 0x00, 0x01, 0x7f, 0x80, 0xab, 0xff };
	uint8_t got[6];
	char hex[13];

	hex_encode(bytes, sizeof(bytes), hex);
	CHECK_STR(hex, "00017f80abff");
	CHECK(hex_decode("00017F80aBfF", 6, got)); /* either case */
	CHECK_MEM(got, bytes, 6);
	CHECK(!hex_decode("00017f80abfg", 6, got));
	CHECK(!hex_decode("0x", 1, got));
	CHECK(!hex_decode(" 0", 1, got));
}
