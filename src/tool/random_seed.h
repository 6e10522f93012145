/* The random seed the loader passes to Linux, on the host side (systemd's
 * "Random Seeds"; bootctl random-seed): \loader\random-seed on the ESP and the
 * LoaderSystemToken variable, which the loader mixes with the firmware's RNG
 * (src/efi/random_seed.c). */
#ifndef TOOL_RANDOM_SEED_H
#define TOOL_RANDOM_SEED_H

#include "tool.h"

#define RANDOM_SEED_FILE "loader/random-seed"
#define RANDOM_SEED_SIZE 32u /* bytes, as bootctl writes them: Linux's RNG is 256 bits */

/**
 * random_seed_install() - write 32 fresh bytes to ESP/loader/random-seed (mode
 * 0600, replaced atomically) when @refresh or when it is missing or shorter
 * than 32 bytes; then set LoaderSystemToken (32 random bytes, non-volatile,
 * mode 0600 in efivarfs) when it is unset or shorter; without efivarfs, say
 * that no token was set (only when the file was written: a second install is
 * quiet). Return: 0 or -1 (printed).
 */
int random_seed_install(const char *esp, bool refresh);

/* What `handoff status` says of the seed. */
struct random_seed_status {
	bool token;       /* LoaderSystemToken is set, with at least 32 bytes */
	long long size;   /* ESP/loader/random-seed's size, -1 when missing */
};

/** random_seed_status() - the token (when @efi) and the seed file on @esp (NULL: none). */
void random_seed_status(const char *esp, bool efi, struct random_seed_status *ret);

#endif
