/* Boot counting in entry file names (UAPI.1 Boot Loader Specification,
 * "Boot counting"): "NAME+LEFT-DONE.conf" (or ".efi"; "-DONE" optional, 0
 * when absent). The loader renames the file to "NAME+(LEFT-1)-(DONE+1)" just
 * before booting it; the OS (systemd-bless-boot, or `handoff bless`) drops
 * the counter after a good boot; LEFT 0 marks the entry bad, sorted last.
 * Pure: the loader's src/efi/boot_count.c renames, the host tool names new
 * entries and blesses them with it. */
#ifndef CORE_BLS_COUNT_H
#define CORE_BLS_COUNT_H

#include "platform.h"

/* Counters above this are not counters (systemd-boot's limit, INT_MAX). */
#define BLS_COUNT_MAX 2147483647u

struct bls_counter {
	bool counted;      /* the name carries "+LEFT[-DONE]" before the suffix */
	size_t base_len;   /* bytes of NAME (before the last '+') */
	size_t suffix_pos; /* where the suffix starts in the name */
	uint32_t left, done;
};

/**
 * bls_count_parse() - find the counter of the file name @name, which ends
 * in @suffix (compared without case, as FAT keeps no case). The counter is
 * the text after the LAST '+' of the name: one or more digits, optionally
 * '-' and one or more digits, then exactly the suffix. Anything else (no
 * '+', no digits, text after the digits, a value above BLS_COUNT_MAX, an
 * empty NAME) is an ordinary name: ret->counted false, base_len and
 * suffix_pos the length of @name without @suffix (or all of it when it
 * does not end in @suffix).
 */
void bls_count_parse(const char *name, const char *suffix, struct bls_counter *ret);

/**
 * bls_count_next_name() - the name @name (parsed into @c, counted) takes
 * before its entry is booted: "NAME+(LEFT-1)-(DONE+1)" and the suffix as
 * @name spells it; LEFT stays 0 at 0, DONE stops at BLS_COUNT_MAX.
 * Return: a new string, or NULL when out of memory or @c is not counted.
 */
char *bls_count_next_name(const char *name, const struct bls_counter *c);

/**
 * bls_count_good_name() - the name a counted @name (parsed into @c) takes when
 * its boot is marked good: "NAME" and the suffix as @name spells it, the
 * counter dropped (systemd-bless-boot good).
 * Return: a new string, or NULL when out of memory or @c is not counted.
 */
char *bls_count_good_name(const char *name, const struct bls_counter *c);

/**
 * bls_count_bad_name() - the name a counted @name takes when its boot is
 * marked bad: "NAME+0-DONE" and the suffix, DONE kept (systemd-bless-boot
 * bad), so that the entry sorts last. Return: as bls_count_good_name().
 */
char *bls_count_bad_name(const char *name, const struct bls_counter *c);

/**
 * bls_count_same_entry() - does the file name @name (with @suffix) belong to
 * the entry @id in any state of counting: "ID" + suffix, "ID+L" + suffix or
 * "ID+L-D" + suffix?
 */
bool bls_count_same_entry(const char *name, const char *suffix, const char *id);

#endif
