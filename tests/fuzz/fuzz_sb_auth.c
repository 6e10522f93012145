/* libFuzzer: the .auth files of \loader\keys\NAME (src/core/sb_keys.c
 * sb_auth_check()), checked before the loader hands them to SetVariable().
 * Besides memory safety, the verdict must be an
 * independent reader's, written from UEFI 2.10 §8.2.2 and §32.4.1 with the
 * structures of efi/sig_list.h: an EFI_VARIABLE_AUTHENTICATION_2 (zero
 * TimeStamp padding, revision 0x0200, WIN_CERT_TYPE_EFI_GUID, PKCS #7, DER
 * CertData) and signature lists that tile the rest exactly, holding one
 * signature or more; a PK signed, with one signature. The first byte chooses
 * PK or not. */
#include "core/sb_keys.h"
#include <efi/sig_list.h>
#include <stdlib.h>

/* The lists tiling @p (@n bytes) exactly, each with a whole number of signatures (none is fine). */
static bool ref_lists(const uint8_t *p, size_t n, uint64_t *n_sigs)
{
	EFI_SIGNATURE_LIST l;
	uint64_t body;

	if (n == 0)
		return true;
	if (n < sizeof(l))
		return false;
	memcpy(&l, p, sizeof(l));
	if (l.SignatureListSize > n || (uint64_t)l.SignatureHeaderSize + sizeof(l) > l.SignatureListSize ||
	    l.SignatureSize <= sizeof(EFI_SIGNATURE_DATA))
		return false;
	body = l.SignatureListSize - sizeof(l) - l.SignatureHeaderSize;
	if (body % l.SignatureSize)
		return false;
	*n_sigs += body / l.SignatureSize;
	return ref_lists(p + l.SignatureListSize, n - l.SignatureListSize, n_sigs);
}

static bool ref_valid(const uint8_t *p, size_t n, bool pk)
{
	static const EFI_GUID pkcs7 = EFI_CERT_TYPE_PKCS7_GUID;
	EFI_VARIABLE_AUTHENTICATION_2 a;
	uint64_t n_sigs = 0;
	size_t cert;

	if (n < sizeof(a) || n > SB_AUTH_MAX)
		return false;
	memcpy(&a, p, sizeof(a));
	if (a.TimeStamp.Pad1 || a.TimeStamp.Nanosecond || a.TimeStamp.TimeZone || a.TimeStamp.Daylight ||
	    a.TimeStamp.Pad2)
		return false;
	if (a.AuthInfo.Hdr.wRevision != WIN_CERT_REVISION_2_0 ||
	    a.AuthInfo.Hdr.wCertificateType != WIN_CERT_TYPE_EFI_GUID ||
	    memcmp(&a.AuthInfo.CertType, &pkcs7, sizeof(pkcs7)) || a.AuthInfo.Hdr.dwLength < sizeof(a.AuthInfo) ||
	    a.AuthInfo.Hdr.dwLength > n - offsetof(EFI_VARIABLE_AUTHENTICATION_2, AuthInfo))
		return false;
	cert = a.AuthInfo.Hdr.dwLength - sizeof(a.AuthInfo);
	if ((cert && p[sizeof(a)] != 0x30) || (pk && !cert))
		return false;
	return ref_lists(p + sizeof(a) + cert, n - sizeof(a) - cert, &n_sigs) && n_sigs && (!pk || n_sigs == 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool pk;
	uint8_t *copy;
	bool ok;

	if (size == 0)
		return 0;
	pk = data[0] & 1;
	/* an exact-size copy, so that ASan sees any read past the end */
	copy = malloc(size - 1 ? size - 1 : 1);
	if (!copy)
		return 0;
	memcpy(copy, data + 1, size - 1);
	ok = sb_auth_check(copy, size - 1, "fuzz.auth", pk) == EFI_SUCCESS;
	if (ok != ref_valid(copy, size - 1, pk))
		__builtin_trap();
	free(copy);
	return 0;
}
