/* Read-only ext2/ext3/ext4 driver, pure: every byte comes through a read
 * callback, so the same code runs under the host tests, the fuzzer and, via
 * src/efi glue, as an EFI Simple File System. Format reference: the kernel's
 * Documentation/filesystems/ext4/ (ondisk layout) and e2fsprogs' ext2_fs.h.
 *
 * Usage: ext4_mount() a partition, ext4_open() a path (symlinks followed,
 * at most EXT4_MAX_SYMLINKS, absolute ones from this partition's root), then
 * ext4_read() / ext4_readdir() / ext4_stat() on the handle, ext4_close() it
 * and ext4_unmount() the volume. Handles are independent: several may be
 * open at once, each with its own small block cache. Nothing here is thread
 * safe (UEFI is single threaded). Memory: a handle holds its inode and up
 * to six blocks (extent/indirect levels, one directory block).
 *
 * Reads: 1-64 KiB blocks; extent trees (depth <= 5, checked per level, so a
 * loop ends as a depth mismatch) and ext2/3 block maps; 64bit, flex_bg,
 * meta_bg, sparse_super2, bigalloc; htree directories (read linearly);
 * inline_data files and directories; fast and slow symlinks; holes and
 * unwritten extents as zeros; huge_file. metadata_csum (CRC32C, with
 * metadata_csum_seed) is verified for the superblock, group descriptors,
 * inodes, extent blocks and directory leaf blocks; gdt_csum (crc16) is not
 * checked. A journal needing recovery is a warning; incompatible features
 * it does not know (compression, journal_dev, dirdata, unknown bits) are
 * refused by name. Encrypted inodes are refused.
 *
 * Errors: EFI_VOLUME_CORRUPTED for any inconsistent metadata (the log line
 * names the structure: "ext4: inode 12: checksum mismatch"), EFI_UNSUPPORTED
 * for features it does not implement (named), EFI_NOT_FOUND for a missing
 * path component, EFI_OUT_OF_RESOURCES, or what the read callback returned. */
#ifndef CORE_EXT4_H
#define CORE_EXT4_H

#include "platform.h"
#include <efi/efi.h>

/* Linux's MAXSYMLINKS: how many symlinks one lookup may follow. */
#define EXT4_MAX_SYMLINKS 40
/* The longest path (and symlink target) ext4_open() handles, as PATH_MAX. */
#define EXT4_PATH_MAX 4096
#define EXT4_NAME_MAX 255

/* Directory entry types (ext4 dirent file_type, also used for stat). */
enum ext4_file_type {
	EXT4_FT_UNKNOWN = 0,
	EXT4_FT_REG = 1,
	EXT4_FT_DIR = 2,
	EXT4_FT_CHRDEV = 3,
	EXT4_FT_BLKDEV = 4,
	EXT4_FT_FIFO = 5,
	EXT4_FT_SOCK = 6,
	EXT4_FT_SYMLINK = 7,
};

/* ext4_open_at() flags. */
#define EXT4_OPEN_NOFOLLOW 0x1u /* open a final symlink itself (read gives its target) */

/**
 * typedef ext4_read_fn - read @len bytes at byte @offset of the partition.
 * The driver never asks for bytes past the part_size given to ext4_mount().
 * Return: EFI_SUCCESS only when all @len bytes were read.
 */
typedef EFI_STATUS (*ext4_read_fn)(void *ctx, uint64_t offset, void *buf, size_t len);

struct ext4_fs;
struct ext4_file;

struct ext4_stat {
	uint32_t ino;
	uint16_t mode;            /* i_mode: type and permission bits */
	enum ext4_file_type type;
	uint16_t links;
	uint64_t size;            /* bytes */
	uint64_t blocks_size;     /* bytes allocated (i_blocks, huge_file aware) */
	int64_t atime, mtime, ctime, crtime; /* seconds since the Unix epoch (crtime 0 if absent) */
	uint32_t mtime_nsec;
};

struct ext4_dirent {
	uint32_t ino;
	enum ext4_file_type type; /* from the entry; EXT4_FT_UNKNOWN without the filetype feature */
	char name[EXT4_NAME_MAX + 1];
};

/**
 * ext4_mount() - check the superblock of an ext2/3/4 file system and the
 * features it needs, and return a handle on it.
 * @read: block reader; @ctx: passed to it.
 * @part_size: partition size in bytes; nothing beyond is ever read.
 * @name: names the volume in log lines ("ext4", "disk0p2").
 * Logs a warning (and mounts) when the journal needs recovery.
 * Return: EFI_SUCCESS, EFI_UNSUPPORTED (not ext2/3/4: no magic, logged at
 * debug level only since partitions are probed; or an incompatible feature,
 * named in an error line), EFI_VOLUME_CORRUPTED, or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS ext4_mount(ext4_read_fn read, void *ctx, uint64_t part_size, const char *name,
		      struct ext4_fs **ret);

/** ext4_unmount() - free a volume; every file of it must be closed first. NULL is fine. */
void ext4_unmount(struct ext4_fs *fs);

struct ext4_volume_info {
	uint64_t size;            /* bytes: s_blocks_count * block size */
	uint64_t free;            /* bytes: s_free_blocks_count * block size (as of the last write) */
	uint32_t block_size;
	char label[17];           /* s_volume_name, NUL-terminated, may be "" */
};

/** ext4_volume_info() - size, free space, block size and label (EFI_FILE_SYSTEM_INFO). */
void ext4_volume_info(const struct ext4_fs *fs, struct ext4_volume_info *ret);

/**
 * ext4_open_at() - open @path relative to directory @dir (NULL: the root).
 * A path starting with '/' starts at the root whatever @dir is; empty
 * components and "." are skipped, ".." goes to the parent (the root's parent
 * is the root). Symlinks are followed, a final one unless EXT4_OPEN_NOFOLLOW.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND (a component is missing, or a
 * non-directory is used as one), EFI_VOLUME_CORRUPTED (also symlink loops),
 * EFI_INVALID_PARAMETER (path too long), EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS ext4_open_at(struct ext4_fs *fs, struct ext4_file *dir, const char *path, uint32_t flags,
			struct ext4_file **ret);

/** ext4_open() - ext4_open_at(@fs, NULL, @path, 0, @ret). */
EFI_STATUS ext4_open(struct ext4_fs *fs, const char *path, struct ext4_file **ret);

/**
 * ext4_open_inode() - open inode @ino directly (e.g. from ext4_dirent.ino).
 * Return: as ext4_open_at(); EFI_VOLUME_CORRUPTED for 0 or out of range.
 */
EFI_STATUS ext4_open_inode(struct ext4_fs *fs, uint32_t ino, struct ext4_file **ret);

/** ext4_close() - free a file handle; NULL is fine. */
void ext4_close(struct ext4_file *f);

/** ext4_stat() - what the inode says about @f. */
void ext4_stat(const struct ext4_file *f, struct ext4_stat *ret);

/** ext4_file_size() - size in bytes. */
uint64_t ext4_file_size(const struct ext4_file *f);

/** ext4_file_is_dir() - @f is a directory. */
bool ext4_file_is_dir(const struct ext4_file *f);

/**
 * ext4_read() - read up to @len bytes at @offset into @buf.
 * Holes and unwritten extents read as zeros. Each physically contiguous run
 * is one read callback straight into @buf, as large as the extents allow.
 * Reading at or past the end gives *@ret_read = 0. A symlink opened with
 * EXT4_OPEN_NOFOLLOW reads as its target. Only regular files and symlinks
 * can be read (directories: ext4_readdir()).
 * Return: EFI_SUCCESS (*@ret_read bytes read, < @len only at end of file),
 * EFI_INVALID_PARAMETER (a directory or special file), EFI_VOLUME_CORRUPTED,
 * or the callback's error.
 */
EFI_STATUS ext4_read(struct ext4_file *f, uint64_t offset, void *buf, size_t len, size_t *ret_read);

/**
 * ext4_readdir() - the next entry of directory @dir at or after *@cookie.
 * Start with *@cookie = 0; each call advances it. "." and ".." are returned
 * like any entry (also for inline-data directories, which do not store them).
 * Return: EFI_SUCCESS, EFI_NOT_FOUND at the end, EFI_INVALID_PARAMETER (not a
 * directory), EFI_VOLUME_CORRUPTED.
 */
EFI_STATUS ext4_readdir(struct ext4_file *dir, uint64_t *cookie, struct ext4_dirent *ret);

#endif
