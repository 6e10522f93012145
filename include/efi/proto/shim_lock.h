/* SPDX-License-Identifier: MIT */
/*
 * SHIM_LOCK: the verification protocol shim (github.com/rhboot/shim,
 * shim.h) installs for the second stage it starts. Verify() checks a PE
 * image in memory against shim's trust (db, MokList, its vendor
 * certificate; dbx and MokListX) and its SBAT policy. shim declares these
 * functions without EFIAPI, so on x86-64 they use the System V calling
 * convention, not the Microsoft one of every other EFI interface; on IA-32
 * the C convention, and on AArch64 AAPCS64, as EFIAPI there.
 */
#ifndef EFI_PROTO_SHIM_LOCK_H
#define EFI_PROTO_SHIM_LOCK_H

#include <efi/efi.h>

#define SHIM_LOCK_GUID \
	{ 0x605dab50, 0xe046, 0x4300, { 0xab, 0xb6, 0x3d, 0xd8, 0x10, 0xdd, 0x8b, 0x23 } }

#if defined(__x86_64__)
#define SHIM_ABI __attribute__((sysv_abi))
#elif defined(__i386__)
#define SHIM_ABI __attribute__((cdecl))
#else
#define SHIM_ABI
#endif

typedef struct {
	EFI_STATUS(SHIM_ABI *Verify)(void *Buffer, UINT32 Size);
	void *Hash;
	void *Context;
} SHIM_LOCK;
_Static_assert(sizeof(SHIM_LOCK) == EFI_LAYOUT(24, 12), "SHIM_LOCK size");

#endif /* EFI_PROTO_SHIM_LOCK_H */
