/* Boot Loader Specification entries: Type #1 (\loader\entries\*.conf) and
 * Type #2 (unified kernel images), their sort order and default selection.
 * UAPI.1 Boot Loader Specification; handoff adds the key "protocol". */
#ifndef CORE_BLS_H
#define CORE_BLS_H

#include "platform.h"
#include "plan.h"

enum bls_type { BLS_TYPE1, BLS_TYPE2 };

struct bls_entry {
	enum bls_type type;
	char *id;            /* file name with ".conf" removed (Type #1) or the .efi name (Type #2) */
	char *path;          /* where it came from, for messages */
	char *title;         /* NULL when absent */
	char *version;
	char *sort_key;
	char *machine_id;
	char *kernel;        /* Type #1 "linux" key: the kernel path, or NULL */
	char *efi;           /* Type #1 "efi" chainload path, or the UKI path for Type #2 */
	char **initrd;       /* n_initrd paths, in order */
	size_t n_initrd;
	char *options;       /* every "options" line joined by single spaces, or NULL */
	enum boot_scheme protocol;
	bool uki_cmdline;    /* Type #2: the image has a .cmdline section */
	unsigned n_errors;   /* malformed lines (each logged with file:line) */
	void *volume;        /* opaque: the loader's handle of the volume it was found on */
};

/**
 * bls_parse_entry() - parse one Type #1 entry file.
 * @text/@len: contents (UTF-8, need not be NUL-terminated); @filename: the
 * file's name ("debian-6.1.0.conf"), giving the id; @path: for messages.
 * Bad lines are logged as "<path>:<line>: <reason>" and skipped.
 * "linux" wins over "efi" when both are given (warning; efi is dropped).
 * On any error *@ret holds nothing (bls_entry_free() on it is harmless).
 * Return: EFI_SUCCESS; EFI_LOAD_ERROR when the entry can boot nothing
 * (neither "linux" nor "efi"; logged); EFI_UNSUPPORTED when its
 * "architecture" is not x64 (the BLS says to hide it; info line);
 * EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS bls_parse_entry(const char *text, size_t len, const char *filename, const char *path,
			   struct bls_entry *ret);
/** bls_entry_free() - free every string of @e and zero it (not @e itself). */
void bls_entry_free(struct bls_entry *e);

/** bls_entry_cmp() - BLS order: negative when @a sorts before @b. */
int bls_entry_cmp(const struct bls_entry *a, const struct bls_entry *b);
/** bls_sort() - sort @entries in BLS order (stable). */
void bls_sort(struct bls_entry **entries, size_t n);
/**
 * bls_version_cmp() - UAPI.10 version comparison (as systemd's
 * strverscmp_improved). NULL counts as "". Return: -1, 0 or 1.
 */
int bls_version_cmp(const char *a, const char *b);
/** bls_version_cmp_n() - bls_version_cmp() of @a[0..@a_len) and @b[0..@b_len). */
int bls_version_cmp_n(const char *a, size_t a_len, const char *b, size_t b_len);
/**
 * glob_match() - shell-style matching of the whole string @s: '*', '?',
 * '[abc]', '[a-z]', '[!x]' (also '[^x]'); bytes, case-sensitive, no escapes.
 * Time O(len(pattern) * len(s)), no recursion.
 */
bool glob_match(const char *pattern, const char *s);
/** glob_match_suffixed() - glob_match() of @pattern against @s followed by @suffix. */
bool glob_match_suffixed(const char *pattern, const char *s, const char *suffix);
/**
 * bls_find_default() - index of the default entry: the first (in sorted
 * order) whose id matches @glob (also tried with ".conf" appended, as systemd-boot);
 * with no @glob or no match, 0. Return: index, or SIZE_MAX when n == 0.
 */
size_t bls_find_default(struct bls_entry *const *entries, size_t n, const char *glob);
/** bls_find_entry() - the first entry whose id matches @glob, as bls_find_default(); SIZE_MAX when none. */
size_t bls_find_entry(struct bls_entry *const *entries, size_t n, const char *glob);
/** bls_display_title() - the menu text: title (+ " (version)") or the id. Allocated. */
char *bls_display_title(const struct bls_entry *e);

#endif
