/* loader/entries.list (README "Network boot"): HTTP cannot list a directory,
 * so the server's tree names its entries in a file. One path per line,
 * relative to the tree's root: Type #1 entry files (loader/entries/NAME.conf)
 * and Type #2 UKIs (EFI/Linux/NAME.efi); '#' comments and blank lines; a line
 * "sha256 HEX PATH" pins PATH (any file the loader fetches) to a digest; a
 * line "host MAC PATH" names the list PATH of the machine whose network card
 * has that MAC address, read in place of entries.list's entry lines. A
 * path is one word: no blank, no '#'. Any other line is logged as
 * "<name>:<line>: <reason>" and skipped (and counted: the loader then boots
 * nothing by itself). */
#ifndef CORE_NET_LIST_H
#define CORE_NET_LIST_H

#include "platform.h"
#include "sha256.h"
#include <efi/efi.h>

#define NET_HOST_ID_MAX 6

/* One line: a listed entry file, ("sha256 HEX PATH") a pinned file, or
 * ("host MAC PATH") a machine's own list. */
struct net_list_item {
	char *path;                         /* normalized (net_path_normalize()) */
	bool pinned;
	uint8_t sha256[SHA256_DIGEST_SIZE];  /* when pinned */
	uint8_t host_len;                   /* a host line: 6 */
	uint8_t host[NET_HOST_ID_MAX];      /* its MAC address */
};

struct net_list {
	struct net_list_item *items;        /* in file order */
	size_t n;
	unsigned n_errors;                  /* malformed lines skipped */
	bool hosted;                        /* net_list_parse_host() read a machine's list */
};

/**
 * net_list_word_ok() - the @n bytes at @s may be a path in entries.list: not
 * empty, no blank, '#' or control character (what `handoff netlist` lists).
 */
bool net_list_word_ok(const char *s, size_t n);

/**
 * net_list_entry_file() - the normalized @path names a file directly in
 * loader/entries ("NAME.conf") or EFI/Linux ("NAME.efi"; the suffix in any
 * case), as the loader lists those directories: what a line without
 * "sha256" may name.
 */
bool net_list_entry_file(const char *path);

/**
 * net_list_parse() - parse @text (@len bytes, need not be NUL-terminated)
 * named @name in messages into @ret (freed by net_list_free()).
 * Return: EFI_SUCCESS (bad lines are logged and skipped) or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS net_list_parse(const char *text, size_t len, const char *name, struct net_list *ret);
void net_list_free(struct net_list *l);

/**
 * net_list_host() - the list a "host" line names for the machine whose MAC
 * address is @mac (6 bytes; NULL: not known): the first such line's.
 * Return: its normalized path (inside @l), or NULL.
 */
const char *net_list_host(const struct net_list *l, const uint8_t *mac);

/**
 * net_list_parse_host() - read the machine's own list @text (@len bytes,
 * named @name) in place of @l's entry lines: those are dropped, @l's pins
 * and host lines stay, and @text's lines are added as net_list_parse() reads
 * them, except that a host line is refused there (one level).
 * Return: EFI_SUCCESS, or EFI_OUT_OF_RESOURCES (@l freed).
 */
EFI_STATUS net_list_parse_host(const char *text, size_t len, const char *name, struct net_list *l);

/**
 * net_list_pin() - the digest pinned for the normalized @path (ASCII letters
 * compared case-insensitively, so that a case-insensitive server cannot be
 * asked for a pinned file under another spelling), the first such line's.
 * Return: the digest, or NULL when @path is not pinned.
 */
const uint8_t *net_list_pin(const struct net_list *l, const char *path);

/**
 * net_list_vouches() - some line lists or pins the normalized @path (compared
 * as net_list_pin() does): a file the server says it has, which the loader
 * must get (README "Network boot": no automatic boot without it).
 */
bool net_list_vouches(const struct net_list *l, const char *path);

/**
 * net_list_next_in() - the file name of the next listed path directly in the
 * directory @dir (normalized, "" the root), from *@cursor (start at 0) on.
 * Return: the name (inside the list), or NULL when there are no more.
 */
const char *net_list_next_in(const struct net_list *l, const char *dir, size_t *cursor);

/** net_list_has_dir() - some listed path lies below the directory @dir ("" is the root: always). */
bool net_list_has_dir(const struct net_list *l, const char *dir);

#endif
