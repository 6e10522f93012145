/* What the running OS asks of the next boot through systemd's Boot Loader
 * Interface (systemd.io/BOOT_LOADER_INTERFACE): `bootctl set-timeout`,
 * `set-default`, `set-oneshot` and `systemctl reboot --boot-loader-entry=`
 * or `--boot-loader-menu=` write these variables; the loader folds them into
 * its choice of entry and menu timeout, and keeps LoaderEntryLastBooted for
 * "default @saved". Pure: src/efi/loader_info.c reads and writes them. */
#ifndef CORE_BLI_H
#define CORE_BLI_H

#include "bls.h"

struct bli_request {
	char *timeout;          /* LoaderConfigTimeout, NULL when unset */
	char *timeout_oneshot;  /* LoaderConfigTimeoutOneShot (the loader deletes it) */
	char *entry_default;    /* LoaderEntryDefault */
	char *entry_oneshot;    /* LoaderEntryOneShot (the loader deletes it) */
	char *last_booted;      /* LoaderEntryLastBooted (non-volatile, for "@saved") */
};

/* What to do with LoaderEntryLastBooted after choosing an entry. */
enum bli_saved_action { BLI_SAVED_KEEP, BLI_SAVED_SET, BLI_SAVED_DELETE };

/**
 * bli_apply() - the menu timeout and the default entry, after the requests:
 * LoaderConfigTimeoutOneShot over LoaderConfigTimeout over loader.conf's
 * *@timeout_sec (a one-shot "0" waits for the user, as systemctl documents
 * for --boot-loader-menu=0); LoaderEntryOneShot over LoaderEntryDefault over
 * loader.conf's *@default_idx (ids matched as loader.conf's "default";
 * LoaderEntryDefault "@saved", as `bootctl set-default @saved` writes it,
 * stands for LoaderEntryLastBooted). A value that does not parse, or names
 * no entry, is reported with the variable's name and ignored.
 * Return: true when LoaderEntryOneShot chose *@default_idx.
 */
bool bli_apply(const struct bli_request *req, struct bls_entry *const *entries, size_t n, uint32_t *timeout_sec,
	       size_t *default_idx);

/**
 * bli_saved_action() - systemd-boot's rule for LoaderEntryLastBooted once
 * @booted_id is about to boot: when "@saved" is in effect (LoaderEntryDefault
 * says so, or loader.conf does (@cfg_saved) and LoaderEntryDefault is unset)
 * remember the entry unless it is already the one remembered; otherwise drop
 * a remembered one. A one-shot boot (@oneshot) changes nothing.
 */
enum bli_saved_action bli_saved_action(const struct bli_request *req, bool cfg_saved, const char *booted_id,
				       bool oneshot);
void bli_request_free(struct bli_request *req);

#endif
