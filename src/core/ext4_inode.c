/* ext4 inodes: locating one through its group's inode table, checking its
 * CRC32C (metadata_csum), and finding inline data in the in-inode extended
 * attribute area (kernel Documentation/filesystems/ext4/inodes.rst,
 * inlinedata.rst, attributes.rst). */
#include "ext4_priv.h"
#include "crc32c.h"
#include "log.h"

/* In-inode xattrs: a 4-byte magic after i_extra_isize, then entries. */
#define XATTR_MAGIC 0xea020000u
#define XATTR_ENTRY_SIZE 16u
#define XATTR_INDEX_SYSTEM 7u

enum ext4_file_type ext4_mode_type(uint16_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return EXT4_FT_REG;
	case S_IFDIR: return EXT4_FT_DIR;
	case S_IFLNK: return EXT4_FT_SYMLINK;
	case 0020000: return EXT4_FT_CHRDEV;
	case 0060000: return EXT4_FT_BLKDEV;
	case 0010000: return EXT4_FT_FIFO;
	case 0140000: return EXT4_FT_SOCK;
	default: return EXT4_FT_UNKNOWN;
	}
}

/* i_extra_isize: how much of the inode past 128 bytes holds fields; the rest
 * is xattr space. */
static uint32_t extra_isize(const struct ext4_fs *fs, const uint8_t *raw)
{
	return fs->inode_size > EXT4_GOOD_OLD_INODE_SIZE ? get_le16(raw + I_EXTRA_ISIZE) : 0;
}

/* crc32c(inode seed, whole inode with l_i_checksum_lo and, when
 * i_extra_isize covers it, i_checksum_hi as zero); only the low 16 bits are
 * stored when i_checksum_hi does not fit (128-byte inodes). */
static EFI_STATUS check_inode_csum(struct ext4_fs *fs, struct ext4_inode *inode)
{
	uint8_t *raw = inode->raw;
	bool has_hi = extra_isize(fs, raw) >= I_CHECKSUM_HI + 2 - EXT4_GOOD_OLD_INODE_SIZE;
	uint32_t stored = get_le16(raw + I_CHECKSUM_LO), calc;
	uint16_t hi = has_hi ? get_le16(raw + I_CHECKSUM_HI) : 0;

	if (!fs->csum)
		return EFI_SUCCESS;
	stored |= (uint32_t)hi << 16;
	put_le16(raw + I_CHECKSUM_LO, 0);
	if (has_hi)
		put_le16(raw + I_CHECKSUM_HI, 0);
	calc = crc32c_update(inode->csum_seed, raw, fs->inode_size);
	put_le16(raw + I_CHECKSUM_LO, (uint16_t)stored);
	if (has_hi)
		put_le16(raw + I_CHECKSUM_HI, hi);
	if (!has_hi)
		calc &= 0xffff;
	if (calc != stored)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: checksum mismatch (%#x, computed %#x)",
					fs->name, inode->ino, stored, calc);
	return EFI_SUCCESS;
}

static void inode_seed(const struct ext4_fs *fs, struct ext4_inode *inode)
{
	uint8_t le[4];

	put_le32(le, inode->ino);
	inode->csum_seed = crc32c_update(fs->csum_seed, le, 4);
	memcpy(le, inode->raw + I_GENERATION, 4);
	inode->csum_seed = crc32c_update(inode->csum_seed, le, 4);
}

/* The largest i_size the block map can describe (ifork.rst): extents address
 * 2^32 logical blocks, the indirect map 12 + n + n^2 + n^3 blocks (n =
 * block_size / 4). Anything larger is corrupt, and refusing it here keeps a
 * hostile i_size out of every allocation and sum (README "Security"). Sparse
 * files within that limit may be larger than the volume: holes read as zeros. */
static uint64_t ext4_max_file_size(const struct ext4_fs *fs, uint32_t flags)
{
	uint64_t n = fs->block_size / 4, map_blocks;

	if (flags & INODE_FL_EXTENTS)
		map_blocks = 1ull << 32;
	else
		map_blocks = EXT4_NDIR_BLOCKS + n + n * n + n * n * n; /* n <= 16384: no wrap */
	return map_blocks << fs->block_bits;
}

static EFI_STATUS parse_inode(struct ext4_fs *fs, struct ext4_inode *inode)
{
	const uint8_t *raw = inode->raw;
	uint32_t extra = extra_isize(fs, raw);

	if (get_le16(raw + I_MODE) == 0 && get_le16(raw + I_LINKS_COUNT) == 0)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: not in use", fs->name, inode->ino);
	if (extra % 4 != 0 || extra > fs->inode_size - EXT4_GOOD_OLD_INODE_SIZE)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: i_extra_isize %u is invalid",
					fs->name, inode->ino, extra);
	inode_seed(fs, inode);
	EFI_STATUS err = check_inode_csum(fs, inode);
	if (err != EFI_SUCCESS)
		return err;
	inode->mode = get_le16(raw + I_MODE);
	inode->flags = get_le32(raw + I_FLAGS);
	inode->size = get_le32(raw + I_SIZE_LO) | (uint64_t)get_le32(raw + I_SIZE_HIGH) << 32;
	if (inode->size > ext4_max_file_size(fs, inode->flags))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: i_size %#llx is larger than its block map can describe",
					fs->name, inode->ino, (unsigned long long)inode->size);
	if (inode->flags & INODE_FL_ENCRYPT)
		return log_error_status(EFI_UNSUPPORTED, "%s: inode %u: encrypted, not supported", fs->name,
					inode->ino);
	return EFI_SUCCESS;
}

EFI_STATUS ext4_inode_load(struct ext4_fs *fs, uint32_t ino, struct ext4_inode *ret)
{
	uint32_t group, index;
	uint64_t table;
	EFI_STATUS err;

	if (ino == 0 || ino > fs->inodes_count)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: out of range (1..%u)",
					fs->name, ino, fs->inodes_count);
	group = (ino - 1) / fs->inodes_per_group;
	index = (ino - 1) % fs->inodes_per_group;
	err = ext4_inode_table_block(fs, group, &table);
	if (err != EFI_SUCCESS)
		return err;
	*ret = (struct ext4_inode){ .ino = ino };
	ret->raw = mem_alloc(fs->inode_size);
	if (!ret->raw)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: inode %u: out of memory", fs->name, ino);
	/* inodes never straddle blocks: inode_size is a power of 2 <= block_size */
	uint64_t at = (uint64_t)index * fs->inode_size;
	const uint8_t *blk;
	err = ext4_block_get(fs, table + (at >> fs->block_bits), "inode table", &blk);
	if (err == EFI_SUCCESS) {
		memcpy(ret->raw, blk + (at & (fs->block_size - 1)), fs->inode_size);
		err = parse_inode(fs, ret);
	}
	if (err != EFI_SUCCESS)
		ext4_inode_free(ret);
	return err;
}

void ext4_inode_free(struct ext4_inode *inode)
{
	mem_free(inode->raw);
	inode->raw = NULL;
}

/* Finds the "system.data" xattr among the in-inode entries that start at
 * @base (value offsets count from @base) and end at @end. */
static EFI_STATUS find_system_data(struct ext4_fs *fs, const struct ext4_inode *inode, size_t base, size_t end,
				   const uint8_t **ret, size_t *ret_size)
{
	const uint8_t *raw = inode->raw;

	/* The list ends at 4 zero bytes; an entry must fit before its fields are read. */
	for (size_t pos = base; pos + XATTR_ENTRY_SIZE <= end && get_le32(raw + pos) != 0;) {
		const uint8_t *e = raw + pos;
		size_t name_len = e[0], entry = ALIGN_UP(XATTR_ENTRY_SIZE + name_len, 4);
		uint32_t offs = get_le16(e + 2), size = get_le32(e + 8);

		if (pos + entry > end)
			break;
		if (e[1] == XATTR_INDEX_SYSTEM && name_len == 4 && memcmp(e + XATTR_ENTRY_SIZE, "data", 4) == 0) {
			if (get_le32(e + 4) != 0 || !range_ok(base + offs, size, end))
				return log_error_status(EFI_VOLUME_CORRUPTED,
							"%s: inode %u: system.data xattr value out of bounds", fs->name,
							inode->ino);
			*ret = raw + base + offs;
			*ret_size = size;
			return EFI_SUCCESS;
		}
		pos += entry;
	}
	return EFI_SUCCESS;
}

/* Inline data beyond i_block: the value of the in-inode "system.data" xattr
 * (possibly empty or absent: then *ret_extra_size is 0). */
EFI_STATUS ext4_inline_data(struct ext4_fs *fs, const struct ext4_inode *inode, const uint8_t **ret_extra,
			    size_t *ret_extra_size)
{
	size_t start = EXT4_GOOD_OLD_INODE_SIZE + extra_isize(fs, inode->raw);

	*ret_extra = NULL;
	*ret_extra_size = 0;
	if (start + 4 > fs->inode_size || get_le32(inode->raw + start) != XATTR_MAGIC)
		return EFI_SUCCESS;
	return find_system_data(fs, inode, start + 4, fs->inode_size, ret_extra, ret_extra_size);
}
