/* The random seed's derivation and rules (src/core/random_seed.c): exact
 * digests for fixed inputs, computed independently with Python's hashlib
 * from the documented concatenation:
 *   key    = sha256(b"handoff random seed v1" + b"".join(struct.pack("<Q", len(x)) + x for x in inputs))
 *   file   = sha256(key + b"\0"), kernel = sha256(key + b"\1")
 * and systemd-boot's rules for when a seed is passed. */
#include "test.h"
#include "core/random_seed.h"
#include "core/sha256.h"

static const char *hex32(const uint8_t d[RS_SEED_SIZE])
{
	static char hex[2][SHA256_HEX_SIZE];
	static unsigned which;

	which ^= 1;
	sha256_hex(d, hex[which]);
	return hex[which];
}

TEST(random_seed_derive_all_inputs)
{
	uint8_t prev[32], rng[32], token[32], file[40], counter[8], time[16], f[RS_SEED_SIZE], k[RS_SEED_SIZE];

	memset(prev, 0xa5, sizeof(prev));
	for (unsigned i = 0; i < 32; i++)
		rng[i] = (uint8_t)(i + 1);
	memset(token, 'T', sizeof(token));
	for (unsigned i = 0; i < sizeof(file); i++)
		file[i] = (uint8_t)i;
	put_le64(counter, 0x1122334455667788ull);
	for (unsigned i = 0; i < sizeof(time); i++)
		time[i] = (uint8_t)(0x10 + i);
	const struct rs_input in[RS__N] = {
		[RS_PREV_TABLE] = { prev, sizeof(prev) }, [RS_RNG] = { rng, sizeof(rng) },
		[RS_TOKEN] = { token, sizeof(token) },    [RS_FILE] = { file, sizeof(file) },
		[RS_COUNTER] = { counter, sizeof(counter) }, [RS_TIME] = { time, sizeof(time) },
	};
	rs_derive(in, f, k);
	CHECK_STR(hex32(f), "c2cc9e5da9fe1bc7c4e67d6ebc8a6c28fde9215db54fb76504ecc26df174204e");
	CHECK_STR(hex32(k), "0e40fc703623a2f8a9f5d053f00a6eea2a6aaf6727532720ecaff45843924372");
}

/* Missing inputs count as length 0 (a NULL pointer's size is ignored). */
TEST(random_seed_derive_counter_only)
{
	uint8_t counter[8], f[RS_SEED_SIZE], k[RS_SEED_SIZE];
	struct rs_input in[RS__N] = { [RS_COUNTER] = { counter, sizeof(counter) }, [RS_TOKEN] = { NULL, 77 } };

	put_le64(counter, 0x1122334455667788ull);
	rs_derive(in, f, k);
	CHECK_STR(hex32(f), "278fa212b574c87375756c8a026960ab4f9664cb66ddc087581c7c06b9be2744");
	CHECK_STR(hex32(k), "5bf5de68483a96494b323a9fda667b8ec85ff0221553ba0ebcf6be38b2617637");
	/* the next boot's counter gives other seeds */
	put_le64(counter, 0x1122334455667789ull);
	rs_derive(in, f, k);
	CHECK(strcmp(hex32(f), "278fa212b574c87375756c8a026960ab4f9664cb66ddc087581c7c06b9be2744") != 0);
}

TEST(random_seed_check_rules)
{
	struct rs_sources s = { .file = RS_FILE_ABSENT };

	CHECK_STR(rs_check(&s), "no RNG, no LoaderSystemToken");
	s.rng = true; /* the firmware's RNG alone is enough, even under Secure Boot and without a file */
	s.secure_boot = true;
	CHECK(rs_check(&s) == NULL);
	s.rng = false;
	s.prev_size = RS_SEED_SIZE; /* so is an earlier loader's table of 32 bytes */
	CHECK(rs_check(&s) == NULL);
	s.prev_size = RS_SEED_SIZE - 1;
	s.token_size = RS_SEED_SIZE;
	s.file = RS_FILE_PRESENT;
	CHECK_STR(rs_check(&s), "no RNG under Secure Boot"); /* the ESP alone is not trusted */
	s.secure_boot = false;
	CHECK(rs_check(&s) == NULL); /* token and file */
	s.file = RS_FILE_SHORT;      /* rewritten, as systemd-boot treats a file cut short */
	CHECK(rs_check(&s) == NULL);
	s.file = RS_FILE_READ_ONLY;
	CHECK_STR(rs_check(&s), "no RNG, no seed file");
	s.file = RS_FILE_PRESENT;
	s.token_size = RS_SEED_SIZE - 1;
	CHECK_STR(rs_check(&s), "no RNG, no LoaderSystemToken");
}
