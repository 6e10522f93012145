/* SPDX-License-Identifier: MIT */
/* EFI_BLOCK_IO_PROTOCOL (UEFI 2.10 §13.9). */
#ifndef EFI_PROTO_BLOCK_IO_H
#define EFI_PROTO_BLOCK_IO_H

#include <efi/efi.h>

#define EFI_BLOCK_IO_PROTOCOL_GUID \
	{ 0x964e5b21, 0x6459, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

#define EFI_BLOCK_IO_PROTOCOL_REVISION 0x00010000
#define EFI_BLOCK_IO_PROTOCOL_REVISION2 0x00020001
#define EFI_BLOCK_IO_PROTOCOL_REVISION3 ((2u << 16) | 31u)

typedef struct EFI_BLOCK_IO_PROTOCOL EFI_BLOCK_IO_PROTOCOL;

typedef struct EFI_BLOCK_IO_MEDIA {
	UINT32 MediaId;
	BOOLEAN RemovableMedia;
	BOOLEAN MediaPresent;
	BOOLEAN LogicalPartition;
	BOOLEAN ReadOnly;
	BOOLEAN WriteCaching;
	UINT32 BlockSize;
	UINT32 IoAlign;
	EFI_LBA LastBlock;
	/* Revision 2 and later */
	EFI_LBA LowestAlignedLba;
	UINT32 LogicalBlocksPerPhysicalBlock;
	/* Revision 3 and later */
	UINT32 OptimalTransferLengthGranularity;
} EFI_BLOCK_IO_MEDIA;
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, RemovableMedia) == 4, "EFI_BLOCK_IO_MEDIA.RemovableMedia");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, LogicalPartition) == 6, "EFI_BLOCK_IO_MEDIA.LogicalPartition");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, WriteCaching) == 8, "EFI_BLOCK_IO_MEDIA.WriteCaching");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, BlockSize) == 12, "EFI_BLOCK_IO_MEDIA.BlockSize");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, IoAlign) == 16, "EFI_BLOCK_IO_MEDIA.IoAlign");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, LastBlock) == 24, "EFI_BLOCK_IO_MEDIA.LastBlock");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, LowestAlignedLba) == 32, "EFI_BLOCK_IO_MEDIA.LowestAlignedLba");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, LogicalBlocksPerPhysicalBlock) == 40, "LogicalBlocksPerPhysicalBlock");
_Static_assert(offsetof(EFI_BLOCK_IO_MEDIA, OptimalTransferLengthGranularity) == 44,
	       "OptimalTransferLengthGranularity");
_Static_assert(sizeof(EFI_BLOCK_IO_MEDIA) == 48, "EFI_BLOCK_IO_MEDIA size");

typedef EFI_STATUS(EFIAPI *EFI_BLOCK_RESET)(IN EFI_BLOCK_IO_PROTOCOL *This, IN BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_READ)(IN EFI_BLOCK_IO_PROTOCOL *This, IN UINT32 MediaId, IN EFI_LBA LBA,
					   IN UINTN BufferSize, OUT VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_WRITE)(IN EFI_BLOCK_IO_PROTOCOL *This, IN UINT32 MediaId, IN EFI_LBA LBA,
					    IN UINTN BufferSize, IN VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_BLOCK_FLUSH)(IN EFI_BLOCK_IO_PROTOCOL *This);

struct EFI_BLOCK_IO_PROTOCOL {
	UINT64 Revision;
	EFI_BLOCK_IO_MEDIA *Media;
	EFI_BLOCK_RESET Reset;
	EFI_BLOCK_READ ReadBlocks;
	EFI_BLOCK_WRITE WriteBlocks;
	EFI_BLOCK_FLUSH FlushBlocks;
};
_Static_assert(offsetof(EFI_BLOCK_IO_PROTOCOL, Media) == EFI_LAYOUT(0x08, 0x08), "EFI_BLOCK_IO_PROTOCOL.Media");
_Static_assert(offsetof(EFI_BLOCK_IO_PROTOCOL, ReadBlocks) == EFI_LAYOUT(0x18, 0x10),
	       "EFI_BLOCK_IO_PROTOCOL.ReadBlocks");
_Static_assert(offsetof(EFI_BLOCK_IO_PROTOCOL, FlushBlocks) == EFI_LAYOUT(0x28, 0x18),
	       "EFI_BLOCK_IO_PROTOCOL.FlushBlocks");
_Static_assert(sizeof(EFI_BLOCK_IO_PROTOCOL) == EFI_LAYOUT(0x30, 0x20), "EFI_BLOCK_IO_PROTOCOL size");

#endif /* EFI_PROTO_BLOCK_IO_H */
