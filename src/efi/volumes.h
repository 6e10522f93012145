/* The volumes the loader reads entries from: the one it was started from,
 * then every other partition of the same disk that holds loader entries
 * (an XBOOTLDR partition, or an ext2/3/4 /boot or root file system). */
#ifndef EFI_VOLUMES_H
#define EFI_VOLUMES_H

#include "firmware.h"

struct volume {
	EFI_HANDLE handle;
	EFI_FILE_PROTOCOL *root;
	const char *prefix;     /* "" or "/boot": where loader/ and the entry paths live */
	char name[32];          /* for messages: "ESP", "partition 2" */
};

/**
 * volumes_find() - the boot volume first, then the other partitions on its
 * disk that have \loader\entries or \boot\loader\entries (ext4 ones get
 * handoff's driver installed as a Simple File System first).
 * Return: EFI_SUCCESS (at least the boot volume) or the boot volume's error.
 */
EFI_STATUS volumes_find(EFI_HANDLE boot_device, struct volume **ret, size_t *ret_n);

/**
 * net_volume_open() - when @device is a network boot without a file system
 * (UEFI HTTP Boot or PXE), the server it came from as @vol's root (net_fs.c).
 * Return: EFI_UNSUPPORTED (quietly) when it is not one; else EFI_SUCCESS or
 * the reason, logged.
 */
EFI_STATUS net_volume_open(EFI_HANDLE device, struct volume *vol);

/** ext4_sfs_install() - mount @partition as ext4 and install a Simple File System on it. */
EFI_STATUS ext4_sfs_install(EFI_HANDLE partition, const char *name);

#endif
