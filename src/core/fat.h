/* A read-only map of FAT12/16/32 files to disk extents, pure: every byte
 * comes through a read callback. It serves one purpose: reading a large file
 * (kernel, initrd, UKI) from the ESP in a few Disk I/O requests instead of
 * through the firmware's FAT driver, which walks the cluster chain entry by
 * entry (docs/design.md "Reading FAT files"). The firmware's driver stays the
 * file system: it opens, lists, sizes and writes; this code only locates the
 * data of a file the firmware already opened, and any doubt (a name it cannot
 * match, a size that differs, a chain it does not like) is EFI_NOT_FOUND or
 * EFI_VOLUME_CORRUPTED, and the caller reads through the firmware instead.
 *
 * Layout: Microsoft "FAT: General Overview of On-Disk Format" 1.03 (the FAT
 * specification UEFI 2.10 §13.3 adopts): §3 boot sector and BPB, §3.5 type by
 * cluster count, §4 FAT entries, §6 directory entries, §7 long names. */
#ifndef CORE_FAT_H
#define CORE_FAT_H

#include "platform.h"
#include <efi/efi.h>

/* Read @len bytes at byte @offset of the volume; EFI_SUCCESS only when all were. */
typedef EFI_STATUS (*fat_read_fn)(void *ctx, uint64_t offset, void *buf, size_t len);

#define FAT_WINDOW (64u << 10) /* bytes of FAT read per request: 16,384 FAT32 entries */

struct fat_vol {
	fat_read_fn read;
	void *ctx;
	uint64_t size;          /* volume bytes: no read goes past them */
	unsigned bits;          /* 12, 16 or 32 */
	uint32_t sector_size;
	uint32_t cluster_size;
	uint32_t clusters;      /* data clusters: valid numbers are 2 .. clusters + 1 */
	uint64_t fat_offset;    /* the first FAT */
	uint64_t root_offset;   /* FAT12/16: the fixed root directory */
	uint32_t root_entries;  /* FAT12/16 */
	uint32_t root_cluster;  /* FAT32 */
	uint64_t data_offset;   /* cluster 2 */
	uint64_t win_offset;    /* where win[] starts on the volume (UINT64_MAX: nothing read) */
	size_t win_len;         /* bytes of win[] read */
	uint8_t win[FAT_WINDOW];
};

struct fat_extent {
	uint64_t offset;        /* on the volume */
	uint64_t length;
};

/**
 * fat_mount() - check the boot sector and fill @v.
 * Return: EFI_SUCCESS, EFI_UNSUPPORTED (not FAT), or the read's error.
 */
EFI_STATUS fat_mount(struct fat_vol *v, fat_read_fn read, void *ctx, uint64_t size);

/**
 * fat_map() - the extents holding the data of the regular file at @path
 * ('/' or '\' separated; ASCII names, matched without regard to case, long
 * or 8.3; any other name is EFI_NOT_FOUND, left to the firmware), which must
 * be @size bytes long. *@ret (mem_free()) holds *@ret_n extents, in file
 * order, adding up to @size.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND (no such file, a directory, another
 * size), EFI_VOLUME_CORRUPTED (a chain that ends early, leaves the volume or
 * reaches a free or bad cluster), EFI_OUT_OF_RESOURCES or the read's error.
 */
EFI_STATUS fat_map(struct fat_vol *v, const char *path, uint64_t size, struct fat_extent **ret, size_t *ret_n);

/**
 * fat_extents_read() - copy [@offset, @offset + @len) of the file described by
 * @ext[0..@n) into @buf, one read per extent touched.
 * Return: EFI_SUCCESS, EFI_INVALID_PARAMETER (the range is not in the file) or
 * the read's error.
 */
EFI_STATUS fat_extents_read(const struct fat_vol *v, const struct fat_extent *ext, size_t n, uint64_t offset,
			    void *buf, uint64_t len);

#endif
