/* Authenticode signatures (pe_sig.h): the attribute certificate table of
 * PE/COFF spec §4.7 (WIN_CERTIFICATE {dwLength, wRevision,
 * wCertificateType}, each quadword aligned), found through data directory 4
 * (a file offset, never loaded). The checksum (optional header +64) and that
 * directory entry change when an image is signed; nothing else does but the
 * table appended at the end (sbsign pads the image to 8 bytes first). */
#include "pe_sig.h"
#include "tool.h"
#include "core/sha256.h"
#include <efi/sig_list.h>
#include <stdlib.h>
#include <string.h>

#define WIN_CERT_HEADER_SIZE sizeof(WIN_CERTIFICATE)
#define PE_SIGNATURE_SIZE 4
#define COFF_HEADER_SIZE 20
#define OPT_CHECKSUM 64
#define OPT_DIRS_PE32PLUS 112
#define OPT_DIRS_PE32 96
#define DIR_SECURITY_ENTRY (4 * 8)
#define SBSIGN_PAD 8

EFI_STATUS pe_cert_table_walk(const uint8_t *buf, const struct pe_info *pe, const char *name,
			      void (*fn)(const uint8_t *sig, size_t size, void *ctx), void *ctx)
{
	uint64_t off = pe->cert_offset, end = (uint64_t)pe->cert_offset + pe->cert_size;

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
		if (get_le16(buf + off + 6) == WIN_CERT_TYPE_PKCS_SIGNED_DATA && fn)
			fn(buf + off + WIN_CERT_HEADER_SIZE, length - WIN_CERT_HEADER_SIZE, ctx);
		off += ALIGN_UP((uint64_t)length, 8);
	}
	return EFI_SUCCESS;
}

static void note_signed(const uint8_t *sig, size_t size, void *ctx)
{
	*(bool *)ctx = true;
}

EFI_STATUS pe_cert_table_check(const uint8_t *buf, const struct pe_info *pe, const char *name, bool *ret_signed)
{
	*ret_signed = false;
	return pe_cert_table_walk(buf, pe, name, note_signed, ret_signed);
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

/* Hash [@from, @to) of @buf; false when the range is reversed. */
static bool hash_range(struct sha256_ctx *ctx, const uint8_t *buf, uint64_t from, uint64_t to)
{
	if (from > to)
		return false;
	sha256_update(ctx, buf + from, (size_t)(to - from));
	return true;
}

/* @pe's sections with file data, by PointerToRawData (insertion sort: at most PE_MAX_SECTIONS). */
static size_t sections_by_offset(const struct pe_info *pe, const struct pe_section **ret)
{
	size_t n = 0;

	for (size_t i = 0, j; i < pe->n_sections; i++) {
		if (!pe->sections[i].raw_size)
			continue;
		for (j = n++; j > 0 && ret[j - 1]->raw_offset > pe->sections[i].raw_offset; j--)
			ret[j] = ret[j - 1];
		ret[j] = &pe->sections[i];
	}
	return n;
}

bool pe_authenticode_sha256(const uint8_t *buf, size_t len, const struct pe_info *pe,
			    uint8_t ret[SHA256_DIGEST_SIZE])
{
	const struct pe_section *sorted[PE_MAX_SECTIONS];
	uint64_t data_end = len - (uint64_t)pe->cert_size, sum = pe->size_of_headers;
	struct sig_layout l;
	struct sha256_ctx ctx;
	size_t n;
	bool ok;

	if (!sig_layout(buf, len, &l) || pe->size_of_headers > data_end)
		return false;
	sha256_init(&ctx);
	ok = hash_range(&ctx, buf, 0, l.checksum) && hash_range(&ctx, buf, l.checksum + 4, l.dir) &&
	     hash_range(&ctx, buf, l.dir + 8, pe->size_of_headers);
	n = sections_by_offset(pe, sorted);
	for (size_t i = 0; ok && i < n; i++) {
		uint64_t end = (uint64_t)sorted[i]->raw_offset + sorted[i]->raw_size;

		ok = end <= data_end && hash_range(&ctx, buf, sorted[i]->raw_offset, end);
		sum += sorted[i]->raw_size;
	}
	/* what lies after the sections, up to the table (UEFI's image verification does the same) */
	if (ok && sum < data_end)
		ok = hash_range(&ctx, buf, sum, data_end);
	sha256_final(&ctx, ret);
	return ok;
}

/* One DER element at *@p (< @end): its tag and contents; *@p moves past it. */
static bool der_next(const uint8_t **p, const uint8_t *end, uint8_t *ret_tag, const uint8_t **ret_val,
		     size_t *ret_len)
{
	size_t left = (size_t)(end - *p), len, hdr = 2;

	if (left < 2 || ((*p)[0] & 0x1f) == 0x1f)
		return false; /* high tag numbers do not occur in what is read here */
	len = (*p)[1];
	if (len & 0x80) {
		size_t n = len & 0x7f;

		if (n == 0 || n > 4 || left < 2 + n)
			return false;
		len = 0;
		for (size_t i = 0; i < n; i++)
			len = len << 8 | (*p)[2 + i];
		hdr += n;
	}
	if (len > left - hdr)
		return false;
	*ret_tag = (*p)[0];
	*ret_val = *p + hdr;
	*ret_len = len;
	*p += hdr + len;
	return true;
}

#define DER_SEQUENCE 0x30
#define DER_OCTET_STRING 0x04
#define DER_OID 0x06

bool pe_spc_digest(const uint8_t *der, size_t len, struct pe_spc *ret)
{
	static const uint8_t sha256_oid[] = { 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04, 0x02, 0x01 };
	const uint8_t *p = der, *seq, *data, *dinfo, *alg, *oid, *digest;
	size_t seq_len, data_len, dinfo_len, alg_len, oid_len, digest_len;
	uint8_t tag[5];

	if (!der_next(&p, der + len, &tag[0], &seq, &seq_len) || tag[0] != DER_SEQUENCE)
		return false;
	p = seq;
	if (!der_next(&p, seq + seq_len, &tag[1], &data, &data_len) || tag[1] != DER_SEQUENCE ||
	    !der_next(&p, seq + seq_len, &tag[2], &dinfo, &dinfo_len) || tag[2] != DER_SEQUENCE)
		return false;
	p = dinfo;
	if (!der_next(&p, dinfo + dinfo_len, &tag[3], &alg, &alg_len) || tag[3] != DER_SEQUENCE ||
	    !der_next(&p, dinfo + dinfo_len, &tag[4], &digest, &digest_len) || tag[4] != DER_OCTET_STRING)
		return false;
	p = alg;
	if (!der_next(&p, alg + alg_len, &tag[0], &oid, &oid_len) || tag[0] != DER_OID)
		return false;
	*ret = (struct pe_spc){ .content = seq, .content_len = seq_len, .digest = digest, .digest_len = digest_len,
				.sha256 = oid_len == sizeof(sha256_oid) && memcmp(oid, sha256_oid, oid_len) == 0 };
	return true;
}

size_t pe_sig_strip(uint8_t *buf, size_t len)
{
	struct sig_layout l;

	if (!sig_layout(buf, len, &l))
		return len;
	memset(buf + l.dir, 0, 8);
	return l.end;
}
