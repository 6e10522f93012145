/* What the running OS asks of the next boot through systemd's Boot Loader
 * Interface (systemd.io/BOOT_LOADER_INTERFACE): `bootctl set-timeout`,
 * `set-default`, `set-oneshot` and `systemctl reboot --boot-loader-entry=`
 * or `--boot-loader-menu=` write these variables; the loader folds them into
 * its choice of entry and menu timeout. Pure: src/efi/vars.c reads them. */
#ifndef CORE_BLI_H
#define CORE_BLI_H

#include "bls.h"

struct bli_request {
	char *timeout;          /* LoaderConfigTimeout, NULL when unset */
	char *timeout_oneshot;  /* LoaderConfigTimeoutOneShot (the loader deletes it) */
	char *entry_default;    /* LoaderEntryDefault */
	char *entry_oneshot;    /* LoaderEntryOneShot (the loader deletes it) */
};

/**
 * bli_apply() - the menu timeout and the default entry, after the requests:
 * LoaderConfigTimeoutOneShot over LoaderConfigTimeout over loader.conf's
 * *@timeout_sec (a one-shot "0" waits for the user, as systemctl documents
 * for --boot-loader-menu=0); LoaderEntryOneShot over LoaderEntryDefault over
 * loader.conf's *@default_idx (ids matched as loader.conf's "default").
 * A value that does not parse, or names no entry, is reported with the
 * variable's name and ignored.
 */
void bli_apply(const struct bli_request *req, struct bls_entry *const *entries, size_t n, uint32_t *timeout_sec,
	       size_t *default_idx);
void bli_request_free(struct bli_request *req);

#endif
