/* Authenticode signatures of PE images (PE/COFF spec §4.7, the attribute
 * certificate table), as sbsign writes them: telling a signed image from an
 * unsigned one, and the same image signed or not. Pure (pe_sig.c): inspect,
 * install and update use it, tests/fuzz/fuzz_inspect.c fuzzes it. */
#ifndef TOOL_PE_SIG_H
#define TOOL_PE_SIG_H

#include "core/pe.h"
#include "core/sha256.h"

/**
 * pe_cert_table_check() - walk @pe's certificate table in @buf (pe_parse()
 * checked that it lies in the file): WIN_CERTIFICATE entries, quadword
 * aligned. *@ret_signed: one is WIN_CERT_TYPE_PKCS_SIGNED_DATA.
 * Return: EFI_SUCCESS, or EFI_LOAD_ERROR for an entry outside the table (logged).
 */
EFI_STATUS pe_cert_table_check(const uint8_t *buf, const struct pe_info *pe, const char *name, bool *ret_signed);

/**
 * pe_cert_table_walk() - pe_cert_table_check(), calling @fn with the bytes
 * of each WIN_CERT_TYPE_PKCS_SIGNED_DATA entry after its header (a DER
 * PKCS#7 ContentInfo, unchecked). Return: as pe_cert_table_check().
 */
EFI_STATUS pe_cert_table_walk(const uint8_t *buf, const struct pe_info *pe, const char *name,
			      void (*fn)(const uint8_t *sig, size_t size, void *ctx), void *ctx);

/**
 * pe_authenticode_sha256() - the SHA-256 Authenticode digest of @buf (@len
 * bytes, parsed as @pe), as UEFI's image verification computes it (UEFI
 * 2.10 §32.5.3, Authenticode "PE image hash"): the headers but for the
 * checksum and the certificate table's directory entry, the sections in file
 * order, then whatever follows up to the certificate table, which must end
 * the file. Return: false when the image does not allow it (then the digest
 * means nothing).
 */
bool pe_authenticode_sha256(const uint8_t *buf, size_t len, const struct pe_info *pe,
			    uint8_t ret[SHA256_DIGEST_SIZE]);

/* What an Authenticode signature signs: its SpcIndirectDataContent. */
struct pe_spc {
	const uint8_t *content; /* the SEQUENCE's contents octets: what the signer's digest covers */
	size_t content_len;
	const uint8_t *digest;  /* DigestInfo.digest: the image's digest */
	size_t digest_len;
	bool sha256;            /* DigestInfo.digestAlgorithm is SHA-256 */
};

/**
 * pe_spc_digest() - read the DER SpcIndirectDataContent @der (@len bytes):
 * SEQUENCE { SEQUENCE data, SEQUENCE DigestInfo { SEQUENCE { OID, ... },
 * OCTET STRING } } (Authenticode PE signature format). Every length is
 * checked against what contains it. Return: false when it is not one.
 */
bool pe_spc_digest(const uint8_t *der, size_t len, struct pe_spc *ret);

/**
 * pe_is_signed() - @buf (@len bytes) is a PE image with an Authenticode
 * signature. A malformed image is not signed (pe_parse() logs why).
 */
bool pe_is_signed(const uint8_t *buf, size_t len, const char *name);

/**
 * pe_same_image() - @a and @b hold the same image but for their signatures:
 * equal bytes apart from the checksum, the certificate table's directory
 * entry, the table itself (at the end of the file, as sbsign puts it) and
 * the zeros sbsign pads with before it (fewer than 8). So a loader signed
 * again, whose signature differs by its signing time, is still the same.
 */
bool pe_same_image(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen);

/**
 * pe_sig_strip() - remove @buf's signatures in place: the certificate
 * table's directory entry zeroed, the table (at the end of the file) cut.
 * Return: the image's new length (@len when it is no PE image or unsigned).
 */
size_t pe_sig_strip(uint8_t *buf, size_t len);

#endif
