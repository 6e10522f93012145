/* The loader's state: its volume, loader.conf and the sorted entries. */
#ifndef EFI_LOADER_H
#define EFI_LOADER_H

#include "firmware.h"
#include "volumes.h"
#include "core/bli.h"
#include "core/bls.h"
#include "core/config.h"

struct loader {
	struct volume *volumes;       /* [0]: the volume handoff was started from */
	size_t n_volumes;
	struct loader_config cfg;
	struct bls_entry **entries;   /* sorted in BLS order */
	size_t n_entries;
	size_t default_idx;
	bool oneshot;                 /* LoaderEntryOneShot chose default_idx */
	struct bli_request req;       /* what the OS asked of this boot (kept for LoaderEntryLastBooted) */
	bool secure_boot;             /* sb_enforced() */
	enum sb_mode sb_mode;         /* sb_mode(): what the kernel is told */
	bool editor;                  /* cfg_editor_allowed() */
	unsigned editor_failures;     /* wrong editor passwords this boot (menu.c: each waits longer) */
	bool force_menu;              /* no countdown: a boot failed, or the boot volume lost a file */
	bool unattended;              /* menu_choose() took the default by itself (timeout), no person chose */
};

/* entries.c */
/**
 * loader_load() - volume, loader.conf, Type #1 and Type #2 entries; problems
 * are logged. force_menu when the boot volume lost a file it vouched for.
 */
EFI_STATUS loader_load(struct loader *l, EFI_HANDLE image);

/* menu.c */
#define MENU_EXIT SIZE_MAX
/**
 * menu_choose() - show the menu (or honour the timeout; none with
 * @l->force_menu) and return the chosen entry index, or MENU_EXIT;
 * @l->unattended when it was the timeout's (or timeout 0's) choice.
 * *@ret_cmdline is a new command line when the user edited it, else NULL.
 */
size_t menu_choose(struct loader *l, char **ret_cmdline);

/* menu_console.c */
/**
 * menu_console_start() - the text mode LoaderConfigConsoleMode or loader.conf's
 * console-mode asks for (a warning when it cannot be set), then the loader's
 * own drawing where the screen is wider than Full HD (con_graphics_start()).
 */
void menu_console_start(const struct loader *l);
/**
 * menu_console_key() - the menu's 'r' (the next text mode, kept in
 * LoaderConfigConsoleMode) and 'R' (back to loader.conf's or the firmware's).
 * Return: the line to show under the menu; NULL when @c is neither.
 */
const char *menu_console_key(CHAR16 c);
/** menu_console_save() - LoaderConfigConsoleMode written (or deleted) when 'r' or 'R' changed it. */
void menu_console_save(void);

/* loader_info.c */
/** loader_info_publish() - the Boot Loader Interface variables (LoaderInfo, LoaderEntries, ...). */
void loader_info_publish(const struct loader *l, EFI_HANDLE image);
/** loader_requests_read() - what the OS asked of this boot; the one-shot variables are deleted. */
void loader_requests_read(struct bli_request *req);
/** loader_save_selected() - LoaderEntrySelected, and LoaderEntryLastBooted as bli_saved_action() says. */
void loader_save_selected(const struct loader *l, const struct bls_entry *e);

/* sb_enroll.c */
/**
 * sb_enroll() - enroll the keys in @dir (\loader\keys\NAME) after a countdown
 * of secure-boot-enroll-timeout-sec, then reset (sb_keys_write()). Returns
 * only when a key stopped the countdown (EFI_ABORTED) or a file or the
 * firmware refused (logged, nothing written after it).
 */
EFI_STATUS sb_enroll(const struct loader *l, const char *dir);
/**
 * sb_enroll_offer() - in Setup Mode, as loader.conf's secure-boot-enroll says
 * (sb_enroll_decide()): an entry per \loader\keys\NAME after the others,
 * and \loader\keys\auto enrolled at once; when that was aborted or failed,
 * @l->force_menu (the menu, without countdown, the reason under it).
 */
void sb_enroll_offer(struct loader *l, const struct sb_vars *sb);

/* boot_count.c */
/**
 * boot_count_bump() - an entry counting boots ("+LEFT[-DONE]") is renamed to
 * one try less and LoaderBootCountPath set; e->path (and e->efi for a UKI)
 * follow the new name. On a read-only volume, or when renaming fails, a
 * warning: the entry boots uncounted.
 */
void boot_count_bump(struct bls_entry *e);

/* random_seed.c */
/**
 * random_seed_pass() - mix \loader\random-seed, LoaderSystemToken, the RNG and
 * the monotonic counter, write a new seed back and install the kernel's
 * LINUX_EFI_RANDOM_SEED_TABLE (systemd-boot's rules); one line says what was done.
 */
void random_seed_pass(const struct loader *l);

/* bitlocker.c */
/**
 * bitlocker_reboot() - before Windows Boot Manager is chainloaded: when a
 * partition carries BitLocker's signature and loader.conf says
 * reboot-for-bitlocker yes, BootNext to the firmware's Boot#### for
 * bootmgfw.efi, @e remembered (loader_save_selected()) and a cold reset. Returns when it did not (a one-line
 * warning naming PCR 4 when BitLocker is there).
 */
void bitlocker_reboot(const struct loader *l, const struct bls_entry *e);

/* boot_entry.c */
/**
 * boot_entry() - boot @e with @cmdline (NULL: the entry's options), after
 * counting the boot; an automatic entry reboots or powers off instead.
 * Returns only on failure.
 */
EFI_STATUS boot_entry(struct loader *l, struct bls_entry *e, const char *cmdline);

/* boot_retry.c */
/**
 * boot_try() - boot entry @idx with @cmdline (boot_entry()); returns only
 * when it failed, the reasons in con_problems(). A failed boot drops the
 * file a network volume kept (net_fs_forget(): a retry fetches anew). With
 * loader.conf's retry-on-error, an entry no person chose (@l->unattended) is
 * tried again after waits of 1, 2, 4, 8, 16, then 30 s, each counted down
 * (any key: back to the menu), until they add up to retry_sec; then a cold
 * reset, or for "next" the entries after it in menu order, each so (not the
 * automatic ones); after the last, the menu.
 */
void boot_try(struct loader *l, size_t idx, const char *cmdline);

#endif
