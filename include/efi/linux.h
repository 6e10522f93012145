/* SPDX-License-Identifier: MIT */
/*
 * Linux EFI initrd loading interface.  Since Linux 5.8 the EFI stub looks for
 * an EFI_LOAD_FILE2_PROTOCOL installed on a handle whose device path is
 * exactly the vendor media node below followed by an end node; calling its
 * LoadFile() yields the initrd.
 */
#ifndef EFI_LINUX_H
#define EFI_LINUX_H

#include <efi/efi.h>
#include <efi/proto/device_path.h>
#include <efi/proto/load_file.h>

#define LINUX_INITRD_MEDIA_GUID \
	{ 0x5568e427, 0x68fc, 0x4f3d, { 0xac, 0x74, 0xca, 0x55, 0x52, 0x31, 0xcc, 0x68 } }

/*
 * vendor: Type MEDIA_DEVICE_PATH, SubType MEDIA_VENDOR_DP, Length 20,
 *         Guid LINUX_INITRD_MEDIA_GUID.
 * end:    Type END_DEVICE_PATH_TYPE, SubType END_ENTIRE_DEVICE_PATH_SUBTYPE,
 *         Length 4.
 */
typedef struct LINUX_INITRD_MEDIA_DEVICE_PATH {
	VENDOR_DEVICE_PATH vendor;
	EFI_DEVICE_PATH_PROTOCOL end;
} __attribute__((packed)) LINUX_INITRD_MEDIA_DEVICE_PATH;
_Static_assert(offsetof(LINUX_INITRD_MEDIA_DEVICE_PATH, end) == 20, "LINUX_INITRD_MEDIA_DEVICE_PATH.end");
_Static_assert(sizeof(LINUX_INITRD_MEDIA_DEVICE_PATH) == 24, "LINUX_INITRD_MEDIA_DEVICE_PATH size");

/*
 * The TPM event log as Linux's EFI stub hands it to the kernel
 * (include/linux/efi.h, linux_efi_tpm_eventlog): a configuration table the
 * kernel reads in drivers/char/tpm/eventlog/efi.c. A loader that exits boot
 * services itself (the 64-bit boot protocol) must install it, or Linux sees
 * no event log. final_events_preboot_size: bytes of the firmware's final
 * events table already logged when the log was taken (the kernel skips them).
 */
#define LINUX_EFI_TPM_EVENT_LOG_GUID \
	{ 0xb7799cb0, 0xeca2, 0x4943, { 0x96, 0x67, 0x1f, 0xae, 0x07, 0xb7, 0x47, 0xfa } }

typedef struct {
	UINT32 size;
	UINT32 final_events_preboot_size;
	UINT8 version;                     /* EFI_TCG2_EVENT_LOG_FORMAT_TCG_2 */
	UINT8 log[];
} LINUX_EFI_TPM_EVENTLOG;
_Static_assert(offsetof(LINUX_EFI_TPM_EVENTLOG, version) == 8, "linux_efi_tpm_eventlog.version");
_Static_assert(offsetof(LINUX_EFI_TPM_EVENTLOG, log) == 9, "linux_efi_tpm_eventlog.log");

/*
 * A random seed for the kernel's RNG (include/linux/efi.h,
 * linux_efi_random_seed): a configuration table read in
 * drivers/firmware/efi/efi.c, also when the kernel is entered after
 * ExitBootServices (it finds the table through the system table in
 * boot_params.efi_info). Linux's own EFI stub allocates it as
 * EfiACPIReclaimMemory, which the kernel leaves alone until it has read
 * and wiped the seed; it credits at most 1 KiB of it.
 */
#define LINUX_EFI_RANDOM_SEED_TABLE_GUID \
	{ 0x1ce1e5bc, 0x7ceb, 0x42f2, { 0x81, 0xe5, 0x8a, 0xad, 0xf1, 0x80, 0xf5, 0x7b } }

typedef struct {
	UINT32 size;
	UINT8 bits[];
} LINUX_EFI_RANDOM_SEED;
_Static_assert(offsetof(LINUX_EFI_RANDOM_SEED, bits) == 4, "linux_efi_random_seed.bits");

#endif /* EFI_LINUX_H */
