/* SPDX-License-Identifier: MIT */
/*
 * Variable vendor GUIDs and load option bits handoff reads or writes.
 * EFI_GLOBAL_VARIABLE_GUID and the EFI_VARIABLE_* attribute bits live in
 * efi/efi.h.
 */
#ifndef EFI_VARS_H
#define EFI_VARS_H

#include <efi/efi.h>

/* db, dbx, dbt, dbr (UEFI 2.10 §32.6.1). */
#define EFI_IMAGE_SECURITY_DATABASE_GUID \
	{ 0xd719b2cb, 0x3d3a, 0x4596, { 0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f } }

/* Vendor GUID of the systemd Boot Loader Interface variables (LoaderInfo,
 * LoaderTimeInitUSec, LoaderDevicePartUUID, ...). */
#define LOADER_GUID \
	{ 0x4a67b082, 0x0a4c, 0x41cf, { 0xb6, 0xc7, 0x44, 0x0b, 0x29, 0xbb, 0x8c, 0x4f } }

/* EFI_LOAD_OPTION Attributes (UEFI 2.10 §3.1.3). */
#define LOAD_OPTION_ACTIVE 0x00000001u
#define LOAD_OPTION_FORCE_RECONNECT 0x00000002u
#define LOAD_OPTION_HIDDEN 0x00000008u
#define LOAD_OPTION_CATEGORY 0x00001f00u
#define LOAD_OPTION_CATEGORY_BOOT 0x00000000u
#define LOAD_OPTION_CATEGORY_APP 0x00000100u

/*
 * Fixed head of a Boot#### / Driver#### variable.  It is followed by the
 * NUL-terminated Description, then FilePathListLength bytes of device
 * paths, then optional data up to the end of the variable.
 */
typedef struct EFI_LOAD_OPTION {
	UINT32 Attributes;
	UINT16 FilePathListLength;
	CHAR16 Description[];
} __attribute__((packed)) EFI_LOAD_OPTION;
_Static_assert(offsetof(EFI_LOAD_OPTION, FilePathListLength) == 4, "EFI_LOAD_OPTION.FilePathListLength");
_Static_assert(offsetof(EFI_LOAD_OPTION, Description) == 6, "EFI_LOAD_OPTION.Description");
_Static_assert(sizeof(EFI_LOAD_OPTION) == 6, "EFI_LOAD_OPTION size");

/* OsIndications / OsIndicationsSupported bits (UEFI 2.10 §8.5.4). */
#define EFI_OS_INDICATIONS_BOOT_TO_FW_UI 0x0000000000000001ULL

#endif /* EFI_VARS_H */
