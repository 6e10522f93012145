/* The random seed the loader hands to Linux: what systemd's "Random Seeds"
 * document describes for systemd-boot. The seed file \loader\random-seed,
 * the LoaderSystemToken variable, EFI_RNG_PROTOCOL output, an earlier
 * loader's LINUX_EFI_RANDOM_SEED_TABLE and the monotonic counter and time
 * are hashed together with SHA-256 into a key; from the key come a new seed
 * for the file and, differently, the seed for the kernel. Pure: the glue
 * (src/efi/random_seed.c) gathers the inputs and installs the result. */
#ifndef CORE_RANDOM_SEED_H
#define CORE_RANDOM_SEED_H

#include "platform.h"

#define RS_SEED_SIZE 32u           /* Linux's RNG is 256 bits; SHA-256's digest */
#define RS_FILE_MAX (32u * 1024u)  /* a larger seed file is refused, as systemd-boot does */
#define RS_INPUT_MAX 1024u         /* an earlier table or token: Linux reads at most 1 KiB of a table */

/* The inputs, hashed in this order (a missing one as length 0). */
enum rs_source { RS_PREV_TABLE, RS_RNG, RS_TOKEN, RS_FILE, RS_COUNTER, RS_TIME, RS__N };

struct rs_input {
	const void *data;
	size_t size;
};

/* What the seed file is for this boot. */
enum rs_file_state {
	RS_FILE_ABSENT,    /* not there: created when the firmware seeded us */
	RS_FILE_SHORT,     /* under RS_SEED_SIZE bytes: rewritten, its bytes not counted */
	RS_FILE_PRESENT,   /* RS_SEED_SIZE .. RS_FILE_MAX bytes */
	RS_FILE_READ_ONLY, /* a read-only medium: not read, not written */
};

/* What the glue found, for rs_check(). */
struct rs_sources {
	size_t prev_size;   /* an earlier LINUX_EFI_RANDOM_SEED_TABLE's seed bytes, 0 without one */
	bool rng;           /* EFI_RNG_PROTOCOL gave RS_SEED_SIZE bytes */
	size_t token_size;  /* LoaderSystemToken's bytes, 0 when unset */
	bool secure_boot;
	enum rs_file_state file;
};

/**
 * rs_check() - whether the sources make a seed worth crediting, by systemd-boot's
 * rules: the firmware's own randomness (an RNG or an earlier table of at least
 * RS_SEED_SIZE bytes) is enough; without it, a system token of at least
 * RS_SEED_SIZE bytes and a seed file are needed, and under Secure Boot (where the
 * ESP is not trusted) nothing else will do.
 * Return: NULL to go on, else why no seed is passed (for one log line).
 */
const char *rs_check(const struct rs_sources *s);

/**
 * rs_derive() - key = SHA-256(label || for each input: le64(size) || bytes);
 * @ret_file = SHA-256(key || 0x00), the seed written back to the ESP;
 * @ret_kernel = SHA-256(key || 0x01), the seed in the kernel's table. The
 * label is "handoff random seed v1" (without NUL).
 */
void rs_derive(const struct rs_input in[RS__N], uint8_t ret_file[RS_SEED_SIZE], uint8_t ret_kernel[RS_SEED_SIZE]);

#endif
