/* EFI memory map to e820, following the type mapping of Linux's EFI stub
 * (drivers/firmware/efi/libstub/x86-stub.c setup_e820) so that a kernel
 * booted by the legacy path sees the same table as one that booted itself. */
#include "e820.h"

uint32_t e820_type_from_efi(uint32_t efi_type, uint64_t attribute)
{
	switch (efi_type) {
	case EfiReservedMemoryType:
	case EfiRuntimeServicesCode:
	case EfiRuntimeServicesData:
	case EfiMemoryMappedIO:
	case EfiMemoryMappedIOPortSpace:
	case EfiPalCode:
		return E820_TYPE_RESERVED;
	case EfiUnusableMemory:
		return E820_TYPE_UNUSABLE;
	case EfiACPIReclaimMemory:
		return E820_TYPE_ACPI;
	case EfiLoaderCode:
	case EfiLoaderData:
	case EfiBootServicesCode:
	case EfiBootServicesData:
	case EfiConventionalMemory:
		return (attribute & EFI_MEMORY_SP) ? E820_TYPE_SOFT_RESERVED : E820_TYPE_RAM;
	case EfiACPIMemoryNVS:
		return E820_TYPE_NVS;
	case EfiPersistentMemory:
		return E820_TYPE_PMEM;
	default:
		/* EfiUnacceptedMemoryType and unknown types: not usable by the kernel
		 * unless it accepts memory itself, which this path cannot promise. */
		return 0;
	}
}

static void e820_insert_sorted(struct boot_e820_entry *out, size_t n, struct boot_e820_entry e)
{
	size_t i = n;

	while (i > 0 && out[i - 1].addr > e.addr) {
		out[i] = out[i - 1];
		i--;
	}
	out[i] = e;
}

static size_t e820_merge(struct boot_e820_entry *e, size_t n)
{
	size_t w = 0;

	for (size_t r = 0; r < n; r++) {
		if (w && e[w - 1].type == e[r].type && e[w - 1].addr + e[w - 1].size == e[r].addr) {
			e[w - 1].size += e[r].size;
			continue;
		}
		e[w++] = e[r];
	}
	return w;
}

EFI_STATUS e820_from_efi_memmap(const void *map, size_t map_size, size_t desc_size,
				struct boot_e820_entry *out, size_t out_cap, size_t *ret_n)
{
	size_t n = 0;

	if (desc_size < sizeof(EFI_MEMORY_DESCRIPTOR))
		return EFI_INVALID_PARAMETER;
	for (size_t off = 0; off + desc_size <= map_size; off += desc_size) {
		const EFI_MEMORY_DESCRIPTOR *d = (const void *)((const uint8_t *)map + off);
		uint32_t type = e820_type_from_efi(d->Type, d->Attribute);

		if (!type || d->NumberOfPages == 0)
			continue;
		if (n == out_cap)
			return EFI_BUFFER_TOO_SMALL;
		e820_insert_sorted(out, n++, (struct boot_e820_entry){
			.addr = d->PhysicalStart,
			.size = d->NumberOfPages << EFI_PAGE_SHIFT,
			.type = type,
		});
	}
	*ret_n = e820_merge(out, n);
	return EFI_SUCCESS;
}
