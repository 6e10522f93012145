/* Boot Loader Specification entries: Type #1 (\loader\entries\*.conf) and
 * Type #2 (unified kernel images), their sort order and default selection.
 * UAPI.1 Boot Loader Specification; handoff adds the key "protocol". */
#ifndef CORE_BLS_H
#define CORE_BLS_H

#include "fwarch.h"
#include "platform.h"
#include "plan.h"
#include "sidecar.h"

enum bls_type { BLS_TYPE1, BLS_TYPE2, BLS_AUTO };

/* What an automatic menu entry (loader.conf auto-firmware, auto-reboot,
 * auto-poweroff) does instead of booting; BLS_AUTO_EFI ones (another
 * loader found on the ESP) boot their "efi" path as a Type #1 entry would. */
enum bls_auto_action {
	BLS_AUTO_NONE, BLS_AUTO_FIRMWARE, BLS_AUTO_REBOOT, BLS_AUTO_POWEROFF, BLS_AUTO_SB_KEYS, BLS_AUTO_EFI
};

/* The other loaders an ESP may hold (systemd-boot's auto-windows,
 * auto-efi-shell, auto-efi-default), as bit numbers of a found set. */
enum bls_os { BLS_OS_WINDOWS, BLS_OS_SHELL, BLS_OS_DEFAULT, BLS_OS_MAX };
#define BLS_WINDOWS_PATH "/EFI/Microsoft/Boot/bootmgfw.efi"

/* Where secure-boot-enroll finds the keys: one directory per set (loader.conf(5)). */
#define SB_KEYS_DIR "\\loader\\keys"

struct bls_entry {
	enum bls_type type;
	char *id;            /* file name without ".conf" (Type #1) or the .efi name (Type #2), and
	                      * without a boot counter (as systemd-boot and bootctl name it) */
	char *path;          /* where it came from, for messages */
	char *title;         /* NULL when absent */
	char *version;
	char *sort_key;
	char *machine_id;
	char *kernel;        /* Type #1 "linux" key: the kernel path, or NULL */
	char *efi;           /* Type #1 "efi" chainload path or "uki" path, or the UKI path for Type #2 */
	char *url;           /* Type #1 "uki-url": where the UKI is fetched from, or NULL */
	bool uki;            /* Type #1 "uki" or "uki-url": a UKI, booted as a Type #2 one */
	uint32_t profile;    /* "profile N": "@N" opens the UKI's load options (0: none) */
	char **initrd;       /* n_initrd paths, in order */
	size_t n_initrd;
	char **extra;        /* "extra": n_extra credential and extension files for the UKI */
	size_t n_extra;
	char *options;       /* every "options" line joined by single spaces, or NULL */
	enum boot_scheme protocol;
	bool uki_cmdline;    /* Type #2: the image has a .cmdline section */
	uint32_t uki_profile; /* Type #2: the profile of a multi-profile UKI (its id ends "@ID" or "@N" then) */
	unsigned n_errors;   /* malformed lines (each logged with file:line) */
	bool counted;        /* boot counting: the file name ends in "+LEFT[-DONE]" (bls_count.h) */
	uint32_t tries_left, tries_done;
	enum bls_auto_action auto_action; /* BLS_AUTO entries only */
	void *volume;        /* opaque: the loader's handle of the volume it was found on */
	char *devicetree;    /* "devicetree": the DTB path (FW_NATIVE_DT builds; x86 loaders ignore the key) */
};

/**
 * bls_parse_entry() - parse one Type #1 entry file.
 * @text/@len: contents (UTF-8, need not be NUL-terminated); @filename: the
 * file's name ("debian-6.1.0.conf", or "debian-6.1.0+3-1.conf" counting
 * boots), giving the id and the counter; @path: for messages.
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
/**
 * bls_load_options() - what a Type #1 entry hands its program as LoadOptions:
 * @line (its options, or the edited line), after "@N " for "profile N" (N > 0)
 * as systemd-boot passes a profile to a multi-profile UKI.
 * Return: a new string (NULL: out of memory).
 */
char *bls_load_options(const struct bls_entry *e, const char *line);
/**
 * bls_extra_kind() - where the Type #1 "extra" file @path goes in the initrd
 * (systemd-boot: by its suffix .cred, .sysext.raw or .confext.raw, into the
 * directory and with the modes systemd-stub gives the same files beside a
 * UKI, core/sidecar.h), and in *@ret_name its file name (after the last '/'
 * or '\\'). Return: NULL when its suffix is none of those (or the name is
 * nothing but the suffix).
 */
const struct sidecar_spec *bls_extra_kind(const char *path, const char **ret_name);
/**
 * bls_url_resolve() - the URL of a "uki-url" value @url: itself, or for
 * ":NAME" (systemd-boot) @origin (the URL the loader came from) with its last
 * component replaced by NAME. Return: a new string; NULL when out of memory,
 * or when @url is relative and there is no @origin.
 */
char *bls_url_resolve(const char *url, const char *origin);
/** bls_entry_free() - free every string of @e and zero it (not @e itself). */
void bls_entry_free(struct bls_entry *e);

/**
 * bls_entry_from_uki() - a Type #2 entry for the UKI file @name (its id,
 * with ".efi") at @path: title, version and sort-key from its .osrel text
 * (@osrel, @osrel_len bytes, may be NULL), and whether it has a .cmdline.
 * The caller sets e->efi and e->volume. Return: EFI_SUCCESS or
 * EFI_OUT_OF_RESOURCES (free @e with bls_entry_free()).
 */
EFI_STATUS bls_entry_from_uki(struct bls_entry *e, const char *name, const char *path, const char *osrel,
			      size_t osrel_len, bool has_cmdline);

/**
 * bls_entry_uki_profile() - make @e (from bls_entry_from_uki()) the entry of
 * profile @profile of a multi-profile UKI, named as systemd-boot names it:
 * the title followed by " (TITLE)" of the profile's .profile (@text, @len
 * bytes, may be NULL), else for a profile but 0 " (ID)", else
 * " (Profile #N+1)"; for a profile but 0, the id followed by "@ID" (else
 * "@N") and the options "@N", which tell the stub the profile
 * (systemd-stub(7)). Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS bls_entry_uki_profile(struct bls_entry *e, uint32_t profile, const char *text, size_t len);

/**
 * bls_entry_set_name() - the id and boot counter of @e from its file name
 * @name: the name without @suffix and without "+LEFT[-DONE]"; with
 * @keep_suffix (Type #2, "name.efi") the suffix stays in the id.
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES (e->id then NULL).
 */
EFI_STATUS bls_entry_set_name(struct bls_entry *e, const char *name, const char *suffix, bool keep_suffix);

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
/**
 * bls_add_auto_entries() - append the automatic entries @which asks for
 * (CFG_AUTO_* bits, from cfg_auto_entries()) to *@entries: BLS_AUTO entries
 * with systemd-boot's ids and titles, firmware first, then power off, then
 * reboot. The firmware one only when @firmware_ui (OsIndicationsSupported
 * offers EFI_OS_INDICATIONS_BOOT_TO_FW_UI, UEFI 2.10 §8.5.4).
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES (those added stay added).
 */
EFI_STATUS bls_add_auto_entries(unsigned which, bool firmware_ui, struct bls_entry ***entries, size_t *n);
/** bls_os_path() - where the ESP holds loader @os for firmware @fw ("/EFI/BOOT/BOOTX64.EFI"). */
const char *bls_os_path(enum bls_os os, enum fw_arch fw);
/**
 * bls_add_os_entries() - append an entry for each loader in @found (bits 1
 * << enum bls_os: the file is on the ESP, and for BLS_OS_DEFAULT it is not
 * this loader) to *@entries, in enum bls_os order: BLS_AUTO_EFI entries with
 * systemd-boot's ids and titles, "efi" and path the file's, for firmware @fw.
 * Unlike the reboot and power-off ones they may be the default.
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES (those added stay added).
 */
EFI_STATUS bls_add_os_entries(unsigned found, enum fw_arch fw, struct bls_entry ***entries, size_t *n);
/**
 * bls_add_sb_keys_entry() - append systemd-boot's entry for the key set
 * \loader\keys\@name: id "secure-boot-keys-NAME", title "Enroll Secure Boot
 * keys: NAME", path the directory; BLS_AUTO_SB_KEYS enrolls them.
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS bls_add_sb_keys_entry(const char *name, struct bls_entry ***entries, size_t *n);
/** bls_display_title() - the menu text: title (+ " (version)") or the id. Allocated. */
char *bls_display_title(const struct bls_entry *e);

#endif
