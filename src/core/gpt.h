/* GUID Partition Table (UEFI 2.10 §5.2.3 protective MBR, §5.3 GPT header
 * and entry array): a pure writer for disk images built without root or loop
 * devices, a layout planner (1 MiB aligned partitions), and a reader that
 * checks both CRC32s. Sector size 512. */
#ifndef CORE_GPT_H
#define CORE_GPT_H

#include "platform.h"
#include <efi/efi.h>

#define GPT_SECTOR_SIZE 512u
#define GPT_ENTRY_SIZE 128u
#define GPT_N_ENTRIES 128u
#define GPT_ENTRIES_SECTORS (GPT_N_ENTRIES * GPT_ENTRY_SIZE / GPT_SECTOR_SIZE) /* 32 */
#define GPT_HEAD_SECTORS (2 + GPT_ENTRIES_SECTORS)  /* protective MBR, header, entries */
#define GPT_TAIL_SECTORS (GPT_ENTRIES_SECTORS + 1)  /* backup entries, backup header */
#define GPT_ALIGN_SECTORS 2048u                     /* 1 MiB */
#define GPT_NAME_MAX 36u                            /* CHAR16s in PartitionName */

/* Partition type GUIDs: UEFI 2.10 Table 5.7 (ESP); UAPI Discoverable
 * Partitions Specification (XBOOTLDR, root x86-64 and AArch64, Linux filesystem data). */
#define GPT_TYPE_ESP { 0xc12a7328, 0xf81f, 0x11d2, { 0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b } }
#define GPT_TYPE_XBOOTLDR { 0xbc13c2ff, 0x59e6, 0x4262, { 0xa3, 0x52, 0xb2, 0x75, 0xfd, 0x6f, 0x71, 0x72 } }
#define GPT_TYPE_ROOT_X64 { 0x4f68bce3, 0xe8cd, 0x4db1, { 0x96, 0xe7, 0xfb, 0xca, 0xf9, 0x84, 0xb7, 0x09 } }
#define GPT_TYPE_ROOT_AA64 { 0xb921b045, 0x1df0, 0x41c3, { 0xaf, 0x44, 0x4c, 0x6f, 0x28, 0x0d, 0x3f, 0xae } }
#define GPT_TYPE_LINUX_DATA { 0x0fc63daf, 0x8483, 0x4772, { 0x8e, 0x79, 0x3d, 0x69, 0xd8, 0x47, 0x7d, 0xe4 } }

struct gpt_part {
	EFI_GUID type;
	EFI_GUID guid;
	uint64_t first_lba, last_lba;  /* inclusive */
	uint64_t attributes;
	char name[GPT_NAME_MAX + 1];   /* ASCII */
};

struct gpt_disk {
	uint64_t n_sectors;
	EFI_GUID disk_guid;
	struct gpt_part *parts;
	size_t n_parts;
};

/**
 * gpt_plan() - place @n partitions of @sizes bytes each at 1 MiB boundaries,
 * in order, and size the disk: at least @min_disk_bytes, and 1 MiB after the
 * last partition for the backup table. Sets first_lba/last_lba of @parts.
 * Return: EFI_SUCCESS, or EFI_INVALID_PARAMETER (a zero size, more than 128
 * partitions, overflow) with the reason logged.
 */
EFI_STATUS gpt_plan(const uint64_t *sizes, size_t n, uint64_t min_disk_bytes, struct gpt_part *parts,
		    uint64_t *ret_n_sectors);

/**
 * gpt_write() - fill @head (GPT_HEAD_SECTORS sectors: protective MBR, primary
 * header, entry array; goes at LBA 0) and @tail (GPT_TAIL_SECTORS sectors:
 * backup entry array and backup header; goes at the last sectors) for @d.
 * Return: EFI_SUCCESS, or EFI_INVALID_PARAMETER (a partition outside the
 * usable area, overlapping another, or with a non-ASCII/too long name).
 */
EFI_STATUS gpt_write(const struct gpt_disk *d, uint8_t *head, uint8_t *tail);

/**
 * gpt_read() - read the primary GPT from a whole disk image @buf of @len
 * bytes (a multiple of 512), checking the protective MBR, the header CRC32,
 * the entry array CRC32 and that the backup header agrees. Fills @ret with
 * up to @max_parts used entries (ret->parts must point to that many).
 * Return: EFI_SUCCESS, EFI_UNSUPPORTED (no GPT: not logged), EFI_CRC_ERROR
 * or EFI_VOLUME_CORRUPTED (reason logged naming @name).
 */
EFI_STATUS gpt_read(const uint8_t *buf, size_t len, const char *name, struct gpt_disk *ret, size_t max_parts);

/**
 * gpt_read_entry() - the partition type GUID and the unique partition GUID
 * (PARTUUID) of entry @index (0-based: Linux's partition number - 1) from
 * the primary GPT of a disk of @n_sectors
 * of which @buf holds the first @len bytes (LBA 0 to the end of the entry
 * array: 34 sectors for a standard table). Header and entry array CRC32s are
 * checked, the backup header is not (it is at the other end of the disk).
 * Return: EFI_SUCCESS; EFI_UNSUPPORTED (no GPT: not logged); EFI_NOT_FOUND
 * (@index past the array); EFI_CRC_ERROR or EFI_VOLUME_CORRUPTED (logged).
 */
EFI_STATUS gpt_read_entry(const uint8_t *buf, size_t len, uint64_t n_sectors, uint32_t index, const char *name,
			  EFI_GUID *ret_type, EFI_GUID *ret_guid);

/** guid_put() - store @g in the on-disk mixed-endian byte order. */
void guid_put(uint8_t *p, const EFI_GUID *g);
/** guid_get() - load a GUID from its on-disk byte order. */
void guid_get(const uint8_t *p, EFI_GUID *g);
/** guid_equal() - same GUID. */
bool guid_equal(const EFI_GUID *a, const EFI_GUID *b);

#endif
