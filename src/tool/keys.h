/* The owner's own Secure Boot keys (handoff keys, cmd_keys.c): PK, KEK and
 * db, made and kept root-only in /etc/handoff/keys (keys_store.c), their
 * certificates in signed signature lists ready for enrollment (.auth files,
 * src/core/siglist.c), optionally with Microsoft's certificates kept from the
 * machine's own KEK and db (keys_ms.c), staged on the ESP for the loader to
 * enroll in Setup Mode (keys_enroll.c). The cryptography is libcrypto's
 * (keys_make.c). */
#ifndef TOOL_KEYS_H
#define TOOL_KEYS_H

#include "tool.h"
#include "core/siglist.h"

#define KEYS_SUBDIR "keys"
#define KEYS_OWNER_FILE "GUID"
/* NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS | TIME_BASED_AUTHENTICATED_WRITE_ACCESS
 * (UEFI 2.10 §8.2, §32.3: the attributes of PK, KEK and db) */
#define KEYS_VAR_ATTRIBUTES 0x27u

enum sb_var_id { SB_PK, SB_KEK, SB_DB, SB_VARS };

/* One of the three variables: its name (and the stem of its files), its
 * vendor GUID, what it is called, and whose key signs its .auth file. */
struct sb_var {
	const char *name;
	EFI_GUID vendor;
	const char *vendor_str;
	const char *what;
	enum sb_var_id signer;
};

/** sb_vars - PK, KEK, db, in the order of enum sb_var_id. */
extern const struct sb_var sb_vars[SB_VARS];

/* ---- libcrypto (keys_make.c) ---- */
struct sb_key;

/**
 * sb_key_generate() - a new RSA 2048 key and a self-signed certificate with
 * common name @cn. Return: 0 or -1 (printed).
 */
int sb_key_generate(const char *cn, struct sb_key **ret);
/** sb_key_load() - the PEM private key @key_path with its PEM certificate @cert_path. Return: 0 or -1 (printed). */
int sb_key_load(const char *key_path, const char *cert_path, struct sb_key **ret);
void sb_key_free(struct sb_key *k);
/** sb_key_cn() - the certificate's common name (for messages). */
const char *sb_key_cn(const struct sb_key *k);
/** sb_key_key_pem() - the private key as PEM (PKCS#8, unencrypted). Return: 0 or -1 (printed). */
int sb_key_key_pem(const struct sb_key *k, uint8_t **ret, size_t *ret_len);
/** sb_key_cert_pem() - the certificate as PEM. Return: 0 or -1 (printed). */
int sb_key_cert_pem(const struct sb_key *k, uint8_t **ret, size_t *ret_len);
/** sb_key_cert_der() - the certificate as DER: what a signature list holds. Return: 0 or -1 (printed). */
int sb_key_cert_der(const struct sb_key *k, uint8_t **ret, size_t *ret_len);
/**
 * sb_key_sign() - the DER PKCS#7 SignedData of @data (@len bytes) that an
 * authenticated variable write carries (UEFI 2.10 §8.2.2): SHA-256,
 * RSASSA-PKCS1-v1_5, no authenticated attributes, detached, with the
 * signer's certificate. Return: 0 or -1 (printed).
 */
int sb_key_sign(const struct sb_key *k, const uint8_t *data, size_t len, uint8_t **ret, size_t *ret_len);

/* ---- the key directory (keys_store.c) ---- */
/** keys_dir() - the absolute path of /etc/handoff/keys ($HANDOFF_CONF_DIR/keys). Malloc'd. */
char *keys_dir(void);
/** keys_file() - keys_dir()/@stem@ext ("db", ".key"). Malloc'd. */
char *keys_file(const char *stem, const char *ext);
/**
 * keys_create() - make the keys, certificates and .auth files in a fresh
 * directory, then put it in place of keys_dir() (an existing one moves aside
 * with @force, else it is refused) and point handoff.conf's sign-key= and
 * sign-cert= at the db key. @microsoft: Microsoft's certificates of this
 * machine's KEK and db go into KEK.auth and db.auth. Return: 0 or -1 (printed).
 */
int keys_create(bool force, bool microsoft);

/* ---- Microsoft's certificates (keys_ms.c) ---- */
/* Signatures kept from a variable, their bytes owned here. */
struct sb_kept {
	uint8_t *buf; /* the variable's data: the entries point into it */
	struct siglist_entry *e;
	size_t n;
};
/**
 * keys_microsoft() - the entries of the machine's @v (KEK or db, read from
 * efivarfs) whose SignatureOwner is Microsoft's, each named on stdout.
 * Return: 0 (*@ret may hold none), or -1 (printed: the variable is malformed).
 */
int keys_microsoft(enum sb_var_id v, struct sb_kept *ret);
void sb_kept_free(struct sb_kept *k);

/* ---- staging for enrollment (keys_enroll.c) ---- */
/**
 * keys_enroll() - copy PK.auth, KEK.auth and db.auth to @esp/loader/keys/@name/,
 * set "secure-boot-enroll @mode" in loader.conf, sign the installed loaders
 * and the UKIs with the db key, and say what happens next. @mode "off"
 * only sets that line.
 * Return: 0 or -1 (printed).
 */
int keys_enroll(const char *esp, const char *name, const char *mode);
/** keys_enroll_mode_ok() - @mode is off, manual, if-safe or force (loader.conf(5) secure-boot-enroll). */
bool keys_enroll_mode_ok(const char *mode);
/** keys_enroll_name_ok() - @s names a key set: one path component of letters, digits, '-', '_', '.'. */
bool keys_enroll_name_ok(const char *s);

#endif
