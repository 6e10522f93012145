/* ext4 driver internals shared by ext4_*.c: on-disk offsets (kernel
 * Documentation/filesystems/ext4/super.rst, group_descr.rst, inodes.rst,
 * ifork.rst, directory.rst), the mounted-volume and open-file state. */
#ifndef CORE_EXT4_PRIV_H
#define CORE_EXT4_PRIV_H

#include "ext4.h"

/* Superblock: 1024 bytes at byte 1024 of the partition. */
#define SB_OFFSET 1024u
#define SB_SIZE 1024u
#define SB_INODES_COUNT 0x00
#define SB_BLOCKS_COUNT_LO 0x04
#define SB_FREE_BLOCKS_COUNT_LO 0x0c
#define SB_FIRST_DATA_BLOCK 0x14
#define SB_LOG_BLOCK_SIZE 0x18
#define SB_LOG_CLUSTER_SIZE 0x1c
#define SB_BLOCKS_PER_GROUP 0x20
#define SB_INODES_PER_GROUP 0x28
#define SB_MAGIC 0x38
#define SB_REV_LEVEL 0x4c
#define SB_INODE_SIZE 0x58
#define SB_FEATURE_COMPAT 0x5c
#define SB_FEATURE_INCOMPAT 0x60
#define SB_FEATURE_RO_COMPAT 0x64
#define SB_UUID 0x68
#define SB_VOLUME_NAME 0x78
#define SB_DESC_SIZE 0xfe
#define SB_FIRST_META_BG 0x104
#define SB_BLOCKS_COUNT_HI 0x150
#define SB_FREE_BLOCKS_COUNT_HI 0x158
#define SB_CHECKSUM_TYPE 0x175
#define SB_BACKUP_BGS 0x24c
#define SB_CHECKSUM_SEED 0x270
#define SB_CHECKSUM 0x3fc
#define EXT4_SUPER_MAGIC 0xef53u

#define COMPAT_SPARSE_SUPER2 0x200u

#define INCOMPAT_COMPRESSION 0x1u
#define INCOMPAT_FILETYPE 0x2u
#define INCOMPAT_RECOVER 0x4u
#define INCOMPAT_JOURNAL_DEV 0x8u
#define INCOMPAT_META_BG 0x10u
#define INCOMPAT_EXTENTS 0x40u
#define INCOMPAT_64BIT 0x80u
#define INCOMPAT_MMP 0x100u
#define INCOMPAT_FLEX_BG 0x200u
#define INCOMPAT_EA_INODE 0x400u
#define INCOMPAT_DIRDATA 0x1000u
#define INCOMPAT_CSUM_SEED 0x2000u
#define INCOMPAT_LARGEDIR 0x4000u
#define INCOMPAT_INLINE_DATA 0x8000u
#define INCOMPAT_ENCRYPT 0x10000u
#define INCOMPAT_CASEFOLD 0x20000u

#define RO_COMPAT_SPARSE_SUPER 0x1u
#define RO_COMPAT_HUGE_FILE 0x8u
#define RO_COMPAT_GDT_CSUM 0x10u
#define RO_COMPAT_BIGALLOC 0x200u
#define RO_COMPAT_METADATA_CSUM 0x400u

/* Group descriptor (32 bytes, 64 with 64bit and s_desc_size >= 64). */
#define BG_INODE_TABLE_LO 0x08
#define BG_CHECKSUM 0x1e
#define BG_INODE_TABLE_HI 0x28
#define BG_DESC_SIZE_MIN 32u
#define BG_DESC_SIZE_64BIT 64u

/* Inode. */
#define EXT4_GOOD_OLD_INODE_SIZE 128u
#define I_MODE 0x00
#define I_SIZE_LO 0x04
#define I_ATIME 0x08
#define I_CTIME 0x0c
#define I_MTIME 0x10
#define I_LINKS_COUNT 0x1a
#define I_BLOCKS_LO 0x1c
#define I_FLAGS 0x20
#define I_BLOCK 0x28
#define I_BLOCK_SIZE 60u
#define I_GENERATION 0x64
#define I_SIZE_HIGH 0x6c
#define I_BLOCKS_HIGH 0x74
#define I_CHECKSUM_LO 0x7c
#define I_EXTRA_ISIZE 0x80
#define I_CHECKSUM_HI 0x82
#define I_MTIME_EXTRA 0x88
#define I_CRTIME 0x90

#define S_IFMT 0170000u
#define S_IFDIR 0040000u
#define S_IFREG 0100000u
#define S_IFLNK 0120000u

#define INODE_FL_HUGE_FILE 0x40000u
#define INODE_FL_EXTENTS 0x80000u
#define INODE_FL_INDEX 0x1000u
#define INODE_FL_ENCRYPT 0x800u
#define INODE_FL_INLINE_DATA 0x10000000u

#define EXT4_ROOT_INO 2u

/* Extent tree (ifork.rst): 12-byte header, then 12-byte entries. */
#define EXT4_EXT_MAGIC 0xf30au
#define EXT4_EXT_MAX_DEPTH 5u
#define EXT4_EXT_UNWRITTEN_MAX 32768u /* ee_len above this is an unwritten extent */

/* Indirect block map: 12 direct slots, then single, double, triple indirect. */
#define EXT4_NDIR_BLOCKS 12u
#define EXT4_IND_LEVELS 3u

/* The deepest chain of mapping blocks any file walks (extent levels or
 * indirect levels): one cached block per level. */
#define EXT4_MAP_LEVELS EXT4_EXT_MAX_DEPTH

struct ext4_block_cache {
	uint64_t blk;             /* physical block, 0 = empty */
	uint8_t *buf;             /* block_size bytes, allocated on first use */
};

/* The volume's block cache: inode table, group descriptor, directory and
 * small-file blocks. Each path lookup opens fresh handles, so without it the
 * same few blocks are read from the disk again and again (each a firmware
 * Disk I/O call). At most EXT4_FS_CACHE_BYTES, at least one block. */
#define EXT4_FS_CACHE_SLOTS 8
#define EXT4_FS_CACHE_BYTES (64u << 10)

struct ext4_fs {
	ext4_read_fn read;
	void *ctx;
	uint64_t part_size;
	char name[64];
	char label[17];
	uint32_t block_size;
	uint32_t block_bits;
	uint64_t blocks_count;
	uint64_t free_blocks;
	uint32_t first_data_block;
	uint32_t blocks_per_group;
	uint32_t inodes_per_group;
	uint32_t inodes_count;
	uint32_t inode_size;
	uint32_t desc_size;
	uint32_t desc_per_block;
	uint32_t n_groups;
	uint32_t first_meta_bg;
	uint32_t backup_bgs[2];
	uint32_t compat, incompat, ro_compat;
	bool csum;                /* metadata_csum: verify CRC32C everywhere */
	uint32_t csum_seed;       /* crc32c(~0, uuid) or s_checksum_seed */
	unsigned n_open;          /* files still open, for ext4_unmount's check */
	struct ext4_block_cache cache[EXT4_FS_CACHE_SLOTS];
	unsigned cache_slots;     /* slots in use: block size permitting */
	unsigned cache_next;      /* the next slot to refill (round robin) */
};

/* One loaded inode: the fields the driver uses and the raw bytes (for
 * inline data, which lives in i_block and the in-inode xattr area). */
struct ext4_inode {
	uint32_t ino;
	uint16_t mode;
	uint32_t flags;
	uint64_t size;
	uint32_t csum_seed;       /* per-inode seed: crc32c(fs seed, ino, generation) */
	uint8_t *raw;             /* fs->inode_size bytes */
};


struct ext4_file {
	struct ext4_fs *fs;
	struct ext4_inode inode;
	struct ext4_block_cache map[EXT4_MAP_LEVELS]; /* extent/indirect nodes by level */
	struct ext4_block_cache dir;                  /* last directory block read */
	uint8_t *inline_data;     /* inline_data files: the whole content */
	size_t inline_size;
};

/* A mapping: @len logical blocks from the asked one map to @pblk.. (0 = hole). */
struct ext4_run {
	uint64_t pblk;
	uint64_t len;
};

/* ext4_super.c */
/**
 * ext4_dev_read() - read @len bytes at partition byte @offset, refusing
 * (EFI_VOLUME_CORRUPTED) anything past the partition end.
 * Return: EFI_SUCCESS or the error, logged.
 */
EFI_STATUS ext4_dev_read(struct ext4_fs *fs, uint64_t offset, void *buf, size_t len);
/**
 * ext4_read_block() - read block @blk (1..blocks_count-1) into @buf; @what
 * names the structure in the error line.
 * Return: EFI_SUCCESS or the error, logged.
 */
EFI_STATUS ext4_read_block(struct ext4_fs *fs, uint64_t blk, void *buf, const char *what);
/**
 * ext4_block_get() - block @blk (checked as by ext4_read_block()) from the
 * volume's cache, read on a miss. *@ret stays valid until the next call.
 * Return: EFI_SUCCESS or the error, logged.
 */
EFI_STATUS ext4_block_get(struct ext4_fs *fs, uint64_t blk, const char *what, const uint8_t **ret);
/**
 * ext4_inode_table_block() - first block of @group's inode table, from its
 * group descriptor (checksum checked under metadata_csum).
 * Return: EFI_SUCCESS or EFI_VOLUME_CORRUPTED / a read error, logged.
 */
EFI_STATUS ext4_inode_table_block(struct ext4_fs *fs, uint32_t group, uint64_t *ret);

/* ext4_inode.c */
/**
 * ext4_inode_load() - read and check inode @ino (range, checksum,
 * i_extra_isize, in use); free with ext4_inode_free().
 * Return: EFI_SUCCESS, EFI_VOLUME_CORRUPTED, EFI_UNSUPPORTED (encrypted),
 * EFI_OUT_OF_RESOURCES or a read error, logged.
 */
EFI_STATUS ext4_inode_load(struct ext4_fs *fs, uint32_t ino, struct ext4_inode *ret);
/** ext4_inode_free() - free what ext4_inode_load() allocated. */
void ext4_inode_free(struct ext4_inode *inode);
/** ext4_mode_type() - the EXT4_FT_* of an i_mode. */
enum ext4_file_type ext4_mode_type(uint16_t mode);
/**
 * ext4_inline_data() - the part of an inline_data inode's content that
 * follows i_block: the in-inode "system.data" xattr value (none: size 0).
 * Return: EFI_SUCCESS, or EFI_VOLUME_CORRUPTED if the value is out of bounds.
 */
EFI_STATUS ext4_inline_data(struct ext4_fs *fs, const struct ext4_inode *inode,
			    const uint8_t **ret_extra, size_t *ret_extra_size);

/* ext4_map.c */
EFI_STATUS ext4_map(struct ext4_file *f, uint64_t lblk, struct ext4_run *ret);
/**
 * ext4_cache_block() - make @c hold block @blk, reading it unless it does
 * already; *@ret_fresh tells the caller to check it (and to clear c->blk
 * when the check fails, so a bad block is never served from the cache).
 * Return: EFI_SUCCESS, EFI_OUT_OF_RESOURCES or a read error, logged.
 */
EFI_STATUS ext4_cache_block(struct ext4_file *f, struct ext4_block_cache *c, uint64_t blk,
			    const char *what, bool *ret_fresh);

/* ext4_dir.c */
EFI_STATUS ext4_dir_lookup(struct ext4_file *dir, const char *name, size_t name_len, uint32_t *ret_ino);

/* ext4_file.c */
EFI_STATUS ext4_file_new(struct ext4_fs *fs, uint32_t ino, struct ext4_file **ret);

#endif
