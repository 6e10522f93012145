/*
 * EFI_DT_FIXUP_PROTOCOL ("EFI Device Tree Fixup Protocol Specification",
 * github.com/U-Boot-EFI/EFI_DT_FIXUP_PROTOCOL, revision 0x00010000; the
 * protocol EBBR names for a devicetree a loader brings, implemented by
 * U-Boot): Fixup() lets the firmware add its nodes and properties to a
 * devicetree the loader read (EFI_DT_APPLY_FIXUPS) and reserve the memory
 * its /reserved-memory node and reservation block name
 * (EFI_DT_RESERVE_MEMORY). *BufferSize is the buffer's size, free bytes
 * after the blob included; EFI_BUFFER_TOO_SMALL leaves the blob unchanged and
 * sets *BufferSize to the size needed. Installing the result as the
 * configuration table is the caller's (InstallConfigurationTable).
 */
#ifndef EFI_PROTO_DT_FIXUP_H
#define EFI_PROTO_DT_FIXUP_H

#include <efi/efi.h>

#define EFI_DT_FIXUP_PROTOCOL_GUID \
	{ 0xe617d64c, 0xfe08, 0x46da, { 0xf4, 0xdc, 0xbb, 0xd5, 0x87, 0x0c, 0x73, 0x00 } }
#define EFI_DT_FIXUP_PROTOCOL_REVISION 0x00010000

/* Flags: at least one */
#define EFI_DT_APPLY_FIXUPS 0x00000001u   /* add nodes and update properties */
#define EFI_DT_RESERVE_MEMORY 0x00000002u /* per /reserved-memory and the memory reservation block */

typedef struct EFI_DT_FIXUP_PROTOCOL EFI_DT_FIXUP_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_DT_FIXUP)(IN EFI_DT_FIXUP_PROTOCOL *This, IN VOID *Fdt, IN OUT UINTN *BufferSize,
					 IN UINT32 Flags);

struct EFI_DT_FIXUP_PROTOCOL {
	UINT64 Revision;
	EFI_DT_FIXUP Fixup;
};
_Static_assert(offsetof(EFI_DT_FIXUP_PROTOCOL, Fixup) == 8, "EFI_DT_FIXUP_PROTOCOL.Fixup");
_Static_assert(sizeof(EFI_DT_FIXUP_PROTOCOL) == 16, "EFI_DT_FIXUP_PROTOCOL size");

#endif /* EFI_PROTO_DT_FIXUP_H */
