/* IA-32 on the PE side (issue 14): PE32 images (the IA-32 loader itself,
 * "efi" entries on 32-bit firmware), the ".compat" section a 64-bit kernel
 * names its IA-32 entry in, and the base relocations the loader applies when
 * it places such an image itself. Layouts are written out here from the
 * PE/COFF spec and Linux's arch/x86/boot/header.S, not taken from src/core. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/pe.h"
#include <stdlib.h>

#define PE32_PE_OFFSET 0x80u
#define PE32_OPT (PE32_PE_OFFSET + 24)
#define PE32_OPT_SIZE (96u + 16 * 8)
#define PE32_SEC (PE32_OPT + PE32_OPT_SIZE)
#define PE32_LEN 0x600u

/* One .text section (RVA 0x1000, file 0x400, 0x200 bytes) holding a base
 * relocation block at RVA 0x1100: {page 0x1000, 10 bytes, one ABSOLUTE pad}. */
static uint8_t *pe32_build(void)
{
	uint8_t *b = calloc(1, PE32_LEN);
	uint32_t coff = PE32_PE_OFFSET + 4, opt = PE32_OPT, sec = PE32_SEC;

	memcpy(b, "MZ", 2);
	put_le32(b + 0x3c, PE32_PE_OFFSET);
	memcpy(b + PE32_PE_OFFSET, "PE\0\0", 4);
	put_le16(b + coff, 0x14c);                 /* IMAGE_FILE_MACHINE_I386 */
	put_le16(b + coff + 2, 1);
	put_le16(b + coff + 16, PE32_OPT_SIZE);
	put_le16(b + opt, 0x10b);                  /* PE32 */
	put_le32(b + opt + 16, 0x1010);            /* AddressOfEntryPoint */
	put_le32(b + opt + 24, 0xdeadbeef);        /* BaseOfData: PE32 only */
	put_le32(b + opt + 28, 0x400000);          /* ImageBase, 32 bits */
	put_le32(b + opt + 32, 0x1000);
	put_le32(b + opt + 36, 0x200);
	put_le32(b + opt + 56, 0x2000);            /* SizeOfImage */
	put_le32(b + opt + 60, 0x400);             /* SizeOfHeaders */
	put_le16(b + opt + 68, 10);                /* EFI application */
	put_le32(b + opt + 92, 16);                /* NumberOfRvaAndSizes */
	put_le32(b + opt + 96 + 5 * 8, 0x1100);    /* base relocation directory */
	put_le32(b + opt + 96 + 5 * 8 + 4, 10);
	memcpy(b + sec, ".text", 5);
	put_le32(b + sec + 8, 0x200);
	put_le32(b + sec + 12, 0x1000);
	put_le32(b + sec + 16, 0x200);
	put_le32(b + sec + 20, 0x400);
	put_le32(b + sec + 36, 0x60000020);
	put_le32(b + 0x500, 0x1000);               /* the relocation block */
	put_le32(b + 0x504, 10);
	put_le16(b + 0x508, 0x0000);
	return b;
}

TEST(ia32_pe32_image_parses)
{
	uint8_t *b = pe32_build();
	struct pe_info pe;

	CHECK_EQ(pe_parse(b, PE32_LEN, "app32.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.magic, 0x10b);
	CHECK_EQ(pe.machine, 0x14c);
	CHECK_EQ(pe.image_base, 0x400000);
	CHECK_EQ(pe.entry_point, 0x1010);
	CHECK_EQ(pe.size_of_image, 0x2000);
	CHECK_EQ(pe.subsystem, 10);
	CHECK_EQ(pe.n_rva_and_sizes, 16);
	CHECK_EQ(pe.reloc_rva, 0x1100);
	CHECK_EQ(pe.reloc_size, 10);
	CHECK_EQ(pe.n_sections, 1);
	CHECK_STR(pe.sections[0].name, ".text");
	CHECK(pe_is_efi_app(&pe, PE_MACHINE_I386));
	CHECK(!pe_is_efi_app_x64(&pe));
	CHECK_EQ(pe.compat_entry_ia32, 0);
	free(b);
}

TEST(ia32_pe32_damaged)
{
	uint8_t *b = pe32_build();
	struct pe_info pe;

	/* too short for PE32's 96 bytes before the directories */
	put_le16(b + PE32_PE_OFFSET + 4 + 16, 94);
	CHECK_EQ(pe_parse(b, PE32_LEN, "app32.efi", &pe), EFI_LOAD_ERROR);
	CHECK_LOG("too short");
	/* 16 directories claimed in room for 15 */
	put_le16(b + PE32_PE_OFFSET + 4 + 16, 96 + 15 * 8);
	CHECK_EQ(pe_parse(b, PE32_LEN, "app32.efi", &pe), EFI_LOAD_ERROR);
	CHECK_LOG("data directories");
	/* neither magic */
	put_le16(b + PE32_PE_OFFSET + 4 + 16, PE32_OPT_SIZE);
	put_le16(b + PE32_OPT, 0x107);
	CHECK_EQ(pe_parse(b, PE32_LEN, "app32.efi", &pe), EFI_LOAD_ERROR);
	CHECK_LOG("neither PE32+");
	free(b);
}

/* What a loader puts in memory: headers at 0, each section at its RVA. */
static uint8_t *pe32_load(const uint8_t *file)
{
	uint8_t *m = calloc(1, 0x2000);

	memcpy(m, file, 0x400);
	memcpy(m + 0x1000, file + 0x400, 0x200);
	return m;
}

/* The loader built for IA-32 firmware, as `make` links it: lld-link's
 * HIGHLOW fixups, applied for another base, move every target. */
TEST(ia32_loader_binary_is_pe32_efi_app)
{
	size_t len, size;
	uint8_t *img = fixture_read("HANDOFF_TEST_LOADER32", "build/handoffia32.efi", &len), *mem, *moved;
	struct pe_info pe;

	if (!img)
		return;
	CHECK_EQ(pe_parse(img, len, "handoffia32.efi", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.magic, get_le16(img + get_le32(img + 0x3c) + 24));
	CHECK_EQ(pe.magic, 0x10b);
	CHECK(pe_is_efi_app(&pe, PE_MACHINE_I386));
	CHECK(pe.reloc_size > 0);
	mem = fake_pe_load(img, len, &size);
	moved = malloc(size);
	memcpy(moved, mem, size);
	CHECK_EQ(pe_relocate(moved, size, &pe, 0x10000, "handoffia32.efi"), EFI_SUCCESS);
	CHECK(memcmp(moved, mem, size) != 0);
	free(moved);
	free(mem);
	free(img);
}

TEST(ia32_relocate)
{
	uint8_t *b = pe32_build(), *m;
	struct pe_info pe;

	CHECK_EQ(pe_parse(b, PE32_LEN, "app32.efi", &pe), EFI_SUCCESS);
	/* the block: one HIGHLOW at 0x1010, one DIR64 at 0x1020, one pad */
	put_le32(b + 0x504, 14);
	put_le16(b + 0x508, 0x3010);
	put_le16(b + 0x50a, 0xa020);
	put_le16(b + 0x50c, 0x0000);
	put_le32(b + 0x410, 0x00401234);
	put_le64(b + 0x420, 0x140001000ull);
	pe.reloc_size = 14;
	m = pe32_load(b);
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_SUCCESS);
	CHECK_EQ(get_le32(m + 0x1010), 0x00411234);
	CHECK_EQ(get_le64(m + 0x1020), 0x140011000ull);
	CHECK_EQ(get_le32(m + 0x1014), 0);                    /* nothing else moved */
	free(m);
	/* a target past the image */
	put_le32(b + 0x500, 0x1ff0);
	put_le16(b + 0x508, 0x3ffe);
	m = pe32_load(b);
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_LOAD_ERROR);
	CHECK_LOG("outside the image");
	free(m);
	/* a type handoff does not know (IMAGE_REL_BASED_HIGH, 1) */
	put_le32(b + 0x500, 0x1000);
	put_le16(b + 0x508, 0x1010);
	m = pe32_load(b);
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_UNSUPPORTED);
	CHECK_LOG("base relocation type 1");
	free(m);
	/* blocks shorter than their header, longer than the directory */
	put_le32(b + 0x504, 4);
	m = pe32_load(b);
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_LOAD_ERROR);
	free(m);
	put_le32(b + 0x504, 16);
	m = pe32_load(b);
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_LOAD_ERROR);
	CHECK_LOG("block");
	/* a directory outside the image; none at all */
	pe.reloc_rva = 0x1ffc;
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_LOAD_ERROR);
	pe.reloc_size = 0;
	CHECK_EQ(pe_relocate(m, 0x2000, &pe, 0x10000, "app32.efi"), EFI_SUCCESS);
	free(m);
	free(b);
}

TEST(ia32_compat_entries)
{
	/* {type, size, machine, entry}: an x64 record, then the IA-32 one */
	static const uint8_t two[] = {1, 8, 0x64, 0x86, 0x00, 0x10, 0, 0, 1, 8, 0x4c, 0x01, 0x30, 0xde, 0x7c, 0, 0, 0};
	static const uint8_t end_first[] = { 0, 8, 0x4c, 0x01, 0x30, 0xde, 0x7c, 0 };
	static const uint8_t zero_size[] = { 1, 0, 0x4c, 0x01, 0x30, 0xde, 0x7c, 0 };
	static const uint8_t too_long[] = { 1, 9, 0x4c, 0x01, 0x30, 0xde, 0x7c, 0 };
	static const uint8_t short_rec[] = { 1, 4, 0x4c, 0x01, 1, 6, 0x4c, 0x01, 0x30, 0xde };
	static const uint8_t other_type[] = { 2, 8, 0x4c, 0x01, 0x30, 0xde, 0x7c, 0, 1, 8, 0x4c, 0x01, 0x40, 0, 0, 0 };

	CHECK_EQ(pe_compat_entry(two, sizeof(two), PE_MACHINE_I386), 0x7cde30);
	CHECK_EQ(pe_compat_entry(two, sizeof(two), PE_MACHINE_X64), 0x1000);
	CHECK_EQ(pe_compat_entry(two, 8, PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(two, 15, PE_MACHINE_I386), 0);   /* second record cut short */
	CHECK_EQ(pe_compat_entry(end_first, sizeof(end_first), PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(zero_size, sizeof(zero_size), PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(too_long, sizeof(too_long), PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(short_rec, sizeof(short_rec), PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(other_type, sizeof(other_type), PE_MACHINE_I386), 0x40);
	CHECK_EQ(pe_compat_entry(two, 0, PE_MACHINE_I386), 0);
	CHECK_EQ(pe_compat_entry(two, 1, PE_MACHINE_I386), 0);
}

/* Debian's kernel (CONFIG_EFI_MIXED=y): its .compat record, read here from
 * the section header and the record bytes. */
TEST(ia32_debian_kernel_compat_entry)
{
	size_t len;
	uint8_t *img = fixture_kernel(&len);
	struct pe_info pe;
	uint32_t raw = 0;

	if (!img)
		return;
	CHECK_EQ(pe_parse(img, len, "vmlinuz", &pe), EFI_SUCCESS);
	for (unsigned i = 0; i < get_le16(img + ref_pe_offset(img) + 6); i++)
		if (memcmp(img + ref_sec(img, i), ".compat", 8) == 0)
			raw = get_le32(img + ref_sec(img, i) + 20);
	CHECK(raw != 0);
	CHECK_EQ(img[raw], 1);                          /* type 1 */
	CHECK_EQ(img[raw + 1], 8);                      /* 8 bytes */
	CHECK_EQ(get_le16(img + raw + 2), 0x14c);       /* IA-32 */
	CHECK_EQ(pe.compat_entry_ia32, get_le32(img + raw + 4));
	CHECK(pe.compat_entry_ia32 > 0 && pe.compat_entry_ia32 < pe.size_of_image);
	CHECK_EQ(pe.reloc_size, 0);   /* nothing for a loader to fix up */
	free(img);
}
