/* \loader\loader.conf (systemd-boot compatible subset): timeout, default
 * (a glob, or @saved), editor, console-mode, auto-entries, auto-firmware,
 * auto-reboot, auto-poweroff, the secure-boot-enroll keys,
 * reboot-for-bitlocker; and handoff's own boot-partition (which partitions
 * besides the ESP and XBOOTLDR may hold entries), editor-password (the
 * editor asks for it) and retry-on-error (an unattended boot that failed is
 * tried again, boot_retry.c). Unknown keys warn;
 * malformed lines are reported with file and line number and skipped, the
 * rest of the file still counts. */
#ifndef CORE_CONFIG_H
#define CORE_CONFIG_H

#include "platform.h"
#include "sha256.h"
#include <efi/efi.h>

#define CFG_TIMEOUT_UNSET UINT32_MAX
#define CFG_TIMEOUT_MENU_FORCE (UINT32_MAX - 1) /* "timeout menu-force" */

/* The automatic menu entries (loader.conf(5) auto-firmware, auto-reboot,
 * auto-poweroff), as bits. */
#define CFG_AUTO_FIRMWARE 0x1u
#define CFG_AUTO_REBOOT 0x2u
#define CFG_AUTO_POWEROFF 0x4u

/* "editor-password pbkdf2-sha256:ITERATIONS:SALT:HASH": PBKDF2-HMAC-SHA256
 * (RFC 8018 §5.2) of the password, SALT and HASH in hex. ITERATIONS is
 * bounded so that a check cannot stall the loader: measured, the loader
 * does about 300,000 a second under QEMU's TCG and 1.7 million on the x86-64
 * host running it, so the most takes ~17 s there (README "Configuration"). */
#define CFG_PW_SCHEME "pbkdf2-sha256"
#define CFG_PW_ITERATIONS_MIN 1000u
#define CFG_PW_ITERATIONS_MAX 5000000u
#define CFG_PW_SALT_MIN 8u  /* bytes: RFC 8018 §4.1, at least 64 bits */
#define CFG_PW_SALT_MAX 64u
#define CFG_PW_ITERATIONS_TEXT "1000..5000000"
#define CFG_PW_LEN_MAX 127u /* characters: printable ASCII, what a firmware keyboard types */
#define CFG_PW_LEN_MAX_TEXT "127"

struct cfg_password {
	bool set;             /* an editor-password line: the editor asks for the password */
	bool malformed;       /* one was unreadable: no password opens the editor (fail closed) */
	uint32_t iterations;
	uint8_t salt_len;
	uint8_t salt[CFG_PW_SALT_MAX];
	uint8_t hash[SHA256_DIGEST_SIZE];
};

/* loader.conf(5) secure-boot-enroll: what the loader does in Setup Mode with
 * the keys in \loader\keys\NAME (sb_enroll_decide(), src/core/sb_keys.h). */
enum cfg_sb_enroll { CFG_SB_ENROLL_OFF, CFG_SB_ENROLL_MANUAL, CFG_SB_ENROLL_IF_SAFE, CFG_SB_ENROLL_FORCE };
#define CFG_SB_ENROLL_TIMEOUT_DEFAULT 15u /* seconds, systemd-boot's */

/* "retry-on-error SECONDS [next|reset]": at most a day of waits, so that a
 * value in milliseconds (or a typo) is refused rather than taken. */
#define CFG_RETRY_SEC_MAX 86400u
#define CFG_RETRY_WHAT "SECONDS (0..86400) [next|reset]"

struct loader_config {
	uint32_t timeout_sec;   /* CFG_TIMEOUT_UNSET when absent */
	char *default_glob;     /* NULL when absent or "@saved" */
	bool default_saved;     /* "default @saved": the entry booted last (LoaderEntryLastBooted) */
	bool auto_entries;      /* "auto-entries", default yes */
	bool reboot_for_bitlocker; /* Windows with BitLocker: BootNext and a reset, not chainloaded (default no) */
	uint8_t auto_set;       /* CFG_AUTO_* keys given in the file ... */
	uint8_t auto_on;        /* ... and those of them set to yes */
	bool editor;            /* default true, as systemd-boot ... */
	bool editor_set;        /* ... but only when given: see cfg_editor_allowed() */
	struct cfg_password editor_password;
	char *console_mode;     /* NULL when absent */
	uint8_t sb_enroll;      /* enum cfg_sb_enroll; default if-safe, as systemd-boot */
	bool sb_enroll_shutdown; /* "secure-boot-enroll-action shutdown": power off after enrolling, not reset */
	uint32_t sb_enroll_timeout_sec; /* the countdown before enrolling; 0 ("hidden"): none */
	uint32_t retry_sec;     /* retry-on-error: the waits between tries add up to this; 0: off (the default) */
	bool retry_next;        /* ... then the next entry (each with as much), not a reset */
	EFI_GUID *boot_partitions; /* "boot-partition PARTUUID" lines (repeatable), in order */
	size_t n_boot_partitions;
	unsigned n_errors;      /* malformed lines seen (each logged) */
};

/* What cfg_parse_timeout() accepts, for messages (one %u: the largest number). */
#define CFG_TIMEOUT_WHAT "a number of seconds (0..%u), menu-force or menu-hidden"

/**
 * cfg_parse_timeout() - a "timeout" value (@len bytes of @s): seconds, or systemd-boot's
 * menu-force / menu-hidden / menu-disabled (the last two boot the default at
 * once, as timeout 0). Shared by loader.conf and the LoaderConfigTimeout
 * variables. Return: false (*@ret untouched) when @s is none of these.
 */
bool cfg_parse_timeout(const char *s, size_t len, uint32_t *ret);

/**
 * cfg_parse_loader_conf() - parse loader.conf text (UTF-8, need not be
 * NUL-terminated). @path is used in messages ("\loader\loader.conf:3: ...").
 * *@ret is overwritten (not freed) and starts from the defaults.
 * Return: EFI_SUCCESS (bad lines are skipped and counted in n_errors) or
 * EFI_OUT_OF_RESOURCES (*@ret then holds the defaults).
 */
EFI_STATUS cfg_parse_loader_conf(const char *text, size_t len, const char *path, struct loader_config *ret);
/**
 * cfg_auto_entries() - which automatic entries to show (CFG_AUTO_* bits): a
 * key given in loader.conf decides for itself; the others take systemd-boot's
 * defaults (auto-firmware yes, auto-reboot and auto-poweroff no), and
 * "auto-entries no" turns those defaults off (and, as in systemd-boot, the
 * entries of other loaders found on the ESP: auto-windows and the like).
 */
uint8_t cfg_auto_entries(const struct loader_config *cfg);

/**
 * cfg_init() - the defaults: no timeout, no default glob, editor on, auto-entries yes,
 * secure-boot-enroll if-safe with a 15 s countdown, then a reset.
 */
void cfg_init(struct loader_config *cfg);

/**
 * cfg_editor_allowed() - may the command line be edited? "editor" as given;
 * when absent, yes, except under Secure Boot: an edited line is measured, not
 * verified, so it takes an explicit "editor yes" there (issue 12). Never
 * with a malformed editor-password line: what was to guard it is lost.
 */
bool cfg_editor_allowed(const struct loader_config *cfg, bool secure_boot);

/**
 * cfg_password_check() - does @password (@len bytes) open the editor @pw
 * locks? Its PBKDF2 compared in constant time; never for a malformed line.
 */
bool cfg_password_check(const struct cfg_password *pw, const char *password, size_t len);

/** cfg_free() - free the strings of @cfg and reset it to the defaults. */
void cfg_free(struct loader_config *cfg);

#endif
