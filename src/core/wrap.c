/* `handoff wrap`: a bzImage whose boot sector holds the PE headers of handoff's
 * stub (layout in wrap.h). PE/COFF §3 for the headers; boot.rst for what of
 * the bzImage must stay put (everything from the setup header at 0x1f1). */
#include "wrap.h"
#include "log.h"
#include "pe_write.h"
#include "uki.h"

#define OPT_PE32PLUS_FIXED 112u  /* optional header before the data directories */
#define OPT_SIZE_OF_INIT_DATA 8u
#define OPT_SIZE_OF_IMAGE 56u
#define OPT_SIZE_OF_HEADERS 60u
#define OPT_N_RVA_AND_SIZES 108u
#define COMPAT_RECORD_SIZE 8u     /* Linux arch/x86/boot/header.S: type, size, machine, entry */
#define COMPAT_TYPE_ENTRY 1u

struct wrap_plan {
	uint32_t n_dirs, opt_size, table, n_sections;
	uint32_t size_of_headers;    /* S */
	uint32_t kernel_end;
	uint32_t bz_va, bz_raw_size, bz_vsize;
	uint32_t stub_raw[PE_MAX_SECTIONS];
	uint32_t compat_entry;       /* offset into the protected-mode kernel, 0: no .compat */
	uint32_t compat_va, compat_raw;
	uint32_t size_of_image, out_len;
};

/* Keep every data directory the stub uses (the certificate table excepted:
 * the output is signed again), and at least through the relocations. */
static uint32_t wrap_n_dirs(const uint8_t *stub, const struct pe_info *pe)
{
	uint32_t n = WRAP_MIN_DATA_DIRS;

	for (uint32_t i = 0; i < pe->n_rva_and_sizes; i++) {
		const uint8_t *d = stub + pe_opt_offset(pe) + OPT_PE32PLUS_FIXED + i * 8;
		if (i != PE_DIR_SECURITY && (get_le32(d) || get_le32(d + 4)))
			n = MAX(n, i + 1);
	}
	return n;
}

static EFI_STATUS wrap_plan_headers(const uint8_t *stub, const struct pe_info *pe, const struct bz_info *bz,
				    const char *name, struct wrap_plan *p)
{
	uint32_t table_end;

	p->n_dirs = wrap_n_dirs(stub, pe);
	p->opt_size = OPT_PE32PLUS_FIXED + p->n_dirs * 8;
	p->table = WRAP_PE_OFFSET + 4 + PE_COFF_HEADER_SIZE + p->opt_size;
	p->n_sections = pe->n_sections + 1 + (p->compat_entry ? 1 : 0);
	table_end = p->table + p->n_sections * PE_SECTION_HEADER_SIZE;
	if (table_end > SETUP_HEADER_OFFSET)
		return log_error_status(EFI_BUFFER_TOO_SMALL,
					"%s: the stub's %u sections + %s%s and %u data directories need headers up to "
					"%#x, past the setup header at %#x",
					name, pe->n_sections, WRAP_SECTION,
					p->compat_entry ? " + " WRAP_COMPAT_SECTION : "", p->n_dirs, table_end,
					SETUP_HEADER_OFFSET);
	p->size_of_headers = ALIGN_UP(table_end, pe->file_alignment);
	if (p->size_of_headers > bz->setup_size)
		return log_error_status(
			EFI_UNSUPPORTED,
			"%s: the stub's FileAlignment %#x puts SizeOfHeaders past the setup area (%#zx)", name,
			pe->file_alignment, bz->setup_size);
	return EFI_SUCCESS;
}

/* .bzimage covers the file bytes; with an IA-32 entry that runs the kernel
 * in place, also the kernel's init_size from its start. */
static uint64_t wrap_bz_vsize(const struct bz_info *bz, const struct wrap_plan *p)
{
	uint64_t file = p->kernel_end - p->size_of_headers;

	if (!p->compat_entry)
		return file;
	return MAX(file, (uint64_t)bz->setup_size - p->size_of_headers + bz->init_size);
}

static EFI_STATUS wrap_plan_sections(const struct pe_info *pe, const struct bz_info *bz, const char *name,
				     struct wrap_plan *p)
{
	uint64_t kernel_end = bz->setup_size + (uint64_t)get_le32(bz->image + 0x1f4) * 16;
	uint64_t off = ALIGN_UP(kernel_end, (uint64_t)pe->file_alignment), va;

	if (kernel_end == bz->setup_size || kernel_end > bz->image_size || off > UINT32_MAX / 2)
		return log_error_status(EFI_LOAD_ERROR, "%s: syssize %#x does not describe the kernel in the file",
					name, get_le32(bz->image + 0x1f4));
	if (p->compat_entry >= kernel_end - bz->setup_size)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: IA-32 entry %#x lies outside the kernel", name,
					p->compat_entry);
	p->kernel_end = (uint32_t)kernel_end;
	p->bz_raw_size = (uint32_t)off - p->size_of_headers;
	p->bz_vsize = (uint32_t)wrap_bz_vsize(bz, p);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		p->stub_raw[i] = pe->sections[i].raw_size ? (uint32_t)off : 0;
		off += ALIGN_UP((uint64_t)pe->sections[i].raw_size, pe->file_alignment);
	}
	va = ALIGN_UP((uint64_t)pe->size_of_image, pe->section_alignment);
	p->bz_va = (uint32_t)va;
	va = ALIGN_UP(va + MAX(p->bz_raw_size, p->bz_vsize), (uint64_t)pe->section_alignment);
	if (p->compat_entry) {
		p->compat_va = (uint32_t)va;
		p->compat_raw = (uint32_t)off;
		va += pe->section_alignment;
		off += pe->file_alignment;
	}
	if (va > UINT32_MAX || off > UINT32_MAX)
		return log_error_status(EFI_LOAD_ERROR, "%s: wrapped image would pass 4 GiB", name);
	p->size_of_image = (uint32_t)va;
	p->out_len = (uint32_t)off;
	return EFI_SUCCESS;
}

static void wrap_write_section_header(uint8_t *h, const char *name, uint32_t vsize, uint32_t va, uint32_t raw_size,
				      uint32_t raw, uint32_t characteristics)
{
	memset(h, 0, PE_SECTION_HEADER_SIZE);
	memcpy(h, name, strlen(name));
	put_le32(h + 8, vsize);
	put_le32(h + 12, va);
	put_le32(h + 16, raw_size);
	put_le32(h + 20, raw);
	put_le32(h + 36, characteristics);
}

/* MZ stub, PE signature, COFF and optional headers, from the stub's. */
static void wrap_write_headers(uint8_t *out, const uint8_t *stub, const struct pe_info *pe, const struct wrap_plan *p)
{
	uint8_t *coff = out + WRAP_PE_OFFSET + 4, *opt = coff + PE_COFF_HEADER_SIZE;
	uint32_t n_copy = MIN(p->n_dirs, pe->n_rva_and_sizes);

	memset(out, 0, SETUP_HEADER_OFFSET);
	out[0] = 'M';
	out[1] = 'Z';
	put_le32(out + 0x3c, WRAP_PE_OFFSET);
	memcpy(out + WRAP_PE_OFFSET, "PE\0\0", 4);
	memcpy(coff, stub + pe->pe_offset + 4, PE_COFF_HEADER_SIZE);
	put_le16(coff + 2, (uint16_t)p->n_sections);
	put_le32(coff + 8, 0); /* no COFF symbol table */
	put_le32(coff + 12, 0);
	put_le16(coff + 16, (uint16_t)p->opt_size);
	memcpy(opt, stub + pe_opt_offset(pe), OPT_PE32PLUS_FIXED + n_copy * 8);
	put_le32(opt + OPT_SIZE_OF_INIT_DATA, get_le32(opt + OPT_SIZE_OF_INIT_DATA) + p->bz_raw_size);
	put_le32(opt + OPT_SIZE_OF_IMAGE, p->size_of_image);
	put_le32(opt + OPT_SIZE_OF_HEADERS, p->size_of_headers);
	put_le32(opt + PE_OPT_CHECKSUM, 0);
	put_le32(opt + OPT_N_RVA_AND_SIZES, p->n_dirs);
	memset(opt + OPT_PE32PLUS_FIXED + PE_DIR_SECURITY * 8, 0, 8);
}

/* The record's RVA: the kernel's file offset setup_size + entry, in .bzimage. */
static void wrap_write_compat(uint8_t *out, const struct bz_info *bz, const struct pe_info *pe,
			      const struct wrap_plan *p)
{
	uint8_t *rec = out + p->compat_raw;

	wrap_write_section_header(out + p->table + (pe->n_sections + 1) * PE_SECTION_HEADER_SIZE, WRAP_COMPAT_SECTION,
				  2 * COMPAT_RECORD_SIZE, p->compat_va, pe->file_alignment, p->compat_raw,
				  PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ | PE_SCN_MEM_DISCARDABLE);
	rec[0] = COMPAT_TYPE_ENTRY;
	rec[1] = COMPAT_RECORD_SIZE;
	put_le16(rec + 2, PE_MACHINE_I386);
	put_le32(rec + 4, p->bz_va + (uint32_t)bz->setup_size - p->size_of_headers + p->compat_entry);
	/* then a zero record: the end of the list */
}

static void wrap_write(uint8_t *out, const uint8_t *stub, const struct pe_info *pe, const struct bz_info *bz,
		       const struct wrap_plan *p)
{
	memcpy(out, bz->image, p->kernel_end);
	wrap_write_headers(out, stub, pe, p);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		uint32_t raw_size = ALIGN_UP(s->raw_size, pe->file_alignment);

		memcpy(out + p->table + i * PE_SECTION_HEADER_SIZE,
		       stub + pe->section_table_offset + i * PE_SECTION_HEADER_SIZE, PE_SECTION_HEADER_SIZE);
		put_le32(out + p->table + i * PE_SECTION_HEADER_SIZE + 16, raw_size);
		put_le32(out + p->table + i * PE_SECTION_HEADER_SIZE + 20, p->stub_raw[i]);
		if (s->raw_size)
			memcpy(out + p->stub_raw[i], stub + s->raw_offset, s->raw_size);
	}
	wrap_write_section_header(out + p->table + pe->n_sections * PE_SECTION_HEADER_SIZE, WRAP_SECTION,
				  p->bz_vsize, p->bz_va, p->bz_raw_size, p->size_of_headers,
				  PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ);
	if (p->compat_entry)
		wrap_write_compat(out, bz, pe, p);
	put_le32(out + WRAP_PE_OFFSET + 4 + PE_COFF_HEADER_SIZE + PE_OPT_CHECKSUM,
		 pe_checksum(out, p->out_len, WRAP_PE_OFFSET + 4 + PE_COFF_HEADER_SIZE + PE_OPT_CHECKSUM));
}

static EFI_STATUS wrap_check_inputs(const uint8_t *stub, size_t stub_len, const uint8_t *bz_buf, size_t bz_len,
				    const char *bz_name, struct pe_info *pe, struct bz_info *bz)
{
	EFI_STATUS err;

	err = pe_parse(stub, stub_len, "stub", pe);
	if (err == EFI_UNSUPPORTED)
		return log_error_status(err, "stub: not a PE/COFF image (no MZ/PE signature)");
	if (EFI_ERROR(err))
		return err;
	if (!pe_is_efi_app_x64(pe))
		return log_error_status(EFI_UNSUPPORTED, "stub: not an x86-64 EFI application");
	err = bz_parse(bz_buf, bz_len, bz_name, bz);
	if (EFI_ERROR(err))
		return err;
	return uki_check_kernel(bz, bz_name);
}

EFI_STATUS wrap_bzimage(const uint8_t *stub, size_t stub_len, const uint8_t *bz_buf, size_t bz_len, const char *bz_name,
			uint8_t **ret, size_t *ret_len)
{
	return wrap_bzimage_compat(stub, stub_len, bz_buf, bz_len, bz_name, 0, ret, ret_len);
}

EFI_STATUS wrap_bzimage_compat(const uint8_t *stub, size_t stub_len, const uint8_t *bz_buf, size_t bz_len,
			       const char *bz_name, uint32_t compat_entry, uint8_t **ret, size_t *ret_len)
{
	_cleanup_free_ struct pe_info *pe = mem_alloc(sizeof(*pe));
	_cleanup_free_ struct bz_info *bz = mem_alloc(sizeof(*bz));
	_cleanup_free_ struct wrap_plan *p = mem_zalloc(sizeof(*p));
	uint8_t *out;
	EFI_STATUS err;

	if (!pe || !bz || !p)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", bz_name);
	p->compat_entry = compat_entry;
	err = wrap_check_inputs(stub, stub_len, bz_buf, bz_len, bz_name, pe, bz);
	if (!EFI_ERROR(err))
		err = wrap_plan_headers(stub, pe, bz, bz_name, p);
	if (!EFI_ERROR(err))
		err = wrap_plan_sections(pe, bz, bz_name, p);
	if (EFI_ERROR(err))
		return err;
	out = mem_zalloc(p->out_len);
	if (!out)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory for %u bytes", bz_name, p->out_len);
	wrap_write(out, stub, pe, bz, p);
	*ret = out;
	*ret_len = p->out_len;
	return EFI_SUCCESS;
}

EFI_STATUS wrap_find(const struct pe_info *pe, const uint8_t *buf, size_t len, enum pe_layout layout, const char *name,
		     struct wrap_view *ret)
{
	const struct pe_section *s = pe_find_section(pe, WRAP_SECTION);
	const uint8_t *body;
	size_t body_size;

	if (!s) {
		log_debug("%s: no %s section: not a wrapped bzImage", name, WRAP_SECTION);
		return EFI_NOT_FOUND;
	}
	if (s->raw_offset != pe->size_of_headers || pe->size_of_headers > len)
		return log_error_status(EFI_LOAD_ERROR, "%s: %s starts at file offset %#x, not at SizeOfHeaders %#x",
					name, WRAP_SECTION, s->raw_offset, pe->size_of_headers);
	body = pe_section_data(s, buf, len, layout, &body_size);
	if (!body)
		return log_error_status(EFI_LOAD_ERROR, "%s: %s lies outside the image", name, WRAP_SECTION);
	*ret = (struct wrap_view){.head = buf, .head_size = pe->size_of_headers, .body = body, .body_size = body_size};
	return EFI_SUCCESS;
}
