/* PE/COFF reader (and, on the host, writer) for EFI applications, Linux's PE
 * masquerade and unified kernel images. PE/COFF spec ("Microsoft PE and COFF
 * Specification") sections 2-4; UEFI 2.10 §2.1.1 for subsystems. */
#ifndef CORE_PE_H
#define CORE_PE_H

#include "platform.h"
#include <efi/efi.h>

#define PE_MACHINE_X64 0x8664u
#define PE_MACHINE_I386 0x014cu
#define PE_MACHINE_AA64 0xaa64u
#define PE_SUBSYSTEM_EFI_APPLICATION 10u
#define PE_SUBSYSTEM_EFI_BOOT_SERVICE_DRIVER 11u
#define PE_SUBSYSTEM_EFI_RUNTIME_DRIVER 12u
#define PE_OPT_MAGIC_PE32 0x10bu      /* IA-32 images */
#define PE_OPT_MAGIC_PE32PLUS 0x20bu  /* x86-64 images */
#define PE_MAX_SECTIONS 96u

#define PE_SCN_CNT_CODE               0x00000020u
#define PE_SCN_CNT_INITIALIZED_DATA   0x00000040u
#define PE_SCN_CNT_UNINITIALIZED_DATA 0x00000080u
#define PE_SCN_MEM_DISCARDABLE        0x02000000u
#define PE_SCN_MEM_EXECUTE            0x20000000u
#define PE_SCN_MEM_READ               0x40000000u
#define PE_SCN_MEM_WRITE              0x80000000u

struct pe_section {
	char name[9];               /* NUL-terminated */
	uint32_t virtual_address;
	uint32_t virtual_size;
	uint32_t raw_offset;        /* PointerToRawData */
	uint32_t raw_size;          /* SizeOfRawData */
	uint32_t characteristics;
};

struct pe_info {
	uint32_t pe_offset;         /* from 0x3c */
	uint16_t machine;
	uint16_t magic;             /* 0x20b for PE32+, 0x10b for PE32 */
	uint16_t subsystem;
	uint16_t dll_characteristics;
	uint64_t image_base;
	uint32_t entry_point;       /* AddressOfEntryPoint (RVA) */
	uint32_t size_of_image;
	uint32_t size_of_headers;
	uint32_t section_alignment;
	uint32_t file_alignment;
	uint32_t checksum;
	uint32_t n_rva_and_sizes;
	uint32_t reloc_rva, reloc_size;       /* data directory 5 */
	uint32_t cert_offset, cert_size;      /* data directory 4 (file offset) */
	uint32_t section_table_offset;        /* file offset of the first section header */
	uint32_t n_sections;
	struct pe_section sections[PE_MAX_SECTIONS];
	/* Linux's ".compat" section (arch/x86/boot/header.S, mixed mode): the
	 * entry point RVA for 32-bit firmware, 0 without one (or when the
	 * section lies outside what was parsed). */
	uint32_t compat_entry_ia32;
};

/**
 * pe_parse() - validate a PE/COFF image and describe it.
 * Every header, section and directory is bounds-checked against @len.
 * Return: EFI_SUCCESS, EFI_UNSUPPORTED (no "MZ"/"PE\0\0": not a PE file,
 * logged at debug level only), or EFI_LOAD_ERROR (malformed; reason logged).
 */
EFI_STATUS pe_parse(const uint8_t *buf, size_t len, const char *name, struct pe_info *ret);

/* Where a section's bytes are: at PointerToRawData in a file, at
 * VirtualAddress in an image the firmware has loaded (LoadedImage->ImageBase). */
enum pe_layout { PE_LAYOUT_FILE, PE_LAYOUT_MEMORY };

/**
 * pe_parse_loaded() - pe_parse() for an image already loaded by the firmware:
 * @base is LoadedImage->ImageBase, @image_size LoadedImage->ImageSize. Section
 * ranges are checked against SizeOfImage instead of the (absent) file, and
 * their initialized bytes against @image_size, which may be less than
 * SizeOfImage (U-Boot's ImageSize ends with the last section).
 * Return: as pe_parse().
 */
EFI_STATUS pe_parse_loaded(const uint8_t *base, size_t image_size, const char *name, struct pe_info *ret);

/**
 * pe_section_data() - the initialized bytes of section @s: min(VirtualSize,
 * SizeOfRawData) bytes (the raw size when VirtualSize is 0), located per @layout.
 * Return: pointer into @buf and *@ret_size, or NULL when they lie outside @len.
 */
const uint8_t *pe_section_data(const struct pe_section *s, const uint8_t *buf, size_t len, enum pe_layout layout,
			       size_t *ret_size);

/**
 * pe_parse_head() - pe_parse() from the first @head_len bytes of a file of
 * @file_size bytes: headers must lie in the head, sections anywhere in the
 * file. Lets a loader list UKIs without reading them whole.
 */
EFI_STATUS pe_parse_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			 struct pe_info *ret);

/** pe_find_section() - section by exact name (".linux"), or NULL. */
const struct pe_section *pe_find_section(const struct pe_info *pe, const char *name);

/** pe_is_efi_app() - an EFI application for @machine (PE_MACHINE_*) with a non-zero entry point. */
bool pe_is_efi_app(const struct pe_info *pe, uint16_t machine);

/** pe_is_efi_app_x64() - pe_is_efi_app() for x86-64. */
bool pe_is_efi_app_x64(const struct pe_info *pe);

/**
 * pe_relocate() - apply the base relocations of the image loaded at @image
 * (@image_size bytes, memory layout: the directory at its RVA) for a load
 * address @delta bytes above its ImageBase: IMAGE_REL_BASED_HIGHLOW (32-bit)
 * and DIR64 fixups, ABSOLUTE padding skipped (PE/COFF §6.6). Every block
 * and target is bounds-checked; the image is for discarding on failure.
 * Return: EFI_SUCCESS, EFI_LOAD_ERROR (malformed) or EFI_UNSUPPORTED (another
 * relocation type), logged with @name.
 */
EFI_STATUS pe_relocate(uint8_t *image, size_t image_size, const struct pe_info *pe, uint64_t delta, const char *name);

/**
 * pe_compat_entry() - walk the entries of a ".compat" section (@data, @size
 * bytes): {u8 type, u8 size, u16 machine, u32 entry RVA} records of type 1,
 * ended by type 0 or a record that does not fit (Linux arch/x86/boot/header.S).
 * Return: the entry point RVA for @machine, or 0.
 */
uint32_t pe_compat_entry(const uint8_t *data, size_t size, uint16_t machine);

#endif
