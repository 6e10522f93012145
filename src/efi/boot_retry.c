/* A boot that failed, and loader.conf's retry-on-error (README "Network
 * boot"): a fleet machine that booted its default by itself tries it again
 * after a back-off, for a bounded time, then resets (UEFI 2.10 §8.5.1: the
 * firmware starts over, a network boot from DHCP) or goes on to the next
 * entry. What a person chose from the menu is never tried again. */
#include "loader.h"
#include "net.h"

#define RETRY_WAIT_MAX_SEC 30u

/* One boot; back only on failure, with nothing of it kept that a retry
 * would read instead of the server's files. */
static void boot_once(struct loader *l, size_t idx, const char *cmdline)
{
	con_forget_problems();
	boot_entry(l, l->entries[idx], cmdline);
	net_fs_forget(l->volumes[0].root);
}

/* Entry @idx again after waits of 1, 2, 4 ... 30 s, until they add up to
 * retry-on-error's seconds. Return: false when a key stopped a wait. */
static bool retry_entry(struct loader *l, size_t idx)
{
	uint32_t left = l->cfg.retry_sec, wait = 1;

	while (left) {
		wait = MIN(wait, left);
		if (!con_countdown("handoff: retrying ", l->entries[idx]->id, wait))
			return false;
		left -= wait;
		boot_once(l, idx, /* cmdline= */ NULL);
		wait = MIN(2 * wait, RETRY_WAIT_MAX_SEC);
	}
	return true;
}

void boot_try(struct loader *l, size_t idx, const char *cmdline)
{
	boot_once(l, idx, cmdline);
	if (!l->unattended || !l->cfg.retry_sec)
		return;
	while (retry_entry(l, idx)) {
		log_info("%s: retried %u s, %s", l->entries[idx]->id, l->cfg.retry_sec,
			 l->cfg.retry_next ? "next entry" : "reset");
		if (!l->cfg.retry_next) {
			RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
			return;
		}
		/* the entries after it, not the automatic ones (reboot, firmware setup, another OS) */
		if (++idx >= l->n_entries || l->entries[idx]->type == BLS_AUTO)
			return;
		boot_once(l, idx, /* cmdline= */ NULL);
	}
}
