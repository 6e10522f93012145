/* Signature lists and authenticated variable files (siglist.c): what PK,
 * KEK, db and dbx hold (EFI_SIGNATURE_LIST, UEFI 2.10 §32.4.1), the bytes
 * whose signature authenticates a SetVariable() of them (§8.2.2), and the
 * .auth files that carry both (an EFI_VARIABLE_AUTHENTICATION_2 descriptor,
 * then the new value), as systemd-boot's secure-boot-enroll reads them and
 * efitools' sign-efi-sig-list writes them. Pure: the host tool signs with
 * libcrypto, and tests compare bytes. */
#ifndef CORE_SIGLIST_H
#define CORE_SIGLIST_H

#include "platform.h"
#include <efi/sig_list.h>

/* Variables larger than this are refused (firmware stores hold far less). */
#define SIGLIST_MAX (1u << 20)

/* One EFI_SIGNATURE_DATA, its list's type with it. */
struct siglist_entry {
	EFI_GUID type;       /* EFI_CERT_X509_GUID, EFI_CERT_SHA256_GUID, ... */
	EFI_GUID owner;      /* SignatureOwner */
	const uint8_t *data; /* SignatureData (into the parsed buffer, or the caller's) */
	size_t size;
};

/**
 * siglist_parse() - the signatures of the EFI_SIGNATURE_LISTs in @buf (@len
 * bytes, @name in messages; an empty variable has none): each list's
 * SignatureListSize within the buffer and at least its header and
 * SignatureHeaderSize, SignatureSize more than the owner GUID, and the
 * signatures filling the rest exactly. *@ret is mem_alloc'd (NULL when
 * there are none), its entries point into @buf.
 * Return: EFI_SUCCESS, EFI_LOAD_ERROR (malformed, logged) or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS siglist_parse(const uint8_t *buf, size_t len, const char *name, struct siglist_entry **ret,
			 size_t *ret_n);

/**
 * siglist_build() - the EFI_SIGNATURE_LISTs holding @n entries in their
 * order: one list per X.509 certificate (as every tool writes them, since
 * their sizes differ), consecutive entries of another type and the same
 * size in one list. *@ret is mem_alloc'd.
 * Return: EFI_SUCCESS, EFI_INVALID_PARAMETER (more than SIGLIST_MAX bytes), or
 * EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS siglist_build(const struct siglist_entry *e, size_t n, uint8_t **ret, size_t *ret_len);

/**
 * siglist_auth_payload() - what the PKCS#7 signature of an authenticated
 * write covers (§8.2.2 step 2): the variable name @var (ASCII, written as
 * UTF-16LE without its NUL), @vendor, @attributes (LE32), @time (EFI_TIME,
 * 16 bytes) and the new value @data. *@ret is mem_alloc'd.
 * Return: EFI_SUCCESS, EFI_INVALID_PARAMETER (too large, or @var not
 * ASCII), or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS siglist_auth_payload(const char *var, const EFI_GUID *vendor, uint32_t attributes, const EFI_TIME *time,
				const uint8_t *data, size_t len, uint8_t **ret, size_t *ret_len);

/**
 * siglist_auth_build() - an .auth file: the EFI_VARIABLE_AUTHENTICATION_2
 * of @time and @pkcs7 (a DER SignedData, @pkcs7_len bytes; dwLength
 * covers the WIN_CERTIFICATE_UEFI_GUID and it), then @data.
 * Return: as siglist_build().
 */
EFI_STATUS siglist_auth_build(const EFI_TIME *time, const uint8_t *pkcs7, size_t pkcs7_len, const uint8_t *data,
			      size_t len, uint8_t **ret, size_t *ret_len);

/* An .auth file taken apart (pointers into it). */
struct siglist_auth {
	EFI_TIME time;
	const uint8_t *pkcs7;
	size_t pkcs7_len;
	const uint8_t *data; /* the new value: what follows the descriptor */
	size_t data_len;
};

/**
 * siglist_auth_parse() - @buf (@len bytes) as an .auth file: the 16-byte
 * EFI_TIME, a WIN_CERTIFICATE_UEFI_GUID of revision 2.0, type EFI_GUID and
 * CertType EFI_CERT_TYPE_PKCS7_GUID whose dwLength lies in the file, then
 * the data. Return: EFI_SUCCESS or EFI_LOAD_ERROR (logged with @name).
 */
EFI_STATUS siglist_auth_parse(const uint8_t *buf, size_t len, const char *name, struct siglist_auth *ret);

#endif
