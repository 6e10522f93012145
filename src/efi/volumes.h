/* The volumes the loader reads entries from: the one it was started from,
 * then the other partitions of the same disk that may supply entries (of
 * type XBOOTLDR, or named in loader.conf by boot-partition: an ext2/3/4
 * /boot or root file system) and hold some. */
#ifndef EFI_VOLUMES_H
#define EFI_VOLUMES_H

#include "firmware.h"

struct volume {
	EFI_HANDLE handle;
	EFI_FILE_PROTOCOL *root;
	const char *prefix;     /* "" or "/boot": where loader/ and the entry paths live */
	char name[32];          /* for messages: "ESP", "partition 2" */
	const bool *lost;       /* network boot: true once a file the server vouched for could not be had */
	bool network;           /* the server of a network boot (net_volume_open()) */
	char *url;              /* network boot: the URL handoff was started from (LoaderDeviceURL) */
};

/**
 * volumes_boot() - *@ret: a new array holding the boot volume, opened.
 * Return: EFI_SUCCESS or the boot volume's error (*@ret then empty).
 */
EFI_STATUS volumes_boot(EFI_HANDLE boot_device, struct volume **ret, size_t *ret_n);

/**
 * volumes_add_partitions() - append to *@v (the boot volume first) the other
 * partitions of its disk that bootpart_classify() allows, given the @n_named
 * PARTUUIDs of loader.conf's boot-partition lines (@named), and that have
 * /loader/entries, /boot/loader/entries or /EFI/Linux (ext4 ones get
 * handoff's driver installed as a Simple File System first). Any other
 * partition is not opened.
 */
void volumes_add_partitions(const EFI_GUID *named, size_t n_named, struct volume **v, size_t *n);

/**
 * net_volume_open() - when @device is a network boot without a file system
 * (UEFI HTTP Boot or PXE), the server it came from as @vol's root (net_fs.c).
 * Return: EFI_UNSUPPORTED (quietly) when it is not one; else EFI_SUCCESS or
 * the reason, logged.
 */
EFI_STATUS net_volume_open(EFI_HANDLE device, struct volume *vol);

/**
 * fat_fast_attach() - when @device holds a FAT file system whose root the
 * firmware opened as @root, let file_read_exact() read that volume's large
 * files through Disk I/O (fat_fast.c). Quiet: a volume it cannot use stays
 * the firmware's alone.
 */
void fat_fast_attach(EFI_HANDLE device, EFI_FILE_PROTOCOL *root);

/**
 * drivers_load() - load and start the UEFI drivers of the boot volume's
 * \EFI\handoff\drivers and \EFI\systemd\drivers (*x64.efi or *ia32.efi,
 * in name order; drivers.c), then connect every controller again, before
 * volumes_add_partitions() looks for partitions they can read. Each refusal
 * or failure is said by name; the loader goes on without that driver.
 */
void drivers_load(const struct volume *boot);

/** ext4_sfs_install() - mount @partition as ext4 and install a Simple File System on it. */
EFI_STATUS ext4_sfs_install(EFI_HANDLE partition, const char *name);

#endif
