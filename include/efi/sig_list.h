/* SPDX-License-Identifier: MIT */
/*
 * Signature databases and authenticated variables: the EFI_SIGNATURE_LIST
 * that PK, KEK, db and dbx hold (UEFI 2.10 §32.4.1), and the
 * EFI_VARIABLE_AUTHENTICATION_2 descriptor that precedes the data of a
 * SetVariable() call with EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS
 * (§8.2.2), whose certificate is a WIN_CERTIFICATE_UEFI_GUID (§32.2.4).
 * Everything is packed little-endian; the structures end in variable parts.
 */
#ifndef EFI_SIG_LIST_H
#define EFI_SIG_LIST_H

#include <efi/efi.h>

/* SignatureType values (§32.4.1). */
#define EFI_CERT_SHA256_GUID \
	{ 0xc1c41626, 0x504c, 0x4092, { 0xac, 0xa9, 0x41, 0xf9, 0x36, 0x93, 0x43, 0x28 } }
#define EFI_CERT_X509_GUID \
	{ 0xa5c059a1, 0x94e4, 0x4aa7, { 0x87, 0xb5, 0xab, 0x15, 0x5c, 0x2b, 0xf0, 0x72 } }

/* WIN_CERTIFICATE_UEFI_GUID.CertType of a PKCS#7 SignedData (§32.2.4). */
#define EFI_CERT_TYPE_PKCS7_GUID \
	{ 0x4aafd29d, 0x68df, 0x49ee, { 0x8a, 0xa9, 0x34, 0x7d, 0x37, 0x56, 0x65, 0xa7 } }

/* The SignatureOwner Microsoft gives its entries in KEK, db and dbx (not a
 * UEFI value: Microsoft's "Windows Secure Boot Key Creation and Management
 * Guidance" lists it for the certificates it ships to OEMs). */
#define MICROSOFT_SIGNATURE_OWNER_GUID \
	{ 0x77fa9abd, 0x0359, 0x4d32, { 0xbd, 0x60, 0x28, 0xf4, 0xe7, 0x8f, 0x78, 0x4b } }

typedef struct {
	EFI_GUID SignatureType;
	UINT32 SignatureListSize;   /* this header, the SignatureHeader and every signature */
	UINT32 SignatureHeaderSize; /* 0 for the X.509 and SHA-256 types */
	UINT32 SignatureSize;       /* each EFI_SIGNATURE_DATA, SignatureOwner included */
	/* UINT8 SignatureHeader[SignatureHeaderSize]; EFI_SIGNATURE_DATA Signatures[]; */
} __attribute__((packed)) EFI_SIGNATURE_LIST;
_Static_assert(offsetof(EFI_SIGNATURE_LIST, SignatureListSize) == 16, "EFI_SIGNATURE_LIST.SignatureListSize");
_Static_assert(offsetof(EFI_SIGNATURE_LIST, SignatureSize) == 24, "EFI_SIGNATURE_LIST.SignatureSize");
_Static_assert(sizeof(EFI_SIGNATURE_LIST) == 28, "EFI_SIGNATURE_LIST size");

typedef struct {
	EFI_GUID SignatureOwner;
	UINT8 SignatureData[]; /* a DER certificate, a SHA-256 digest, ... */
} __attribute__((packed)) EFI_SIGNATURE_DATA;
_Static_assert(sizeof(EFI_SIGNATURE_DATA) == 16, "EFI_SIGNATURE_DATA header");

/* WIN_CERTIFICATE (§32.2.4; PE/COFF §4.7 uses the same header). */
#define WIN_CERT_REVISION_2_0 0x0200u
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002u
#define WIN_CERT_TYPE_EFI_GUID 0x0EF1u

typedef struct {
	UINT32 dwLength; /* of the whole certificate, this header included */
	UINT16 wRevision;
	UINT16 wCertificateType;
} __attribute__((packed)) WIN_CERTIFICATE;
_Static_assert(sizeof(WIN_CERTIFICATE) == 8, "WIN_CERTIFICATE size");

typedef struct {
	WIN_CERTIFICATE Hdr;
	EFI_GUID CertType;
	/* UINT8 CertData[]: a DER PKCS#7 SignedData for EFI_CERT_TYPE_PKCS7_GUID */
} __attribute__((packed)) WIN_CERTIFICATE_UEFI_GUID;
_Static_assert(offsetof(WIN_CERTIFICATE_UEFI_GUID, CertType) == 8, "WIN_CERTIFICATE_UEFI_GUID.CertType");
_Static_assert(sizeof(WIN_CERTIFICATE_UEFI_GUID) == 24, "WIN_CERTIFICATE_UEFI_GUID header");

typedef struct {
	EFI_TIME TimeStamp; /* Pad1, Nanosecond, TimeZone, Daylight and Pad2 are 0 */
	WIN_CERTIFICATE_UEFI_GUID AuthInfo;
} __attribute__((packed)) EFI_VARIABLE_AUTHENTICATION_2;
_Static_assert(offsetof(EFI_VARIABLE_AUTHENTICATION_2, AuthInfo) == 16, "EFI_VARIABLE_AUTHENTICATION_2.AuthInfo");
_Static_assert(sizeof(EFI_VARIABLE_AUTHENTICATION_2) == 40, "EFI_VARIABLE_AUTHENTICATION_2 header");

#endif /* EFI_SIG_LIST_H */
