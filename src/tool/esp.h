/* The EFI system partition on a running system (esp.c) and the files
 * handoff keeps under /etc/handoff. */
#ifndef TOOL_ESP_H
#define TOOL_ESP_H

#include "tool.h"

#ifndef MSDOS_SUPER_MAGIC
#define MSDOS_SUPER_MAGIC 0x4d44
#endif
#define EXT4_SUPER_MAGIC_FS 0xef53 /* statfs f_type of ext2, ext3 and ext4 */

/**
 * esp_locate() - the ESP to work on: @opt (--esp, any directory); else the
 * one recorded by handoff install when it still exists; else the first of
 * /efi, /boot/efi, /boot that esp_is_mounted(). Unless @quiet, a failure
 * prints why each candidate was refused.
 * Return: a malloc'd path, or NULL.
 */
char *esp_locate(const char *opt, bool quiet);
/** esp_is_mounted() - @path is the root of a mounted FAT file system, on a GPT partition of type ESP when that can be
 * read. */
bool esp_is_mounted(const char *path);
/** esp_record() - record @esp (made absolute) in /etc/handoff/esp, when /etc/handoff exists. Return: 0 or -1. */
int esp_record(const char *esp);

/** is_mount_root() - @path is the root of a mounted file system (or "/"). */
bool is_mount_root(const char *path);
/** sysfs_block_dir() - the resolved /sys/dev/block/MAJ:MIN directory of @dev, or NULL. */
char *sysfs_block_dir(dev_t dev);

/** sysfs_u64() - the number in the one-line sysfs attribute @dir/@name. */
bool sysfs_u64(const char *dir, const char *name, uint64_t *ret);
/** sysfs_dev_node() - "/dev/NAME" from @dir/uevent's DEVNAME=, or NULL. Allocated. */
char *sysfs_dev_node(const char *dir);
/**
 * partition_gpt_ids() - the GPT partition type and unique partition GUID
 * (PARTUUID) of the partition holding @path, read from its disk's GPT.
 * Return: 0, or -1 when that cannot be told (not a partition, no GPT, the
 * disk not readable: not root).
 */
int partition_gpt_ids(const char *path, EFI_GUID *ret_type, EFI_GUID *ret_uuid);

#endif
