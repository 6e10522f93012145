/* Headers no bigger than they need to be (pe_write.h): PE/COFF §3.4.2 defines
 * SizeOfHeaders as the MS-DOS stub, PE header and section headers rounded up
 * to FileAlignment; lld-link reserves a FileAlignment more, which a loader
 * file that nothing adds sections to carries for nothing. */
#include "pe_write.h"
#include "log.h"

#define DOS_HEADER_SIZE 0x40u   /* the MS-DOS header alone: e_lfanew at 0x3c */
#define OPT_SIZE_OF_HEADERS 60u /* the same in PE32 and PE32+ (§3.4.2) */
#define SEC_RAW_OFFSET 20u      /* PointerToRawData in a section header (§3.4) */
#define COFF_SYMTAB_PTR 8u

/* Headers inside SizeOfHeaders, inside the file and after the MS-DOS header;
 * section data in file order after them, nothing but zeros between the
 * section table and SizeOfHeaders, and no file offset this would have to
 * move: a certificate table, a debug directory, a COFF symbol table. */
static EFI_STATUS check_movable(const struct pe_info *pe, const uint8_t *buf, size_t len, const char *name,
				uint32_t table_end)
{
	uint32_t dirs = pe_opt_offset(pe) + (pe->magic == PE_OPT_MAGIC_PE32PLUS ? 112u : 96u), prev = 0;

	if (pe->pe_offset < DOS_HEADER_SIZE || table_end > pe->size_of_headers || pe->size_of_headers > len ||
	    pe->cert_size || get_le32(buf + pe->pe_offset + 4 + COFF_SYMTAB_PTR) ||
	    (pe->n_rva_and_sizes > PE_DIR_DEBUG && get_le32(buf + dirs + PE_DIR_DEBUG * 8 + 4)))
		return log_error_status(EFI_UNSUPPORTED,
					"%s: a certificate table, debug directory or symbol table, or headers out of "
					"place: not moving them",
					name);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];

		if (!s->raw_size)
			continue;
		if (s->raw_offset < MAX(pe->size_of_headers, prev))
			return log_error_status(EFI_UNSUPPORTED, "%s: section %s: raw data at %#x out of order", name,
						s->name, s->raw_offset);
		prev = s->raw_offset + s->raw_size;
	}
	for (uint32_t at = table_end; at < pe->size_of_headers; at++)
		if (buf[at])
			return log_error_status(EFI_UNSUPPORTED, "%s: byte %#x after the section table is not 0", name,
						at);
	return EFI_SUCCESS;
}

/* The headers moved to just after the MS-DOS header, section data @shift
 * bytes down; RVAs and everything in memory but the headers stay as they were. */
static void write_trimmed(uint8_t *out, const uint8_t *buf, size_t len, const struct pe_info *pe, uint32_t head_len,
			  uint32_t new_size, uint32_t shift)
{
	uint32_t opt = DOS_HEADER_SIZE + pe_opt_offset(pe) - pe->pe_offset;
	uint32_t table = DOS_HEADER_SIZE + pe->section_table_offset - pe->pe_offset;

	memcpy(out, buf, DOS_HEADER_SIZE);
	put_le32(out + 0x3c, DOS_HEADER_SIZE); /* e_lfanew: no MS-DOS program */
	memcpy(out + DOS_HEADER_SIZE, buf + pe->pe_offset, head_len);
	memset(out + DOS_HEADER_SIZE + head_len, 0, new_size - DOS_HEADER_SIZE - head_len);
	memcpy(out + new_size, buf + pe->size_of_headers, len - pe->size_of_headers);
	put_le32(out + opt + OPT_SIZE_OF_HEADERS, new_size);
	for (uint32_t i = 0; i < pe->n_sections; i++) /* every one with data (check_movable), empty ones too */
		if (pe->sections[i].raw_offset >= pe->size_of_headers)
			put_le32(out + table + i * PE_SECTION_HEADER_SIZE + SEC_RAW_OFFSET,
				 pe->sections[i].raw_offset - shift);
	if (pe->checksum)
		put_le32(out + opt + PE_OPT_CHECKSUM, pe_checksum(out, len - shift, opt + PE_OPT_CHECKSUM));
}

EFI_STATUS pe_trim_headers(const uint8_t *buf, size_t len, const char *name, uint8_t **ret, size_t *ret_len)
{
	struct pe_info pe;
	uint32_t table_end, head_len, new_size, shift;
	uint8_t *out;
	EFI_STATUS err = pe_parse(buf, len, name, &pe);

	if (EFI_ERROR(err))
		return err;
	table_end = pe.section_table_offset + pe.n_sections * PE_SECTION_HEADER_SIZE; /* pe_parse: inside the file */
	err = check_movable(&pe, buf, len, name, table_end);
	if (EFI_ERROR(err))
		return err;
	head_len = table_end - pe.pe_offset; /* the signature, COFF and optional headers, the section table */
	new_size = ALIGN_UP(DOS_HEADER_SIZE + head_len, pe.file_alignment);
	shift = new_size < pe.size_of_headers ? pe.size_of_headers - new_size : 0;
	out = mem_alloc(len - shift);
	if (!out)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: no memory for %zu bytes", name, len - shift);
	if (shift)
		write_trimmed(out, buf, len, &pe, head_len, new_size, shift);
	else
		memcpy(out, buf, len);
	*ret = out;
	*ret_len = len - shift;
	return EFI_SUCCESS;
}
