/* Appending sections to a PE32+ image, as `objcopy --add-section` does for
 * UKIs but with the layout rules of the PE/COFF spec enforced: §3 (section
 * table: VirtualAddress ascending and SectionAlignment-aligned, raw data
 * FileAlignment-aligned), §3.4 (SizeOfImage, SizeOfHeaders, CheckSum). */
#include "pe_write.h"
#include "log.h"

/* Optional header (PE32+) field offsets, PE/COFF §3.4.1-§3.4.2. */
#define OPT_SIZE_OF_INIT_DATA 8u
#define OPT_SIZE_OF_IMAGE 56u
#define OPT_SIZE_OF_HEADERS 60u
#define OPT_DATA_DIRS 112u
/* COFF file header, §3.3. */
#define COFF_N_SECTIONS 2u
#define COFF_SYMTAB_PTR 8u
#define COFF_N_SYMBOLS 12u

struct add_plan {
	uint32_t table_end;       /* file offset just past the grown section table */
	uint32_t size_of_headers;
	uint32_t first_raw;       /* file offset of the first section data (or the file size) */
	uint32_t shift;           /* how far section data moves to make room (FileAlignment multiple) */
	uint32_t copy_len;        /* end of the last section's raw data in the input */
	uint32_t data_end;        /* where new raw data starts: moved old data's end, aligned */
	uint32_t va[PE_MAX_SECTIONS], raw[PE_MAX_SECTIONS], raw_size[PE_MAX_SECTIONS];
	uint32_t size_of_image;
	uint32_t out_len;
	uint32_t init_data_added;
};

/* Byte @i of the file as the checksum sees it: the CheckSum field reads as 0. */
static uint32_t checksum_byte(const uint8_t *buf, size_t len, size_t i, uint32_t checksum_offset)
{
	if (i >= len || (i >= checksum_offset && i - checksum_offset < 4))
		return 0;
	return buf[i];
}

uint32_t pe_checksum(const uint8_t *buf, size_t len, uint32_t checksum_offset)
{
	uint32_t sum = 0;

	for (size_t i = 0; i < len; i += 2) {
		uint32_t word = checksum_byte(buf, len, i, checksum_offset) |
				checksum_byte(buf, len, i + 1, checksum_offset) << 8;

		sum += word;
		sum = (sum & 0xffff) + (sum >> 16);
	}
	return (uint32_t)(sum + len);
}

static bool name_ok(const char *s)
{
	size_t n = 0;

	while (n < 9 && s[n])
		n++;
	return n >= 1 && n <= 8;
}

static EFI_STATUS check_new_sections(const struct pe_info *pe, const char *name, const struct pe_new_section *secs,
				     size_t n)
{
	if (n > PE_MAX_SECTIONS - pe->n_sections)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: %u sections + %zu new ones exceed %u", name,
					pe->n_sections, n, PE_MAX_SECTIONS);
	size_t range = 0; /* a UKI's profiles repeat names, each after its .profile (UAPI.5) */

	for (size_t i = 0; i < n; i++) {
		if (strcmp(secs[i].name, ".profile") == 0)
			range = i;
		if (!name_ok(secs[i].name))
			return log_error_status(EFI_INVALID_PARAMETER,
						"%s: new section %zu: name must be 1-8 characters", name, i);
		if (secs[i].size == 0 || secs[i].size > UINT32_MAX)
			return log_error_status(EFI_INVALID_PARAMETER,
						"%s: new section %s: size %zu is 0 or over 4 GiB", name, secs[i].name,
						secs[i].size);
		if (range == 0 && pe_find_section(pe, secs[i].name))
			return log_error_status(EFI_INVALID_PARAMETER, "%s: already has a %s section", name,
						secs[i].name);
		for (size_t j = range; j < i; j++)
			if (strcmp(secs[i].name, secs[j].name) == 0)
				return log_error_status(EFI_INVALID_PARAMETER, "%s: section %s given twice", name,
							secs[i].name);
	}
	return EFI_SUCCESS;
}

/* Section data may have to move to make room for the grown table (lld-link
 * rounds SizeOfHeaders up to FileAlignment and no further: a 3-section image
 * has no spare header byte). Moving raw data by a multiple of FileAlignment
 * keeps every RVA, so code and relocations are untouched; the only file
 * offsets outside the section table are the certificate table (dropped), the
 * COFF symbol table (dropped) and the debug directory's entries: refuse then. */
static EFI_STATUS plan_shift(const struct pe_info *pe, const uint8_t *buf, const char *name, size_t n,
			     struct add_plan *p)
{
	uint32_t opt = pe_opt_offset(pe);

	p->shift = 0;
	if (p->table_end <= p->first_raw)
		return EFI_SUCCESS;
	if (pe->n_rva_and_sizes > PE_DIR_DEBUG && get_le32(buf + opt + OPT_DATA_DIRS + PE_DIR_DEBUG * 8 + 4))
		return log_error_status(EFI_BUFFER_TOO_SMALL,
					"%s: no room for %zu more section headers before the data at %#x, and the "
					"debug directory pins the data there",
					name, n, p->first_raw);
	if (p->first_raw % pe->file_alignment)
		return log_error_status(EFI_BUFFER_TOO_SMALL,
					"%s: section data at %#x is not FileAlignment-aligned: cannot move it", name,
					p->first_raw);
	p->shift = ALIGN_UP(p->table_end - p->first_raw, pe->file_alignment);
	return EFI_SUCCESS;
}

/* A header byte the new table may take: zero, or part of an AArch64 NOP
 * (0xd503201f, A64 "HINT #0", little-endian at a 4-byte aligned offset) —
 * the fill GNU ld leaves before .text in systemd-stub for arm64 (Debian 12's
 * linuxaa64.efi.stub: NOPs from its 2-section table to SizeOfHeaders). */
static bool header_byte_free(const uint8_t *buf, uint32_t off)
{
	static const uint8_t nop[4] = { 0x1f, 0x20, 0x03, 0xd5 };

	return buf[off] == 0 || buf[off] == nop[off & 3];
}

/* The new headers overwrite [old table end, new table end): that must hold
 * nothing but fill (lld-link and GNU ld leave zero padding up to SizeOfHeaders;
 * Linux's PE masquerade does not: its setup header follows). */
static EFI_STATUS plan_headers(const struct pe_info *pe, const uint8_t *buf, size_t len, const char *name, size_t n,
			       struct add_plan *p)
{
	uint32_t old_end = pe->section_table_offset + pe->n_sections * PE_SECTION_HEADER_SIZE;
	uint64_t first_raw = len, raw_end = MAX(pe->size_of_headers, old_end);
	EFI_STATUS err;

	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		if (s->raw_size) {
			first_raw = MIN(first_raw, s->raw_offset);
			raw_end = MAX(raw_end, (uint64_t)s->raw_offset + s->raw_size);
		}
	}
	if (first_raw < old_end)
		return log_error_status(EFI_LOAD_ERROR,
					"%s: section data at %#llx overlaps the section table (ends at %#x)", name,
					(unsigned long long)first_raw, old_end);
	p->first_raw = (uint32_t)first_raw;
	p->table_end = old_end + (uint32_t)n * PE_SECTION_HEADER_SIZE;
	for (uint32_t off = old_end; off < MIN(p->table_end, p->first_raw); off++)
		if (!header_byte_free(buf, off))
			return log_error_status(
				EFI_BUFFER_TOO_SMALL,
				"%s: no room for %zu more section headers: header bytes at %#x are in use", name, n,
				off);
	err = plan_shift(pe, buf, name, n, p);
	if (EFI_ERROR(err))
		return err;
	p->size_of_headers = MAX(pe->size_of_headers, ALIGN_UP(p->table_end, pe->file_alignment));
	if (p->size_of_headers > (uint64_t)p->first_raw + p->shift)
		return log_error_status(EFI_BUFFER_TOO_SMALL, "%s: SizeOfHeaders %#x would overlap section data at %#x",
					name, p->size_of_headers, p->first_raw + p->shift);
	if (ALIGN_UP(raw_end + p->shift, (uint64_t)pe->file_alignment) > UINT32_MAX)
		return log_error_status(EFI_LOAD_ERROR, "%s: section data ends past 4 GiB", name);
	p->copy_len = (uint32_t)MIN(raw_end, (uint64_t)len);
	/* new data goes after the old data and after the grown headers */
	p->data_end = MAX((uint32_t)ALIGN_UP(raw_end + p->shift, (uint64_t)pe->file_alignment), p->size_of_headers);
	return EFI_SUCCESS;
}

static EFI_STATUS plan_sections(const struct pe_info *pe, const char *name, const struct pe_new_section *secs, size_t n,
				struct add_plan *p)
{
	uint64_t va = ALIGN_UP((uint64_t)pe->size_of_image, pe->section_alignment), raw = p->data_end;

	p->init_data_added = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t raw_size = ALIGN_UP((uint64_t)secs[i].size, pe->file_alignment);

		if (va + MAX(raw_size, secs[i].size) > UINT32_MAX || raw + raw_size > UINT32_MAX)
			return log_error_status(EFI_INVALID_PARAMETER, "%s: section %s does not fit below 4 GiB", name,
						secs[i].name);
		p->va[i] = (uint32_t)va;
		p->raw[i] = (uint32_t)raw;
		p->raw_size[i] = (uint32_t)raw_size;
		if (secs[i].characteristics & PE_SCN_CNT_INITIALIZED_DATA)
			p->init_data_added += (uint32_t)raw_size;
		raw += raw_size;
		va = ALIGN_UP(va + MAX(raw_size, secs[i].size), (uint64_t)pe->section_alignment);
	}
	if (va > UINT32_MAX)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: SizeOfImage would pass 4 GiB", name);
	p->size_of_image = (uint32_t)va;
	p->out_len = (uint32_t)raw;
	return EFI_SUCCESS;
}

static void write_section_header(uint8_t *h, const struct pe_new_section *s, uint32_t va, uint32_t raw,
				 uint32_t raw_size)
{
	memset(h, 0, PE_SECTION_HEADER_SIZE);
	memcpy(h, s->name, strlen(s->name));
	put_le32(h + 8, (uint32_t)s->size);
	put_le32(h + 12, va);
	put_le32(h + 16, raw_size);
	put_le32(h + 20, raw);
	put_le32(h + 36, s->characteristics);
}

/* Headers as they are, section data moved by p->shift, raw pointers updated. */
static void copy_moved(uint8_t *out, const uint8_t *in, const struct pe_info *pe, const struct add_plan *p)
{
	uint32_t head = MIN(p->first_raw, p->copy_len);

	memcpy(out, in, head);
	memcpy(out + head + p->shift, in + head, p->copy_len - head);
	if (p->shift == 0)
		return;
	for (uint32_t i = 0; i < pe->n_sections; i++)
		if (pe->sections[i].raw_size)
			put_le32(out + pe->section_table_offset + i * PE_SECTION_HEADER_SIZE + 20,
				 pe->sections[i].raw_offset + p->shift);
}

/* Header fields that change; the cert table and COFF symbols past the data are dropped. */
static void write_headers(uint8_t *out, const struct pe_info *pe, const struct add_plan *p, size_t n)
{
	uint8_t *coff = out + pe->pe_offset + 4, *opt = out + pe_opt_offset(pe);
	uint32_t symtab = get_le32(coff + COFF_SYMTAB_PTR);

	put_le16(coff + COFF_N_SECTIONS, (uint16_t)(pe->n_sections + n));
	if (symtab >= p->copy_len) {
		put_le32(coff + COFF_SYMTAB_PTR, 0);
		put_le32(coff + COFF_N_SYMBOLS, 0);
	} else if (symtab >= p->first_raw) {
		put_le32(coff + COFF_SYMTAB_PTR, symtab + p->shift);
	}
	put_le32(opt + OPT_SIZE_OF_INIT_DATA, get_le32(opt + OPT_SIZE_OF_INIT_DATA) + p->init_data_added);
	put_le32(opt + OPT_SIZE_OF_IMAGE, p->size_of_image);
	put_le32(opt + OPT_SIZE_OF_HEADERS, p->size_of_headers);
	if (pe->n_rva_and_sizes > PE_DIR_SECURITY)
		memset(opt + OPT_DATA_DIRS + PE_DIR_SECURITY * 8, 0, 8);
}

EFI_STATUS pe_add_sections(const uint8_t *pe, size_t len, const char *name, const struct pe_new_section *secs, size_t n,
			   uint8_t **ret, size_t *ret_len)
{
	_cleanup_free_ struct add_plan *p = NULL;
	_cleanup_free_ struct pe_info *info = NULL;
	uint8_t *out;
	EFI_STATUS err;

	p = mem_zalloc(sizeof(*p));
	info = mem_alloc(sizeof(*info));
	if (!p || !info)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	err = pe_parse(pe, len, name, info);
	if (err == EFI_UNSUPPORTED)
		return log_error_status(err, "%s: not a PE/COFF image (no MZ/PE signature)", name);
	if (EFI_ERROR(err))
		return err;
	err = check_new_sections(info, name, secs, n);
	if (!EFI_ERROR(err))
		err = plan_headers(info, pe, len, name, n, p);
	if (!EFI_ERROR(err))
		err = plan_sections(info, name, secs, n, p);
	if (EFI_ERROR(err))
		return err;
	out = mem_zalloc(p->out_len);
	if (!out)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory for %u bytes of output", name,
					p->out_len);
	copy_moved(out, pe, info, p);
	for (size_t i = 0; i < n; i++) {
		write_section_header(out + p->table_end - (n - i) * PE_SECTION_HEADER_SIZE, &secs[i], p->va[i],
				     p->raw[i], p->raw_size[i]);
		memcpy(out + p->raw[i], secs[i].data, secs[i].size);
	}
	write_headers(out, info, p, n);
	put_le32(out + pe_opt_offset(info) + PE_OPT_CHECKSUM,
		 pe_checksum(out, p->out_len, pe_opt_offset(info) + PE_OPT_CHECKSUM));
	*ret = out;
	*ret_len = p->out_len;
	return EFI_SUCCESS;
}
