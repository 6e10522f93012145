/* UEFI memory map -> e820: every memory type, sorting, merging, descriptor
 * stride larger than the struct (as OVMF's 48-byte descriptors), overflow. */
#include "test.h"
#include "core/e820.h"

#define DESC_SIZE 48 /* OVMF reports 48-byte descriptors: stride != sizeof */

static void put_desc(uint8_t *map, size_t i, uint32_t type, uint64_t start, uint64_t pages, uint64_t attr)
{
	EFI_MEMORY_DESCRIPTOR d = { .Type = type, .PhysicalStart = start, .NumberOfPages = pages, .Attribute = attr };
	memset(map + i * DESC_SIZE, 0xa5, DESC_SIZE);
	memcpy(map + i * DESC_SIZE, &d, sizeof(d));
}

TEST(e820_type_for_every_efi_type)
{
	static const struct { uint32_t efi; uint64_t attr; uint32_t e820; } t[] = {
		{ EfiReservedMemoryType, 0, E820_TYPE_RESERVED },
		{ EfiLoaderCode, 0, E820_TYPE_RAM },
		{ EfiLoaderData, 0, E820_TYPE_RAM },
		{ EfiBootServicesCode, 0, E820_TYPE_RAM },
		{ EfiBootServicesData, 0, E820_TYPE_RAM },
		{ EfiRuntimeServicesCode, 0, E820_TYPE_RESERVED },
		{ EfiRuntimeServicesData, 0, E820_TYPE_RESERVED },
		{ EfiConventionalMemory, 0, E820_TYPE_RAM },
		{ EfiConventionalMemory, EFI_MEMORY_SP, E820_TYPE_SOFT_RESERVED },
		{ EfiBootServicesData, EFI_MEMORY_SP, E820_TYPE_SOFT_RESERVED },
		{ EfiUnusableMemory, 0, E820_TYPE_UNUSABLE },
		{ EfiACPIReclaimMemory, 0, E820_TYPE_ACPI },
		{ EfiACPIMemoryNVS, 0, E820_TYPE_NVS },
		{ EfiMemoryMappedIO, 0, E820_TYPE_RESERVED },
		{ EfiMemoryMappedIOPortSpace, 0, E820_TYPE_RESERVED },
		{ EfiPalCode, 0, E820_TYPE_RESERVED },
		{ EfiPersistentMemory, 0, E820_TYPE_PMEM },
		{ EfiUnacceptedMemoryType, 0, 0 },
		{ 0x70000000, 0, 0 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (e820_type_from_efi(t[i].efi, t[i].attr) != t[i].e820)
			test_fail(__FILE__, __LINE__, "EFI type %u attr %#llx -> %u, want %u", t[i].efi,
				  (unsigned long long)t[i].attr, e820_type_from_efi(t[i].efi, t[i].attr), t[i].e820);
}

TEST(e820_sorts_and_merges)
{
	uint8_t map[8 * DESC_SIZE];
	struct boot_e820_entry out[8];
	size_t n = 0;

	put_desc(map, 0, EfiConventionalMemory, 0x100000, 0x100, 0);      /* 1M..2M */
	put_desc(map, 1, EfiLoaderData, 0x200000, 0x10, 0);               /* touches: merged */
	put_desc(map, 2, EfiConventionalMemory, 0x0, 0xa0, 0);            /* out of order */
	put_desc(map, 3, EfiACPIReclaimMemory, 0x300000, 1, 0);
	put_desc(map, 4, EfiBootServicesCode, 0x210000, 0x10, 0);         /* merged too */
	put_desc(map, 5, EfiConventionalMemory, 0x230000, 0x10, 0);       /* gap: not merged */
	put_desc(map, 6, EfiRuntimeServicesData, 0x400000, 2, 0);
	put_desc(map, 7, EfiUnacceptedMemoryType, 0x500000, 2, 0);        /* dropped */
	CHECK_EQ(e820_from_efi_memmap(map, sizeof(map), DESC_SIZE, out, 8, &n), EFI_SUCCESS);
	CHECK_EQ(n, 5);
	CHECK_EQ(out[0].addr, 0); CHECK_EQ(out[0].size, 0xa0000); CHECK_EQ(out[0].type, 1);
	CHECK_EQ(out[1].addr, 0x100000); CHECK_EQ(out[1].size, 0x120000); CHECK_EQ(out[1].type, 1);
	CHECK_EQ(out[2].addr, 0x230000); CHECK_EQ(out[2].size, 0x10000);
	CHECK_EQ(out[3].addr, 0x300000); CHECK_EQ(out[3].type, 3);
	CHECK_EQ(out[4].addr, 0x400000); CHECK_EQ(out[4].size, 0x2000); CHECK_EQ(out[4].type, 2);
}

TEST(e820_adjacent_different_types_stay_apart)
{
	uint8_t map[2 * DESC_SIZE];
	struct boot_e820_entry out[2];
	size_t n = 0;

	put_desc(map, 0, EfiConventionalMemory, 0x0, 1, 0);
	put_desc(map, 1, EfiACPIMemoryNVS, 0x1000, 1, 0);
	CHECK_EQ(e820_from_efi_memmap(map, sizeof(map), DESC_SIZE, out, 2, &n), EFI_SUCCESS);
	CHECK_EQ(n, 2);
	CHECK_EQ(out[1].type, E820_TYPE_NVS);
}

TEST(e820_more_than_128_ranges)
{
	enum { N = 300 };
	static uint8_t map[N * DESC_SIZE];
	static struct boot_e820_entry out[N];
	size_t n = 0;

	/* Alternate types so nothing merges. */
	for (size_t i = 0; i < N; i++)
		put_desc(map, i, i % 2 ? EfiACPIReclaimMemory : EfiConventionalMemory, i * 0x1000, 1, 0);
	CHECK_EQ(e820_from_efi_memmap(map, sizeof(map), DESC_SIZE, out, N, &n), EFI_SUCCESS);
	CHECK_EQ(n, N);
	CHECK_EQ(out[N - 1].addr, (N - 1) * 0x1000);
	CHECK_EQ(e820_from_efi_memmap(map, sizeof(map), DESC_SIZE, out, N - 1, &n), EFI_BUFFER_TOO_SMALL);
}

TEST(e820_rejects_short_descriptor_size)
{
	uint8_t map[64] = { 0 };
	struct boot_e820_entry out[4];
	size_t n;

	CHECK_EQ(e820_from_efi_memmap(map, sizeof(map), 16, out, 4, &n), EFI_INVALID_PARAMETER);
}
