/* PE/COFF writer: append sections to an existing PE32+ image (the stub) and
 * recompute its checksum. Used by `handoff uki`; pure, output built in memory.
 * PE/COFF spec §3 (section table), §3.4 (optional header), §4.7 (attribute
 * certificate table). */
#ifndef CORE_PE_WRITE_H
#define CORE_PE_WRITE_H

#include "pe.h"

#define PE_SECTION_HEADER_SIZE 40u
#define PE_COFF_HEADER_SIZE 20u
#define PE_OPT_CHECKSUM 64u          /* offset of CheckSum in the optional header */
#define PE_DIR_SECURITY 4u           /* data directory: attribute certificate table */
#define PE_DIR_BASERELOC 5u
#define PE_DIR_DEBUG 6u             /* its entries hold file offsets */

struct pe_new_section {
	char name[9];                 /* 1..8 characters, NUL-terminated */
	const uint8_t *data;
	size_t size;                  /* > 0; becomes VirtualSize, exactly */
	uint32_t characteristics;     /* e.g. PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ */
};

/**
 * pe_add_sections() - a copy of the PE32+ image @pe with @n sections appended.
 * @pe, @len: the input image (file layout); @name: used in messages.
 * @secs, @n: the new sections, in order. Names must not repeat one another nor
 * a section of @pe.
 *
 * Each new section starts at the next SectionAlignment boundary after the
 * previous one (the first after SizeOfImage), its raw data at the next
 * FileAlignment boundary after the previous raw data, SizeOfRawData rounded
 * up to FileAlignment and VirtualSize exact. The section table grows in place
 * into the zero padding after it (non-zero bytes there: EFI_BUFFER_TOO_SMALL,
 * as for Linux's PE masquerade, whose setup header follows the table); when
 * the padding ends before the table does, all section data moves up by a
 * multiple of FileAlignment (RVAs unchanged), unless a debug directory holds
 * file offsets into it (EFI_BUFFER_TOO_SMALL). Bytes past the last
 * section (an attribute certificate table, a COFF symbol table) are dropped and
 * their header fields cleared: the output is to be signed again. SizeOfImage,
 * SizeOfHeaders, SizeOfInitializedData and CheckSum are recomputed.
 *
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd, caller frees) and *@ret_len;
 * EFI_LOAD_ERROR / EFI_UNSUPPORTED for an unusable input, EFI_INVALID_PARAMETER
 * for bad sections, EFI_BUFFER_TOO_SMALL when the table cannot grow,
 * EFI_OUT_OF_RESOURCES. The reason is logged once.
 */
EFI_STATUS pe_add_sections(const uint8_t *pe, size_t len, const char *name, const struct pe_new_section *secs, size_t n,
			   uint8_t **ret, size_t *ret_len);

/**
 * pe_checksum() - the PE image checksum (the algorithm of imagehlp's
 * CheckSumMappedFile): 16-bit little-endian words summed with end-around
 * carry, the 4 bytes at @checksum_offset counted as zero, an odd last byte
 * taken as a word of its own, then the file length added.
 * Return: the value for the optional header's CheckSum field.
 */
uint32_t pe_checksum(const uint8_t *buf, size_t len, uint32_t checksum_offset);

/**
 * pe_trim_headers() - a copy of the PE file @pe (@len bytes, named @name in
 * messages) whose headers take the file space they need and no more: the PE
 * header moved to 0x40, just after the MS-DOS header (no MS-DOS program),
 * SizeOfHeaders their end rounded up to FileAlignment (PE/COFF §3.4.2), the
 * section data moved down by what that saves and PointerToRawData with it,
 * CheckSum recomputed if set. The loaded image is the same but for header
 * bytes. For files no section will be added to: no room is left for one
 * (the stub keeps its room for UKIs). A file whose headers need all their
 * room comes back as it was.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len; EFI_LOAD_ERROR
 * for an unusable PE, EFI_UNSUPPORTED for a certificate table, debug
 * directory or COFF symbol table (file offsets this does not move), section
 * data out of order, or bytes after the section table that are not 0;
 * EFI_OUT_OF_RESOURCES. Logged.
 */
EFI_STATUS pe_trim_headers(const uint8_t *pe, size_t len, const char *name, uint8_t **ret, size_t *ret_len);

/** pe_opt_offset() - file offset of the optional header of a parsed image. */
static inline uint32_t pe_opt_offset(const struct pe_info *pe)
{
	return pe->pe_offset + 4 + PE_COFF_HEADER_SIZE;
}

#endif
