/* Enrolling Secure Boot keys from the ESP, as systemd-boot does
 * (loader.conf(5) secure-boot-enroll): what to do in which mode, the files
 * of \loader\keys\NAME and the variables they become, and the check of each
 * file before the firmware gets it (UEFI 2.10 §8.2.2 EFI_VARIABLE_AUTHENTICATION_2,
 * §32.4.1 EFI_SIGNATURE_LIST). src/efi/sb_enroll.c reads and writes them. */
#ifndef CORE_SB_KEYS_H
#define CORE_SB_KEYS_H

#include "platform.h"
#include "config.h"
#include "trust.h"
#include <efi/efi.h>

/* What the loader does with \loader\keys at this boot. */
enum sb_enroll_do {
	SB_ENROLL_NOTHING, /* not even look */
	SB_ENROLL_ENTRIES, /* a menu entry "Enroll Secure Boot keys: NAME" per directory */
	SB_ENROLL_AUTO,	   /* those, and \loader\keys\auto enrolled before the menu */
};

/**
 * sb_enroll_decide() - loader.conf(5) secure-boot-enroll: only in Setup Mode
 * (SetupMode = 1, UEFI 2.10 §32.3); "off" never; "manual" entries only;
 * "if-safe" enrolls "auto" by itself where nothing can be bricked (@safe: a
 * virtual machine), else entries as "manual"; "force" enrolls "auto" anyway.
 */
enum sb_enroll_do sb_enroll_decide(enum cfg_sb_enroll mode, const struct sb_vars *sb, bool safe);

/* The variables written, in this order: db first, PK last, for writing PK
 * ends Setup Mode (UEFI 2.10 §32.3.2), after which db and KEK would need
 * signatures of KEK and PK. dbx is optional, as in systemd-boot. */
enum { SB_KEY_DB, SB_KEY_DBX, SB_KEY_KEK, SB_KEY_PK, SB_N_KEYS };

struct sb_key_var {
	const char *file;   /* in \loader\keys\NAME */
	const CHAR16 *name; /* the variable */
	EFI_GUID guid;	    /* its vendor: EFI_IMAGE_SECURITY_DATABASE_GUID or EFI_GLOBAL_VARIABLE_GUID */
	bool optional;
};

/** sb_key_vars - db, dbx, KEK and PK, in the order they are written. */
extern const struct sb_key_var sb_key_vars[SB_N_KEYS];

/* Non-volatile, boot and runtime access, time-based authenticated writes
 * (UEFI 2.10 §8.2.1): what the firmware requires of PK, KEK, db and dbx. */
#define SB_KEY_ATTRIBUTES                                                                                              \
	(EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS |                   \
	 EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS)

/* A .auth file larger than this is refused unread: a dbx with every
 * revocation to date is about 25 KiB, and firmware stores take at most
 * tens of KiB per variable. */
#define SB_AUTH_MAX (256u << 10)

/**
 * sb_auth_check() - @buf (@len bytes, the file @path) is what SetVariable()
 * takes for a time-based authenticated variable: an EFI_VARIABLE_AUTHENTICATION_2
 * (EFI_TIME with Pad1, Nanosecond, TimeZone, Daylight and Pad2 zero; a
 * WIN_CERTIFICATE_UEFI_GUID of revision 0x0200, type WIN_CERT_TYPE_EFI_GUID,
 * CertType EFI_CERT_TYPE_PKCS7_GUID, a DER SignedData when there is one),
 * then EFI_SIGNATURE_LISTs that fill the rest exactly and hold one signature
 * or more, SB_AUTH_MAX bytes at most. @pk: the platform key, which must be
 * signed (by itself: no Custom Mode here) and hold exactly one signature
 * (§32.3.1). The same rules as siglist.c's parsers, without their
 * allocations and messages: the loader has no room for them.
 * Return: EFI_SUCCESS, or EFI_INVALID_PARAMETER logged as "PATH: byte N: not a
 * valid EFI_VARIABLE_AUTHENTICATION_2" (or EFI_SIGNATURE_LIST, ...).
 */
EFI_STATUS sb_auth_check(const uint8_t *buf, size_t len, const char *path, bool pk);

#endif
