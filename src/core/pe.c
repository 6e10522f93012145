/* PE/COFF reader. Every structure is bounds-checked against the file before
 * it is read; sizes are checked for overflow (PE/COFF spec §3, §4; the
 * optional header of a PE32+ image is at least 112 bytes before the data
 * directories, that of a PE32 (IA-32) image 96: its ImageBase is 32 bits and
 * it has a BaseOfData field; every other field sits at the same offset). */
#include "pe.h"
#include "log.h"

#define MZ_PE_OFFSET 0x3c
#define COFF_HEADER_SIZE 20
#define PE32PLUS_OPT_MIN 112
#define PE32_OPT_MIN 96
#define RELOC_BLOCK_HEADER 8
#define RELOC_TYPE_ABSOLUTE 0
#define RELOC_TYPE_HIGHLOW 3
#define RELOC_TYPE_DIR64 10
#define COMPAT_TYPE_END 0
#define COMPAT_TYPE_ENTRY 1
#define COMPAT_ENTRY_SIZE 8
#define SECTION_HEADER_SIZE 40
#define DIR_SECURITY 4
#define DIR_BASERELOC 5

static EFI_STATUS pe_read_optional(const uint8_t *opt, uint16_t opt_size, const char *name, struct pe_info *pe)
{
	bool pe32;
	uint32_t dirs;

	pe->magic = get_le16(opt);
	if (pe->magic != PE_OPT_MAGIC_PE32PLUS && pe->magic != PE_OPT_MAGIC_PE32)
		return log_error_status(EFI_LOAD_ERROR,
					"%s: optional header magic %#x is neither PE32+ (0x20b) nor PE32 (0x10b)", name,
					pe->magic);
	pe32 = pe->magic == PE_OPT_MAGIC_PE32;
	dirs = pe32 ? PE32_OPT_MIN : PE32PLUS_OPT_MIN;
	if (opt_size < dirs)
		return log_error_status(EFI_LOAD_ERROR, "%s: optional header of %u bytes is too short", name, opt_size);
	pe->entry_point = get_le32(opt + 16);
	pe->image_base = pe32 ? get_le32(opt + 28) : get_le64(opt + 24);
	pe->section_alignment = get_le32(opt + 32);
	pe->file_alignment = get_le32(opt + 36);
	pe->size_of_image = get_le32(opt + 56);
	pe->size_of_headers = get_le32(opt + 60);
	pe->checksum = get_le32(opt + 64);
	pe->subsystem = get_le16(opt + 68);
	pe->dll_characteristics = get_le16(opt + 70);
	pe->n_rva_and_sizes = get_le32(opt + dirs - 4);
	if (pe->n_rva_and_sizes > (uint32_t)(opt_size - dirs) / 8)
		return log_error_status(EFI_LOAD_ERROR, "%s: %u data directories do not fit the optional header", name,
					pe->n_rva_and_sizes);
	if (pe->n_rva_and_sizes > DIR_SECURITY) {
		pe->cert_offset = get_le32(opt + dirs + DIR_SECURITY * 8);
		pe->cert_size = get_le32(opt + dirs + DIR_SECURITY * 8 + 4);
	}
	if (pe->n_rva_and_sizes > DIR_BASERELOC) {
		pe->reloc_rva = get_le32(opt + dirs + DIR_BASERELOC * 8);
		pe->reloc_size = get_le32(opt + dirs + DIR_BASERELOC * 8 + 4);
	}
	return EFI_SUCCESS;
}

/* VirtualSize is the exact payload size, SizeOfRawData is rounded up to
 * FileAlignment; a VirtualSize of 0 means "same as raw" for some linkers. */
static size_t pe_section_init_size(const struct pe_section *s)
{
	return s->virtual_size ? MIN(s->virtual_size, s->raw_size) : s->raw_size;
}

/* In a file, a section's initialized bytes are at PointerToRawData; once the
 * firmware has loaded the image they are at VirtualAddress (PE/COFF §3.1), and
 * @len is the firmware's ImageSize, which need not reach SizeOfImage: U-Boot
 * counts to the end of the last section, not rounded up to SectionAlignment. */
static EFI_STATUS pe_check_section(const struct pe_section *s, uint32_t i, uint64_t len, enum pe_layout layout,
				   const char *name, const struct pe_info *pe)
{
	if (layout == PE_LAYOUT_FILE && s->raw_size && !range_ok(s->raw_offset, s->raw_size, len))
		return log_error_status(EFI_LOAD_ERROR,
					"%s: section %u (%s) raw data %#x+%#x lies outside the file (%llu bytes)", name,
					i, s->name, s->raw_offset, s->raw_size, (unsigned long long)len);
	if (layout == PE_LAYOUT_MEMORY && !range_ok(s->virtual_address, pe_section_init_size(s), len))
		return log_error_status(EFI_LOAD_ERROR,
					"%s: section %u (%s) %#x+%#zx lies outside the loaded image (%llu bytes)",
					name, i, s->name, s->virtual_address, pe_section_init_size(s),
					(unsigned long long)len);
	if ((uint64_t)s->virtual_address + MAX(s->virtual_size, s->raw_size) > pe->size_of_image)
		return log_error_status(EFI_LOAD_ERROR, "%s: section %u (%s) ends past SizeOfImage %#x",
					name, i, s->name, pe->size_of_image);
	return EFI_SUCCESS;
}

static EFI_STATUS pe_read_sections(const uint8_t *buf, uint64_t len, size_t off, enum pe_layout layout,
				   const char *name, struct pe_info *pe)
{
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *h = buf + off + (size_t)i * SECTION_HEADER_SIZE;
		struct pe_section *s = &pe->sections[i];
		EFI_STATUS err;

		memcpy(s->name, h, 8);
		s->name[8] = '\0';
		s->virtual_size = get_le32(h + 8);
		s->virtual_address = get_le32(h + 12);
		s->raw_size = get_le32(h + 16);
		s->raw_offset = get_le32(h + 20);
		s->characteristics = get_le32(h + 36);
		err = pe_check_section(s, i, len, layout, name, pe);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS pe_check_alignment(const char *name, const struct pe_info *pe)
{
	/* PE/COFF §3.4.1: both alignments are powers of two; the writer and the
	 * loaders round with them, so a bad value must not get further. */
	if (!IS_POWER_OF_2(pe->section_alignment) || !IS_POWER_OF_2(pe->file_alignment))
		return log_error_status(EFI_LOAD_ERROR,
					"%s: SectionAlignment %#x / FileAlignment %#x is not a power of two", name,
					pe->section_alignment, pe->file_alignment);
	return EFI_SUCCESS;
}

uint32_t pe_compat_entry(const uint8_t *data, size_t size, uint16_t machine)
{
	for (size_t off = 0; off + 2 <= size;) {
		uint8_t type = data[off], rec = data[off + 1];

		if (type == COMPAT_TYPE_END || rec == 0 || rec > size - off)
			break;
		if (type == COMPAT_TYPE_ENTRY && rec >= COMPAT_ENTRY_SIZE && get_le16(data + off + 2) == machine)
			return get_le32(data + off + 4);
		off += rec;
	}
	return 0;
}

static EFI_STATUS pe_fixup(uint8_t *image, size_t image_size, uint64_t target, unsigned type, uint64_t delta,
			   const char *name)
{
	size_t width = type == RELOC_TYPE_DIR64 ? 8 : 4;

	if (type != RELOC_TYPE_DIR64 && type != RELOC_TYPE_HIGHLOW)
		return log_error_status(EFI_UNSUPPORTED, "%s: base relocation type %u at RVA %#llx", name, type,
					(unsigned long long)target);
	if (!range_ok(target, width, image_size))
		return log_error_status(EFI_LOAD_ERROR, "%s: base relocation at RVA %#llx outside the image", name,
					(unsigned long long)target);
	if (width == 8)
		put_le64(image + target, get_le64(image + target) + delta);
	else
		put_le32(image + target, get_le32(image + target) + (uint32_t)delta);
	return EFI_SUCCESS;
}

EFI_STATUS pe_relocate(uint8_t *image, size_t image_size, const struct pe_info *pe, uint64_t delta, const char *name)
{
	const uint32_t dir = pe->reloc_rva, dir_size = pe->reloc_size;

	if (dir_size == 0)
		return EFI_SUCCESS;
	if (!range_ok(dir, dir_size, image_size))
		return log_error_status(EFI_LOAD_ERROR, "%s: base relocation directory %#x+%#x outside the image", name,
					dir, dir_size);
	/* blocks of {u32 page RVA, u32 block size, u16 entries}, each entry
	 * the type in its top four bits and the offset in the page below */
	for (uint32_t b = 0; b + RELOC_BLOCK_HEADER <= dir_size;) {
		uint32_t page = get_le32(image + dir + b), size = get_le32(image + dir + b + 4);

		if (size < RELOC_BLOCK_HEADER || size > dir_size - b)
			return log_error_status(EFI_LOAD_ERROR, "%s: base relocation block at %#x has size %#x", name,
						dir + b, size);
		for (uint32_t e = b + RELOC_BLOCK_HEADER; e + 2 <= b + size; e += 2) {
			uint16_t v = get_le16(image + dir + e);
			EFI_STATUS err;

			if (v >> 12 == RELOC_TYPE_ABSOLUTE)
				continue;
			err = pe_fixup(image, image_size, (uint64_t)page + (v & 0xfffu), v >> 12, delta, name);
			if (EFI_ERROR(err))
				return err;
		}
		b += size;
	}
	return EFI_SUCCESS;
}

/* The IA-32 entry of a kernel built with CONFIG_EFI_MIXED, when the
 * ".compat" section's bytes are among the @len parsed. */
static void pe_read_compat(const uint8_t *buf, size_t len, enum pe_layout layout, struct pe_info *pe)
{
	const struct pe_section *s = pe_find_section(pe, ".compat");
	const uint8_t *data;
	size_t size;

	if (s && (data = pe_section_data(s, buf, len, layout, &size)))
		pe->compat_entry_ia32 = pe_compat_entry(data, size, PE_MACHINE_I386);
}

/* @len bounds every header read; @extent (file size or SizeOfImage bound)
 * bounds the section and certificate ranges, which need not be in @buf. */
static EFI_STATUS pe_parse_layout(const uint8_t *buf, size_t len, uint64_t extent, enum pe_layout layout,
				  const char *name, struct pe_info *ret)
{
	struct pe_info pe;
	size_t coff, opt, sec;
	uint16_t opt_size;
	EFI_STATUS err;

	memset(&pe, 0, sizeof(pe));
	if (len < MZ_PE_OFFSET + 4 || buf[0] != 'M' || buf[1] != 'Z')
		return EFI_UNSUPPORTED;
	pe.pe_offset = get_le32(buf + MZ_PE_OFFSET);
	if (!range_ok(pe.pe_offset, 4 + COFF_HEADER_SIZE, len) || memcmp(buf + pe.pe_offset, "PE\0\0", 4) != 0)
		return EFI_UNSUPPORTED;
	coff = pe.pe_offset + 4;
	pe.machine = get_le16(buf + coff);
	pe.n_sections = get_le16(buf + coff + 2);
	opt_size = get_le16(buf + coff + 16);
	opt = coff + COFF_HEADER_SIZE;
	if (pe.n_sections > PE_MAX_SECTIONS)
		return log_error_status(EFI_LOAD_ERROR, "%s: %u sections, handoff reads at most %u", name,
					pe.n_sections, PE_MAX_SECTIONS);
	if (!range_ok(opt, opt_size, len) || opt_size < 2)
		return log_error_status(EFI_LOAD_ERROR, "%s: optional header (%u bytes at %#zx) lies outside the file",
					name, opt_size, opt);
	err = pe_read_optional(buf + opt, opt_size, name, &pe);
	if (EFI_ERROR(err))
		return err;
	err = pe_check_alignment(name, &pe);
	if (EFI_ERROR(err))
		return err;
	sec = opt + opt_size;
	if (!range_ok(sec, (uint64_t)pe.n_sections * SECTION_HEADER_SIZE, len))
		return log_error_status(EFI_LOAD_ERROR, "%s: section table (%u entries) lies outside the file", name,
					pe.n_sections);
	pe.section_table_offset = (uint32_t)sec;
	/* The certificate table is a file offset and is not loaded (§4.7). */
	if (layout == PE_LAYOUT_FILE && pe.cert_size && !range_ok(pe.cert_offset, pe.cert_size, extent))
		return log_error_status(EFI_LOAD_ERROR, "%s: certificate table %#x+%#x lies outside the file", name,
					pe.cert_offset, pe.cert_size);
	err = pe_read_sections(buf, extent, sec, layout, name, &pe);
	if (EFI_ERROR(err))
		return err;
	pe_read_compat(buf, len, layout, &pe);
	memcpy(ret, &pe, sizeof(pe));
	return EFI_SUCCESS;
}

EFI_STATUS pe_parse(const uint8_t *buf, size_t len, const char *name, struct pe_info *ret)
{
	return pe_parse_layout(buf, len, len, PE_LAYOUT_FILE, name, ret);
}

EFI_STATUS pe_parse_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			 struct pe_info *ret)
{
	return pe_parse_layout(head, MIN((uint64_t)head_len, file_size), file_size, PE_LAYOUT_FILE, name, ret);
}

EFI_STATUS pe_parse_loaded(const uint8_t *base, size_t image_size, const char *name, struct pe_info *ret)
{
	return pe_parse_layout(base, image_size, image_size, PE_LAYOUT_MEMORY, name, ret);
}

const uint8_t *pe_section_data(const struct pe_section *s, const uint8_t *buf, size_t len, enum pe_layout layout,
			       size_t *ret_size)
{
	size_t size = pe_section_init_size(s);
	uint64_t off = layout == PE_LAYOUT_FILE ? s->raw_offset : s->virtual_address;

	if (!range_ok(off, size, len))
		return NULL;
	*ret_size = size;
	return buf + off;
}

const struct pe_section *pe_find_section(const struct pe_info *pe, const char *name)
{
	for (uint32_t i = 0; i < pe->n_sections; i++)
		if (strncmp(pe->sections[i].name, name, 8) == 0 && strlen(name) <= 8)
			return &pe->sections[i];
	return NULL;
}

bool pe_is_efi_app(const struct pe_info *pe, uint16_t machine)
{
	return pe->machine == machine && pe->subsystem == PE_SUBSYSTEM_EFI_APPLICATION && pe->entry_point != 0;
}

bool pe_is_efi_app_x64(const struct pe_info *pe)
{
	return pe_is_efi_app(pe, PE_MACHINE_X64);
}
