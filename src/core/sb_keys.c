/* Secure Boot keys from the ESP: when to enroll them (loader.conf(5)
 * secure-boot-enroll) and the check of each .auth file (UEFI 2.10 §8.2.2,
 * §32.4.1). The firmware checks the signatures itself;
 * this catches a file that is not what it should be before anything is
 * written, so that a bad PK.auth cannot leave db and KEK written and the
 * machine still in Setup Mode (sb_enroll.c writes only after every file passed). */
#include "sb_keys.h"
#include "log.h"
#include <efi/sig_list.h>
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

#define TIME_ZERO_FROM 7 /* EFI_TIME: Pad1 at 7, then Nanosecond, TimeZone, Daylight, Pad2 to 16 */
#define DER_SEQUENCE 0x30
#define AUTH_HDR offsetof(EFI_VARIABLE_AUTHENTICATION_2, AuthInfo)
#define AUTH_CERT sizeof(EFI_VARIABLE_AUTHENTICATION_2) /* CertData */

/* The EFI_VARIABLE_AUTHENTICATION_2 at the start: the byte where something
 * is wrong, else where the variable's data begins (> AUTH_HDR). */
static size_t check_descriptor(const uint8_t *buf, size_t len)
{
	static const EFI_GUID pkcs7 = EFI_CERT_TYPE_PKCS7_GUID;
	uint32_t cert_len;

	if (len < AUTH_CERT || len > SB_AUTH_MAX)
		return 0;
	for (size_t i = TIME_ZERO_FROM; i < AUTH_HDR; i++)
		if (buf[i])
			return i;
	cert_len = get_le32(buf + AUTH_HDR);
	/* CertData, when there is any, is a DER SignedData: a SEQUENCE */
	if (cert_len < AUTH_CERT - AUTH_HDR || cert_len > len - AUTH_HDR ||
	    get_le16(buf + AUTH_HDR + 4) != WIN_CERT_REVISION_2_0 ||
	    get_le16(buf + AUTH_HDR + 6) != WIN_CERT_TYPE_EFI_GUID ||
	    memcmp(buf + AUTH_HDR + 8, &pkcs7, sizeof(pkcs7)) ||
	    (cert_len > AUTH_CERT - AUTH_HDR && buf[AUTH_CERT] != DER_SEQUENCE))
		return AUTH_HDR;
	return AUTH_HDR + cert_len;
}

/* The EFI_SIGNATURE_LISTs from @at to the end (§32.4.1: a header,
 * SignatureHeaderSize bytes, whole signatures of an owner and data): the
 * byte of the first that is wrong, else SIZE_MAX; *@ret_n: signatures. */
static size_t check_lists(const uint8_t *buf, size_t len, size_t at, uint64_t *ret_n)
{
	const size_t hdr = sizeof(EFI_SIGNATURE_LIST);

	for (*ret_n = 0; at < len;) {
		uint32_t list, head, sig;

		if (len - at < hdr)
			return at;
		list = get_le32(buf + at + offsetof(EFI_SIGNATURE_LIST, SignatureListSize));
		head = get_le32(buf + at + offsetof(EFI_SIGNATURE_LIST, SignatureHeaderSize));
		sig = get_le32(buf + at + offsetof(EFI_SIGNATURE_LIST, SignatureSize));
		if (list < hdr || list > len - at || head > list - hdr || sig <= sizeof(EFI_SIGNATURE_DATA) ||
		    (list - hdr - head) % sig)
			return at;
		*ret_n += (list - hdr - head) / sig;
		at += list;
	}
	return SIZE_MAX;
}

EFI_STATUS sb_auth_check(const uint8_t *buf, size_t len, const char *path, bool pk)
{
	size_t data = check_descriptor(buf, len), bad = data;
	uint64_t n_sigs = 0;
	const char *what = "EFI_VARIABLE_AUTHENTICATION_2";

	if (data > AUTH_HDR) {
		what = "EFI_SIGNATURE_LIST";
		bad = check_lists(buf, len, data, &n_sigs);
		if (bad == SIZE_MAX && !n_sigs) {
			what = "variable: no signature in it";
			bad = data;
		} else if (bad == SIZE_MAX && pk && (data == AUTH_CERT || n_sigs != 1)) {
			/* signed by itself (no Custom Mode here), one signature (§32.3.1) */
			what = "PK: unsigned or not one signature";
			bad = 0;
		}
	}
	if (bad == SIZE_MAX)
		return EFI_SUCCESS;
	return log_error_status(EFI_INVALID_PARAMETER, "%s: byte %zu: not a valid %s", path, bad, what);
}
