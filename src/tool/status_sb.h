/* The Secure Boot part of handoff status (status_sb.c): the firmware's mode,
 * the keys it holds and whose they are, and how the loaders and UKIs on the
 * ESP are signed. */
#ifndef TOOL_STATUS_SB_H
#define TOOL_STATUS_SB_H

#include "json.h"
#include "keys.h"
#include "pe_verify.h"
#include "core/guid.h"

enum { SB_MODE_SECURE_BOOT, SB_MODE_SETUP, SB_MODE_AUDIT, SB_MODE_DEPLOYED, SB_MODE_VARS };

/* One signature of PK, KEK or db. */
struct sb_key_entry {
	enum sb_var_id var;
	char *name;                    /* the certificate's subject (cert_name()), or what else it is */
	const char *kind;              /* "yours", "Microsoft", "other" */
	char owner[GUID_STRING_SIZE];  /* SignatureOwner */
};

/* One image on the ESP. */
struct sb_image {
	char *path;             /* relative to the ESP */
	enum pe_sig_state by_db; /* PE_SIG_TRUSTED: by (a chain to) a certificate of db */
	bool yours;             /* signed by /etc/handoff/keys/db.crt */
	char *signer;           /* the valid signature's signer, or NULL */
};

struct sb_status {
	bool efi;
	int mode[SB_MODE_VARS]; /* each 0, 1, or -1 (absent) */
	struct sb_key_entry *keys;
	size_t n_keys;
	char *problem[SB_VARS]; /* why PK, KEK or db could not be read, or NULL */
	struct sb_image *images;
	size_t n_images;
};

/**
 * sb_status_load() - the mode and keys from efivarfs when @efi, and the
 * signatures of the loaders and UKIs on @esp when it is not NULL (checked
 * against db's certificates as the firmware holds them, and against the
 * owner's db certificate). Nothing fails: what cannot be read is shown so.
 */
void sb_status_load(struct sb_status *s, bool efi, const char *esp);
void sb_status_free(struct sb_status *s);
/** sb_status_mode_text() - "user mode", "setup mode", "audit mode", "deployed mode" or "unknown mode". */
const char *sb_status_mode_text(const struct sb_status *s);
/** sb_status_render_text() - the keys PK, KEK and db hold, a section of status's text. */
void sb_status_render_text(const struct sb_status *s, struct strbuf *sb);
/** sb_status_render_signatures() - "Secure Boot: PATH: how it is signed", a line per image (ESP section). */
void sb_status_render_signatures(const struct sb_status *s, struct strbuf *sb);
/** sb_status_render_json() - "audit_mode", "deployed_mode", "keys" and "signatures" members of an open object. */
void sb_status_render_json(const struct sb_status *s, struct json *j);

#endif
