/* SPDX-License-Identifier: MIT */
/* EFI_DISK_IO_PROTOCOL (UEFI 2.10 §13.7): byte-granular access to a disk. */
#ifndef EFI_PROTO_DISK_IO_H
#define EFI_PROTO_DISK_IO_H

#include <efi/efi.h>

#define EFI_DISK_IO_PROTOCOL_GUID \
	{ 0xce345171, 0xba0b, 0x11d2, { 0x8e, 0x4f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

#define EFI_DISK_IO_PROTOCOL_REVISION 0x00010000

typedef struct EFI_DISK_IO_PROTOCOL EFI_DISK_IO_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DISK_READ)(IN EFI_DISK_IO_PROTOCOL *This, IN UINT32 MediaId, IN UINT64 Offset,
					  IN UINTN BufferSize, OUT VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_DISK_WRITE)(IN EFI_DISK_IO_PROTOCOL *This, IN UINT32 MediaId, IN UINT64 Offset,
					   IN UINTN BufferSize, IN VOID *Buffer);

struct EFI_DISK_IO_PROTOCOL {
	UINT64 Revision;
	EFI_DISK_READ ReadDisk;
	EFI_DISK_WRITE WriteDisk;
};
_Static_assert(offsetof(EFI_DISK_IO_PROTOCOL, ReadDisk) == EFI_LAYOUT(0x08, 0x08), "EFI_DISK_IO_PROTOCOL.ReadDisk");
_Static_assert(offsetof(EFI_DISK_IO_PROTOCOL, WriteDisk) == EFI_LAYOUT(0x10, 0x0c), "EFI_DISK_IO_PROTOCOL.WriteDisk");
_Static_assert(sizeof(EFI_DISK_IO_PROTOCOL) == EFI_LAYOUT(0x18, 0x10), "EFI_DISK_IO_PROTOCOL size");

#endif /* EFI_PROTO_DISK_IO_H */
