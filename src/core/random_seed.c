/* The random seed for Linux (random_seed.h): systemd-boot's construction
 * (systemd "Random Seeds", "systemd-boot"): a domain label and every input
 * with its length in front, hashed into a key, and two seeds derived from
 * the key by one more byte, so the seed on disk never equals the one the
 * kernel got. */
#include "random_seed.h"
#include "pbkdf2.h"
#include "sha256.h"

#define RS_LABEL "handoff random seed v1"

const char *rs_check(const struct rs_sources *s)
{
	bool by_firmware = s->rng || s->prev_size >= RS_SEED_SIZE;

	if (by_firmware)
		return NULL;
	if (s->secure_boot)
		return "no RNG under Secure Boot";
	if (s->token_size < RS_SEED_SIZE)
		return "no RNG, no LoaderSystemToken";
	if (s->file == RS_FILE_ABSENT || s->file == RS_FILE_READ_ONLY)
		return "no RNG, no seed file";
	return NULL;
}

static void derive(const uint8_t key[SHA256_DIGEST_SIZE], uint8_t n, uint8_t ret[RS_SEED_SIZE])
{
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, key, SHA256_DIGEST_SIZE);
	sha256_update(&c, &n, 1);
	sha256_final(&c, ret);
}

void rs_derive(const struct rs_input in[RS__N], uint8_t ret_file[RS_SEED_SIZE], uint8_t ret_kernel[RS_SEED_SIZE])
{
	uint8_t key[SHA256_DIGEST_SIZE], len[8];
	struct sha256_ctx c;

	sha256_init(&c);
	sha256_update(&c, RS_LABEL, sizeof(RS_LABEL) - 1);
	for (unsigned i = 0; i < RS__N; i++) {
		size_t n = in[i].data ? in[i].size : 0;

		put_le64(len, n);
		sha256_update(&c, len, sizeof(len));
		if (n)
			sha256_update(&c, in[i].data, n);
	}
	sha256_final(&c, key);
	derive(key, 0, ret_file);
	derive(key, 1, ret_kernel);
	mem_wipe(key, sizeof(key));
}
