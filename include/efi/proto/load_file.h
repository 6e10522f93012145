/* SPDX-License-Identifier: MIT */
/*
 * EFI_LOAD_FILE_PROTOCOL (UEFI 2.10 §13.1) and EFI_LOAD_FILE2_PROTOCOL
 * (§13.2).  The two protocols have the same single-function layout and
 * differ only in GUID and in that LoadFile2 requires BootPolicy == FALSE.
 */
#ifndef EFI_PROTO_LOAD_FILE_H
#define EFI_PROTO_LOAD_FILE_H

#include <efi/efi.h>

#define EFI_LOAD_FILE_PROTOCOL_GUID \
	{ 0x56ec3091, 0x954c, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }
#define EFI_LOAD_FILE2_PROTOCOL_GUID \
	{ 0x4006c0c1, 0xfcb3, 0x403e, { 0x99, 0x6d, 0x4a, 0x6c, 0x87, 0x24, 0xe0, 0x6d } }

typedef struct EFI_LOAD_FILE_PROTOCOL EFI_LOAD_FILE_PROTOCOL;
typedef EFI_LOAD_FILE_PROTOCOL EFI_LOAD_FILE2_PROTOCOL;

/*
 * With Buffer == NULL or *BufferSize too small: sets *BufferSize and returns
 * EFI_BUFFER_TOO_SMALL.
 */
typedef EFI_STATUS(EFIAPI *EFI_LOAD_FILE)(IN EFI_LOAD_FILE_PROTOCOL *This, IN EFI_DEVICE_PATH_PROTOCOL *FilePath,
					  IN BOOLEAN BootPolicy, IN OUT UINTN *BufferSize,
					  IN VOID *Buffer OPTIONAL);
typedef EFI_LOAD_FILE EFI_LOAD_FILE2;

struct EFI_LOAD_FILE_PROTOCOL {
	EFI_LOAD_FILE LoadFile;
};
_Static_assert(sizeof(EFI_LOAD_FILE_PROTOCOL) == EFI_LAYOUT(8, 4), "EFI_LOAD_FILE_PROTOCOL size");

#endif /* EFI_PROTO_LOAD_FILE_H */
