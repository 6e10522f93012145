/* Authenticode signatures (pe_sig.h): the attribute certificate table of
 * PE/COFF spec §4.7 (WIN_CERTIFICATE {dwLength, wRevision,
 * wCertificateType}, each quadword aligned), found through data directory 4
 * (a file offset, never loaded). The checksum (optional header +64) and that
 * directory entry change when an image is signed; nothing else does but the
 * table appended at the end (sbsign pads the image to 8 bytes first). */
#include "pe_sig.h"
#include "tool.h"
#include <stdlib.h>
#include <string.h>

#define WIN_CERT_HEADER_SIZE 8
#define WIN_CERT_TYPE_PKCS_SIGNED_DATA 0x0002u
#define PE_SIGNATURE_SIZE 4
#define COFF_HEADER_SIZE 20
#define OPT_CHECKSUM 64
#define OPT_DIRS_PE32PLUS 112
#define OPT_DIRS_PE32 96
#define DIR_SECURITY_ENTRY (4 * 8)
#define SBSIGN_PAD 8

EFI_STATUS pe_cert_table_check(const uint8_t *buf, const struct pe_info *pe, const char *name, bool *ret_signed)
{
	uint64_t off = pe->cert_offset, end = (uint64_t)pe->cert_offset + pe->cert_size;

	*ret_signed = false;
	while (pe->cert_size && off < end) {
		uint32_t length;

		if (end - off < WIN_CERT_HEADER_SIZE)
			return log_error_status(EFI_LOAD_ERROR, "%s: certificate table: %llu stray bytes at %#llx",
						name, (unsigned long long)(end - off), (unsigned long long)off);
		length = get_le32(buf + off);
		if (length < WIN_CERT_HEADER_SIZE || length > end - off)
			return log_error_status(
				EFI_LOAD_ERROR,
				"%s: certificate table: entry at %#llx has dwLength %u, outside the table (%#x+%#x)",
				name, (unsigned long long)off, length, pe->cert_offset, pe->cert_size);
		if (get_le16(buf + off + 6) == WIN_CERT_TYPE_PKCS_SIGNED_DATA)
			*ret_signed = true;
		off += ALIGN_UP((uint64_t)length, 8);
	}
	return EFI_SUCCESS;
}

bool pe_is_signed(const uint8_t *buf, size_t len, const char *name)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	bool is_signed = false;

	if (pe_parse(buf, len, name, pe) != EFI_SUCCESS ||
	    pe_cert_table_check(buf, pe, name, &is_signed) != EFI_SUCCESS)
		is_signed = false;
	free(pe);
	return is_signed;
}

/* Where the image's own bytes end (the table, if any, must end the file) and
 * where the two fields signing changes are. False: not a PE image we compare. */
struct sig_layout {
	size_t end, checksum, dir;
};

static bool sig_layout(const uint8_t *buf, size_t len, struct sig_layout *ret)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	bool ok = pe_parse(buf, len, "image", pe) == EFI_SUCCESS && pe->n_rva_and_sizes > 4 &&
		  (!pe->cert_size || (uint64_t)pe->cert_offset + pe->cert_size == len);

	if (ok) {
		size_t opt = (size_t)pe->pe_offset + PE_SIGNATURE_SIZE + COFF_HEADER_SIZE;

		ret->end = pe->cert_size ? pe->cert_offset : len;
		ret->checksum = opt + OPT_CHECKSUM;
		ret->dir = opt + (pe->magic == PE_OPT_MAGIC_PE32 ? OPT_DIRS_PE32 : OPT_DIRS_PE32PLUS) +
			   DIR_SECURITY_ENTRY;
		ok = ret->dir + 8 <= ret->end; /* the headers lie before any table */
	}
	free(pe);
	return ok;
}

static bool masked(size_t i, const struct sig_layout *l)
{
	return (i >= l->checksum && i < l->checksum + 4) || (i >= l->dir && i < l->dir + 8);
}

bool pe_same_image(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
	struct sig_layout la, lb;
	size_t n;

	if (!sig_layout(a, alen, &la) || !sig_layout(b, blen, &lb) || la.checksum != lb.checksum || la.dir != lb.dir)
		return false;
	n = MIN(la.end, lb.end);
	if (MAX(la.end, lb.end) - n >= SBSIGN_PAD)
		return false;
	for (size_t i = n; i < la.end; i++)
		if (a[i])
			return false;
	for (size_t i = n; i < lb.end; i++)
		if (b[i])
			return false;
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i] && !masked(i, &la))
			return false;
	return true;
}
