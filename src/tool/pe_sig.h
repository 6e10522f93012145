/* Authenticode signatures of PE images (PE/COFF spec §4.7, the attribute
 * certificate table), as sbsign writes them: telling a signed image from an
 * unsigned one, and the same image signed or not. Pure (pe_sig.c): inspect,
 * install and update use it, tests/fuzz/fuzz_inspect.c fuzzes it. */
#ifndef TOOL_PE_SIG_H
#define TOOL_PE_SIG_H

#include "core/pe.h"

/**
 * pe_cert_table_check() - walk @pe's certificate table in @buf (pe_parse()
 * checked that it lies in the file): WIN_CERTIFICATE entries, quadword
 * aligned. *@ret_signed: one is WIN_CERT_TYPE_PKCS_SIGNED_DATA.
 * Return: EFI_SUCCESS, or EFI_LOAD_ERROR for an entry outside the table (logged).
 */
EFI_STATUS pe_cert_table_check(const uint8_t *buf, const struct pe_info *pe, const char *name, bool *ret_signed);

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

#endif
