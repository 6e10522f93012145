/* SPDX-License-Identifier: MIT */
/*
 * The Image Execution Information Table (UEFI 2.10 §32.5.3.1): a
 * configuration table where the firmware records each image whose
 * authentication under Secure Boot did not simply pass, with the reason
 * (Action). Entries are variable-sized and packed one after another; each
 * starts with this header and is InfoSize bytes long (Name, DevicePath and
 * Signature follow the header).
 */
#ifndef EFI_IMAGE_SECURITY_H
#define EFI_IMAGE_SECURITY_H

#include <efi/efi.h>

#define EFI_IMAGE_SECURITY_DATABASE_GUID \
	{ 0xd719b2cb, 0x3d3a, 0x4596, { 0xa3, 0xbc, 0xda, 0xd0, 0x0e, 0x67, 0x65, 0x6f } }

#define EFI_IMAGE_EXECUTION_AUTHENTICATION     0x00000007u /* mask */
#define EFI_IMAGE_EXECUTION_AUTH_UNTESTED      0x00000000u
#define EFI_IMAGE_EXECUTION_AUTH_SIG_FAILED    0x00000001u
#define EFI_IMAGE_EXECUTION_AUTH_SIG_PASSED    0x00000002u
#define EFI_IMAGE_EXECUTION_AUTH_SIG_NOT_FOUND 0x00000003u
#define EFI_IMAGE_EXECUTION_AUTH_SIG_FOUND     0x00000004u
#define EFI_IMAGE_EXECUTION_POLICY_FAILED      0x00000005u
#define EFI_IMAGE_EXECUTION_INITIALIZED        0x00000008u

typedef struct {
	UINT32 Action;
	UINT32 InfoSize;    /* of the whole entry, this header included */
} EFI_IMAGE_EXECUTION_INFO;
_Static_assert(sizeof(EFI_IMAGE_EXECUTION_INFO) == 8, "EFI_IMAGE_EXECUTION_INFO header");

typedef struct {
	UINTN NumberOfImages;
	/* EFI_IMAGE_EXECUTION_INFO InformationInfo[] follows */
} EFI_IMAGE_EXECUTION_INFO_TABLE;
_Static_assert(sizeof(EFI_IMAGE_EXECUTION_INFO_TABLE) == 8, "EFI_IMAGE_EXECUTION_INFO_TABLE header");

#endif /* EFI_IMAGE_SECURITY_H */
