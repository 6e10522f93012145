/* Writing the Secure Boot keys to the firmware and restarting it
 * (docs/design.md "Your own Secure Boot keys"). Takes the runtime services
 * table as a parameter so host tests can run it against a fake firmware. */
#ifndef EFI_SB_WRITE_H
#define EFI_SB_WRITE_H

#include "core/sb_keys.h"

/* One .auth file of \loader\keys\NAME, read and checked (sb_auth_check()). */
struct sb_key_file {
	uint8_t *data; /* NULL: absent (an optional one) */
	size_t size;
	char *path; /* for messages */
};

/**
 * sb_keys_write() - SetVariable() each present file of @files (indexed as
 * sb_key_vars: db, dbx, KEK, PK last) with SB_KEY_ATTRIBUTES, then reset the
 * machine cold (@shutdown: power it off) so that the firmware starts again
 * with Secure Boot on (UEFI 2.10 §8.5.1). Stops at the first refusal, which
 * is logged with the file and the status: PK is then not written and the
 * machine stays in Setup Mode. Returns only on failure.
 */
EFI_STATUS sb_keys_write(EFI_RUNTIME_SERVICES *rt, const struct sb_key_file files[SB_N_KEYS], bool shutdown);

#endif
