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
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ParentHandle) == 0x08, "ParentHandle");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, SystemTable) == 0x10, "SystemTable");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, DeviceHandle) == 0x18, "DeviceHandle");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, FilePath) == 0x20, "FilePath");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, Reserved) == 0x28, "Reserved");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, LoadOptionsSize) == 0x30, "LoadOptionsSize");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, LoadOptions) == 0x38, "LoadOptions");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageBase) == 0x40, "ImageBase");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageSize) == 0x48, "ImageSize");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageCodeType) == 0x50, "ImageCodeType");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, ImageDataType) == 0x54, "ImageDataType");
_Static_assert(offsetof(EFI_LOADED_IMAGE_PROTOCOL, Unload) == 0x58, "Unload");
_Static_assert(sizeof(EFI_LOADED_IMAGE_PROTOCOL) == 0x60, "EFI_LOADED_IMAGE_PROTOCOL size");

#endif /* EFI_PROTO_LOADED_IMAGE_H */
