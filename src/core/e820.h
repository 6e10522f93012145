/* UEFI memory map -> e820 table, with the kernel's own stub rules. */
#ifndef CORE_E820_H
#define CORE_E820_H

#include "platform.h"
#include <bootproto/bootparam.h>
#include <efi/efi.h>

/**
 * e820_type_from_efi() - e820 type for one UEFI memory descriptor.
 * Return: the type, or 0 when the range is left out of e820 (unknown types,
 * unaccepted memory that handoff cannot accept).
 */
uint32_t e820_type_from_efi(uint32_t efi_type, uint64_t attribute);

/**
 * e820_from_efi_memmap() - convert a memory map (@map_size bytes of
 * descriptors, @desc_size apart, as GetMemoryMap returns them) into @out,
 * sorted by address with touching ranges of one type merged.
 * Does not allocate: safe between GetMemoryMap and ExitBootServices.
 * Return: EFI_SUCCESS; EFI_INVALID_PARAMETER for a descriptor size smaller
 * than EFI_MEMORY_DESCRIPTOR; EFI_BUFFER_TOO_SMALL when @out_cap is short.
 */
EFI_STATUS e820_from_efi_memmap(const void *map, size_t map_size, size_t desc_size,
				struct boot_e820_entry *out, size_t out_cap, size_t *ret_n);

#endif
