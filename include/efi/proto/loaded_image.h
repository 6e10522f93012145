/* SPDX-License-Identifier: MIT */
/* EFI_LOADED_IMAGE_PROTOCOL (UEFI 2.10 §9.1) and its device path (§9.2). */
#ifndef EFI_PROTO_LOADED_IMAGE_H
#define EFI_PROTO_LOADED_IMAGE_H

#include <efi/efi.h>

#define EFI_LOADED_IMAGE_PROTOCOL_GUID \
	{ 0x5b1b31a1, 0x9562, 0x11d2, { 0x8e, 0x3f, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

/* The image's own load path, installed as an EFI_DEVICE_PATH_PROTOCOL. */
#define EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID \
	{ 0xbc62157e, 0x3e33, 0x4fec, { 0x99, 0x20, 0x2d, 0x3b, 0x36, 0xd7, 0x50, 0xdf } }

#define EFI_LOADED_IMAGE_PROTOCOL_REVISION 0x1000

typedef struct EFI_LOADED_IMAGE_PROTOCOL {
	UINT32 Revision;
	EFI_HANDLE ParentHandle;
	EFI_SYSTEM_TABLE *SystemTable;

	/* Source location of the image */
	EFI_HANDLE DeviceHandle;
	EFI_DEVICE_PATH_PROTOCOL *FilePath;
	VOID *Reserved;

	/* Image's load options */
	UINT32 LoadOptionsSize; /* in bytes */
	VOID *LoadOptions;

	/* Location where the image was loaded */
	VOID *ImageBase;
	UINT64 ImageSize;
	EFI_MEMORY_TYPE ImageCodeType;
	EFI_MEMORY_TYPE ImageDataType;
	EFI_IMAGE_UNLOAD Unload;
} EFI_LOADED_IMAGE_PROTOCOL;
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ParentHandle) == EFI_LAYOUT(0x08, 0x04), "ParentHandle");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, SystemTable) == EFI_LAYOUT(0x10, 0x08), "SystemTable");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, DeviceHandle) == EFI_LAYOUT(0x18, 0x0c), "DeviceHandle");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, FilePath) == EFI_LAYOUT(0x20, 0x10), "FilePath");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, Reserved) == EFI_LAYOUT(0x28, 0x14), "Reserved");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, LoadOptionsSize) == EFI_LAYOUT(0x30, 0x18), "LoadOptionsSize");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, LoadOptions) == EFI_LAYOUT(0x38, 0x1c), "LoadOptions");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageBase) == EFI_LAYOUT(0x40, 0x20), "ImageBase");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageSize) == EFI_LAYOUT(0x48, 0x28), "ImageSize");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageCodeType) == EFI_LAYOUT(0x50, 0x30), "ImageCodeType");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageDataType) == EFI_LAYOUT(0x54, 0x34), "ImageDataType");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, Unload) == EFI_LAYOUT(0x58, 0x38), "Unload");
_Static_assert(sizeof(EFI_LOADED_IMAGE_PROTOCOL) == EFI_LAYOUT(0x60, 0x40), "EFI_LOADED_IMAGE_PROTOCOL size");

#endif /* EFI_PROTO_LOADED_IMAGE_H */
