/* Secure Boot keys from the ESP: when to enroll them (loader.conf(5)
 * secure-boot-enroll) and the check of each .auth file (UEFI 2.10 §8.2.2,
 * §32.4.1; parsed by siglist.c). The firmware checks the signatures itself;
 * this catches a file that is not what it should be before anything is
 * written, so that a bad PK.auth cannot leave db and KEK written and the
 * machine still in Setup Mode (sb_enroll.c writes only after every file passed). */
#include "sb_keys.h"
#include "log.h"
#include "siglist.h"
#include <efi/image_security.h>

const struct sb_key_var sb_key_vars[SB_N_KEYS] = {
	[SB_KEY_DB] = {"db.auth", (const CHAR16 *)u"db", EFI_IMAGE_SECURITY_DATABASE_GUID, false},
	[SB_KEY_DBX] = {"dbx.auth", (const CHAR16 *)u"dbx", EFI_IMAGE_SECURITY_DATABASE_GUID, true},
	[SB_KEY_KEK] = {"KEK.auth", (const CHAR16 *)u"KEK", EFI_GLOBAL_VARIABLE_GUID, false},
	[SB_KEY_PK] = {"PK.auth", (const CHAR16 *)u"PK", EFI_GLOBAL_VARIABLE_GUID, false},
};

enum sb_enroll_do sb_enroll_decide(enum cfg_sb_enroll mode, const struct sb_vars *sb, bool safe)
{
	if (mode == CFG_SB_ENROLL_OFF || sb->setup_mode != 1)
		return SB_ENROLL_NOTHING;
	if (mode == CFG_SB_ENROLL_FORCE || (mode == CFG_SB_ENROLL_IF_SAFE && safe))
		return SB_ENROLL_AUTO;
	return SB_ENROLL_ENTRIES;
}

#define DER_SEQUENCE 0x30

/* What siglist_auth_parse() and siglist_parse() leave to the loader: the
 * padding of EFI_TIME (§8.2.2), the DER of CertData, a list at all, and the PK. */
static const char *auth_problem(const struct siglist_auth *a, size_t n_sigs, bool pk)
{
	const EFI_TIME *t = &a->time;

	if (t->Pad1 || t->Nanosecond || t->TimeZone || t->Daylight || t->Pad2)
		return "EFI_TIME padding (Pad1 to Pad2) not 0";
	if (a->pkcs7_len && a->pkcs7[0] != DER_SEQUENCE)
		return "CertData is not DER";
	if (!n_sigs)
		return "no signature";
	if (pk && (!a->pkcs7_len || n_sigs != 1))
		return "a PK must be signed and hold one signature";
	return NULL;
}

EFI_STATUS sb_auth_check(const uint8_t *buf, size_t len, const char *path, bool pk)
{
	struct siglist_auth a;
	size_t n_sigs = 0;
	const char *problem;
	EFI_STATUS err;

	if (len > SB_AUTH_MAX)
		return log_error_status(EFI_LOAD_ERROR, "%s: %zu bytes, more than %u", path, len, SB_AUTH_MAX);
	err = siglist_auth_parse(buf, len, path, &a);
	if (!EFI_ERROR(err))
		err = siglist_parse(a.data, a.data_len, path, /* ret= */ NULL, &n_sigs);
	if (EFI_ERROR(err))
		return err;
	problem = auth_problem(&a, n_sigs, pk);
	if (problem)
		return log_error_status(EFI_LOAD_ERROR, "%s: %s", path, problem);
	return EFI_SUCCESS;
}
