/* Boot counting seen from the booted system (bless.c): the file the loader
 * renamed before this boot (LoaderBootCountPath, systemd's Boot Loader
 * Interface), found on the ESP or on the partition holding /boot
 * (XBOOTLDR), and marking the boot good (the counter dropped) or bad
 * (+0-DONE), as systemd-bless-boot does (UAPI.1 "Boot counting"). */
#ifndef TOOL_BLESS_H
#define TOOL_BLESS_H

#include "tool.h"

enum bless_state {
	BLESS_CLEAN,         /* not booted with boot counting */
	BLESS_INDETERMINATE, /* the booted file is still counting: not marked yet */
	BLESS_GOOD,          /* marked good */
	BLESS_BAD,           /* marked bad */
	BLESS_NOT_FOUND,     /* none of the three names on the ESP or at /boot */
};

struct bless_info {
	char *var;            /* LoaderBootCountPath, NULL when unset */
	char *dir;            /* the booted file's directory, relative ("loader/entries") */
	char *booted, *good, *bad; /* file names: as booted, marked good, marked bad */
	char *id;             /* the entry: the good name without .conf or .efi */
	uint32_t left, done;
	char *roots[2];       /* the partitions looked at: the ESP, /boot's file system */
	size_t n_roots;
	char *root;           /* the one holding the file (one of roots), NULL when not found */
	enum bless_state state;
};

/**
 * bless_load() - what LoaderBootCountPath names, where it is and its state.
 * @esp_opt, @boot_opt: --esp and --boot (NULL: the ESP recorded or found,
 * /boot). An ESP whose PARTUUID is known and is not LoaderDevicePartUUID is
 * not the one the loader started from and is not looked at.
 * Return: 0, or -1 when the variable is malformed (printed).
 */
int bless_load(const char *esp_opt, const char *boot_opt, struct bless_info *ret);
void bless_info_free(struct bless_info *b);

/**
 * bless_mark() - rename the booted file to its good (@good) or bad name;
 * one already marked the other way is renamed too, one already marked this
 * way is left alone (so systemd-bless-boot and handoff never rename twice).
 * Return: 0, or -1 (printed).
 */
int bless_mark(struct bless_info *b, bool good);

/** bless_state_name() - clean, indeterminate, good, bad (systemd-bless-boot status's words), or unknown. */
const char *bless_state_name(enum bless_state s);

/**
 * bless_by() - who marks a good boot here: "systemd-bless-boot" when installed
 * and neither its unit nor its generator is masked, else "handoff bless".
 */
const char *bless_by(void);

#endif
