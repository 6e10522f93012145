/*
 * EFI_MEMORY_ATTRIBUTE_PROTOCOL (UEFI 2.10 §37.7): read and change the
 * access attributes (EFI_MEMORY_RP, EFI_MEMORY_XP, EFI_MEMORY_RO) of pages an
 * image allocated. Firmware that has it may hand out pages without execute
 * permission; an image that runs code from its own allocation clears
 * EFI_MEMORY_XP there (src/pack/unpack.c).
 */
#ifndef EFI_PROTO_MEMORY_ATTRIBUTE_H
#define EFI_PROTO_MEMORY_ATTRIBUTE_H

#include <efi/efi.h>

#define EFI_MEMORY_ATTRIBUTE_PROTOCOL_GUID \
	{ 0xf4560cf6, 0x40ec, 0x4b4a, { 0xa1, 0x92, 0xbf, 0x1d, 0x57, 0xd0, 0xb1, 0x89 } }

typedef struct EFI_MEMORY_ATTRIBUTE_PROTOCOL EFI_MEMORY_ATTRIBUTE_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_GET_MEMORY_ATTRIBUTES)(IN EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						      IN EFI_PHYSICAL_ADDRESS BaseAddress, IN UINT64 Length,
						      OUT UINT64 *Attributes);
/* Set and Clear take one or more of RP, XP, RO; Length a multiple of the page size. */
typedef EFI_STATUS(EFIAPI *EFI_SET_MEMORY_ATTRIBUTES)(IN EFI_MEMORY_ATTRIBUTE_PROTOCOL *This,
						      IN EFI_PHYSICAL_ADDRESS BaseAddress, IN UINT64 Length,
						      IN UINT64 Attributes);
typedef EFI_SET_MEMORY_ATTRIBUTES EFI_CLEAR_MEMORY_ATTRIBUTES;

struct EFI_MEMORY_ATTRIBUTE_PROTOCOL {
	EFI_GET_MEMORY_ATTRIBUTES GetMemoryAttributes;
	EFI_SET_MEMORY_ATTRIBUTES SetMemoryAttributes;
	EFI_CLEAR_MEMORY_ATTRIBUTES ClearMemoryAttributes;
};
_Static_assert(sizeof(EFI_MEMORY_ATTRIBUTE_PROTOCOL) == EFI_LAYOUT(24, 12), "EFI_MEMORY_ATTRIBUTE_PROTOCOL size");

#endif /* EFI_PROTO_MEMORY_ATTRIBUTE_H */
