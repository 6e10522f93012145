/* ext4 volume: superblock checks, feature policy, block reads bounded by the
 * partition, and group descriptors (classic GDT, meta_bg, sparse_super2).
 * Kernel Documentation/filesystems/ext4/super.rst, group_descr.rst, bigalloc
 * aside. */
#include "ext4_priv.h"
#include "crc32c.h"
#include "fmt.h"
#include "log.h"

/* Incompatible features this driver reads correctly. RECOVER only means the
 * journal was not replayed (warned); MMP guards writers; EA_INODE and
 * LARGEDIR change xattrs and htree depth, which a linear reader ignores;
 * CASEFOLD keeps names as written (lookups here are exact); ENCRYPT is
 * refused per inode, since a volume may hold both. */
#define INCOMPAT_SUPPORTED                                                                  \
	(INCOMPAT_FILETYPE | INCOMPAT_RECOVER | INCOMPAT_META_BG | INCOMPAT_EXTENTS |        \
	 INCOMPAT_64BIT | INCOMPAT_MMP | INCOMPAT_FLEX_BG | INCOMPAT_EA_INODE |              \
	 INCOMPAT_CSUM_SEED | INCOMPAT_LARGEDIR | INCOMPAT_INLINE_DATA | INCOMPAT_ENCRYPT |   \
	 INCOMPAT_CASEFOLD)

static const struct {
	uint32_t bit;
	const char *name;
} incompat_names[] = {
	{ INCOMPAT_COMPRESSION, "compression" },
	{ INCOMPAT_JOURNAL_DEV, "journal_dev" },
	{ 0x800u, "lazy_bg" },
	{ INCOMPAT_DIRDATA, "dirdata" },
};

EFI_STATUS ext4_dev_read(struct ext4_fs *fs, uint64_t offset, void *buf, size_t len)
{
	EFI_STATUS err;

	if (!range_ok(offset, len, fs->part_size))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: read of %zu bytes at %#llx is past the partition end %#llx", fs->name, len,
					(unsigned long long)offset, (unsigned long long)fs->part_size);
	err = fs->read(fs->ctx, offset, buf, len);
	if (err != EFI_SUCCESS)
		return log_error_status(err, "%s: reading %zu bytes at %#llx: %m", fs->name, len,
					(unsigned long long)offset);
	return EFI_SUCCESS;
}

EFI_STATUS ext4_block_get(struct ext4_fs *fs, uint64_t blk, const char *what, const uint8_t **ret)
{
	struct ext4_block_cache *c;
	EFI_STATUS err;

	if (blk == 0 || blk >= fs->blocks_count)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: %s: block %llu is outside the file system (%llu blocks)", fs->name, what,
					(unsigned long long)blk, (unsigned long long)fs->blocks_count);
	for (unsigned i = 0; i < fs->cache_slots; i++)
		if (fs->cache[i].blk == blk) {
			*ret = fs->cache[i].buf;
			return EFI_SUCCESS;
		}
	c = &fs->cache[fs->cache_next];
	if (!c->buf && !(c->buf = mem_alloc(fs->block_size)))
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", fs->name);
	c->blk = 0; /* empty until the read succeeds */
	err = ext4_dev_read(fs, blk << fs->block_bits, c->buf, fs->block_size);
	if (err != EFI_SUCCESS)
		return err;
	c->blk = blk;
	fs->cache_next = (fs->cache_next + 1) % fs->cache_slots;
	*ret = c->buf;
	return EFI_SUCCESS;
}

/* Reads block @blk (through the cache); @what names the structure for the error line. */
EFI_STATUS ext4_read_block(struct ext4_fs *fs, uint64_t blk, void *buf, const char *what)
{
	const uint8_t *b;
	EFI_STATUS err = ext4_block_get(fs, blk, what, &b);

	if (err == EFI_SUCCESS)
		memcpy(buf, b, fs->block_size);
	return err;
}

static bool is_power_of(uint32_t n, uint32_t base)
{
	while (n > 1 && n % base == 0)
		n /= base;
	return n == 1;
}

/* Whether group @g holds a superblock backup (and so its GDT copy). */
static bool group_has_super(const struct ext4_fs *fs, uint32_t g)
{
	if (g == 0)
		return true;
	if (fs->compat & COMPAT_SPARSE_SUPER2)
		return g == fs->backup_bgs[0] || g == fs->backup_bgs[1];
	if (g == 1 || !(fs->ro_compat & RO_COMPAT_SPARSE_SUPER))
		return true;
	if (g % 2 == 0)
		return false;
	return is_power_of(g, 3) || is_power_of(g, 5) || is_power_of(g, 7);
}

/* Block holding descriptor block @nr of the primary GDT. Classic layout:
 * right after the superblock. meta_bg: from s_first_meta_bg on, descriptor
 * block nr sits in the first group of its meta group, after that group's
 * superblock backup if it has one (group_descr.rst "meta_bg"). */
static uint64_t gdt_block(const struct ext4_fs *fs, uint32_t nr)
{
	uint64_t sb_block = fs->block_size == 1024 ? 1 : 0;
	uint64_t group;

	if (!(fs->incompat & INCOMPAT_META_BG) || nr < fs->first_meta_bg)
		return sb_block + 1 + nr;
	group = (uint64_t)nr * fs->desc_per_block;
	/* 1 KiB blocks with s_first_data_block 0 (bigalloc): group 0 starts at
	 * block 0, its superblock is block 1, so its GDT is block 2. */
	return fs->first_data_block + group * fs->blocks_per_group + (group_has_super(fs, (uint32_t)group) ? 1 : 0) +
	       (fs->block_size == 1024 && nr == 0 && fs->first_data_block == 0 ? 1 : 0);
}

static EFI_STATUS check_desc_csum(struct ext4_fs *fs, uint32_t group, const uint8_t *desc)
{
	static const uint8_t zero[2];
	uint8_t le_group[4];
	uint16_t stored = get_le16(desc + BG_CHECKSUM), calc;
	uint32_t crc;

	/* metadata_csum: low 16 bits of crc32c(seed, le32 group, desc with
	 * bg_checksum as zero). The older gdt_csum (crc16) is not checked:
	 * group descriptors only steer us to inode tables, which are checked. */
	if (!fs->csum)
		return EFI_SUCCESS;
	put_le32(le_group, group);
	crc = crc32c_update(fs->csum_seed, le_group, sizeof(le_group));
	crc = crc32c_update(crc, desc, BG_CHECKSUM);
	crc = crc32c_update(crc, zero, sizeof(zero));
	crc = crc32c_update(crc, desc + BG_CHECKSUM + 2, fs->desc_size - BG_CHECKSUM - 2);
	calc = (uint16_t)crc;
	if (calc != stored)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: group descriptor %u: checksum mismatch (%#06x, computed %#06x)", fs->name,
					group, stored, calc);
	return EFI_SUCCESS;
}

/* First block of the inode table of @group, checked to lie in the volume. */
EFI_STATUS ext4_inode_table_block(struct ext4_fs *fs, uint32_t group, uint64_t *ret)
{
	uint64_t blk = gdt_block(fs, group / fs->desc_per_block), table, n_blocks;
	const uint8_t *desc;
	EFI_STATUS err;

	if (blk == 0 || blk >= fs->blocks_count)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: group descriptor %u: block %llu outside the file system", fs->name, group,
					(unsigned long long)blk);
	err = ext4_block_get(fs, blk, "group descriptors", &desc);
	if (err != EFI_SUCCESS)
		return err;
	desc += (size_t)(group % fs->desc_per_block) * fs->desc_size;
	err = check_desc_csum(fs, group, desc);
	if (err != EFI_SUCCESS)
		return err;
	table = get_le32(desc + BG_INODE_TABLE_LO);
	if (fs->desc_size >= BG_DESC_SIZE_64BIT)
		table |= (uint64_t)get_le32(desc + BG_INODE_TABLE_HI) << 32;
	n_blocks = ((uint64_t)fs->inodes_per_group * fs->inode_size + fs->block_size - 1) >> fs->block_bits;
	if (table == 0 || table >= fs->blocks_count || n_blocks > fs->blocks_count - table)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: group descriptor %u: inode table at block %llu outside the file system",
					fs->name, group, (unsigned long long)table);
	*ret = table;
	return EFI_SUCCESS;
}

static EFI_STATUS check_features(struct ext4_fs *fs)
{
	uint32_t unknown = fs->incompat & ~(uint32_t)INCOMPAT_SUPPORTED;
	char names[160] = "";
	size_t n = 0;

	if (unknown == 0) {
		if (fs->incompat & INCOMPAT_RECOVER)
			log_warning("%s: the journal needs recovery (needs_recovery): files may read as they were "
				    "before the last writes",
				    fs->name);
		return EFI_SUCCESS;
	}
	for (size_t i = 0; i < ARRAY_SIZE(incompat_names); i++)
		if (unknown & incompat_names[i].bit) {
			n += fmt_snprintf(names + MIN(n, sizeof(names)), sizeof(names) - MIN(n, sizeof(names)), "%s%s",
					  n ? " " : "", incompat_names[i].name);
			unknown &= ~incompat_names[i].bit;
		}
	if (unknown)
		fmt_snprintf(names + MIN(n, sizeof(names)), sizeof(names) - MIN(n, sizeof(names)), "%sunknown %#x",
			     n ? " " : "", unknown);
	return log_error_status(EFI_UNSUPPORTED, "%s: incompatible features not supported: %s", fs->name, names);
}

static EFI_STATUS check_sb_csum(struct ext4_fs *fs, const uint8_t *sb)
{
	uint32_t stored = get_le32(sb + SB_CHECKSUM), calc;

	if (!fs->csum)
		return EFI_SUCCESS;
	if (sb[SB_CHECKSUM_TYPE] != 1)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: s_checksum_type %u is not crc32c",
					fs->name, sb[SB_CHECKSUM_TYPE]);
	calc = crc32c_update(~0u, sb, SB_CHECKSUM);
	if (calc != stored)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: checksum mismatch (%#x, computed %#x)",
					fs->name, stored, calc);
	fs->csum_seed = (fs->incompat & INCOMPAT_CSUM_SEED) ? get_le32(sb + SB_CHECKSUM_SEED)
							     : crc32c_update(~0u, sb + SB_UUID, 16);
	return EFI_SUCCESS;
}

/* Block size, inode size, descriptor size. */
static EFI_STATUS parse_sizes(struct ext4_fs *fs, const uint8_t *sb)
{
	uint32_t log_bs = get_le32(sb + SB_LOG_BLOCK_SIZE);

	/* 1 KiB << 0..6: 1 KiB to 64 KiB, the kernel's range. */
	if (log_bs > 6)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: superblock: s_log_block_size %u is out of range (max 6: 64 KiB)", fs->name,
					log_bs);
	fs->block_bits = 10 + log_bs;
	fs->block_size = 1u << fs->block_bits;
	fs->inode_size = get_le32(sb + SB_REV_LEVEL) == 0 ? EXT4_GOOD_OLD_INODE_SIZE : get_le16(sb + SB_INODE_SIZE);
	if (fs->inode_size < EXT4_GOOD_OLD_INODE_SIZE || !IS_POWER_OF_2(fs->inode_size) ||
	    fs->inode_size > fs->block_size)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: s_inode_size %u is invalid", fs->name,
					fs->inode_size);
	fs->desc_size = BG_DESC_SIZE_MIN;
	if (fs->incompat & INCOMPAT_64BIT) {
		fs->desc_size = get_le16(sb + SB_DESC_SIZE);
		if (fs->desc_size < BG_DESC_SIZE_64BIT || fs->desc_size > 1024 || !IS_POWER_OF_2(fs->desc_size))
			return log_error_status(EFI_VOLUME_CORRUPTED,
						"%s: superblock: s_desc_size %u is invalid for 64bit", fs->name,
						fs->desc_size);
	}
	fs->desc_per_block = fs->block_size / fs->desc_size;
	return EFI_SUCCESS;
}

/* One block bitmap block per group: 8 bits per byte, each bit a block or,
 * with bigalloc, a cluster of 2^(s_log_cluster_size - s_log_block_size). */
static uint64_t max_blocks_per_group(const struct ext4_fs *fs, const uint8_t *sb)
{
	uint32_t log_cluster = get_le32(sb + SB_LOG_CLUSTER_SIZE), shift = 0;

	if ((fs->ro_compat & RO_COMPAT_BIGALLOC) && log_cluster + 10 > fs->block_bits && log_cluster <= 20)
		shift = log_cluster + 10 - fs->block_bits;
	return (uint64_t)8 * fs->block_size << shift;
}

/* Block and inode counts, and the group geometry they imply. */
static EFI_STATUS parse_geometry(struct ext4_fs *fs, const uint8_t *sb)
{
	fs->blocks_count = get_le32(sb + SB_BLOCKS_COUNT_LO);
	if (fs->incompat & INCOMPAT_64BIT)
		fs->blocks_count |= (uint64_t)get_le32(sb + SB_BLOCKS_COUNT_HI) << 32;
	fs->first_data_block = get_le32(sb + SB_FIRST_DATA_BLOCK);
	fs->blocks_per_group = get_le32(sb + SB_BLOCKS_PER_GROUP);
	fs->inodes_per_group = get_le32(sb + SB_INODES_PER_GROUP);
	fs->inodes_count = get_le32(sb + SB_INODES_COUNT);
	if (fs->blocks_count > fs->part_size >> fs->block_bits)
		return log_error_status(
			EFI_VOLUME_CORRUPTED,
			"%s: superblock: s_blocks_count %llu (%u-byte blocks) exceeds the partition (%llu bytes)",
			fs->name, (unsigned long long)fs->blocks_count, fs->block_size,
			(unsigned long long)fs->part_size);
	if (fs->first_data_block > 1 || fs->first_data_block >= fs->blocks_count)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: s_first_data_block %u is invalid",
					fs->name, fs->first_data_block);
	if (fs->blocks_per_group == 0 || fs->blocks_per_group > max_blocks_per_group(fs, sb))
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: s_blocks_per_group %u is invalid",
					fs->name, fs->blocks_per_group);
	if (fs->inodes_per_group == 0 || fs->inodes_per_group > 8 * fs->block_size)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: superblock: s_inodes_per_group %u is invalid",
					fs->name, fs->inodes_per_group);
	fs->n_groups = (uint32_t)((fs->blocks_count - fs->first_data_block + fs->blocks_per_group - 1) /
				  fs->blocks_per_group);
	if (fs->inodes_count < EXT4_ROOT_INO || fs->inodes_count > (uint64_t)fs->n_groups * fs->inodes_per_group)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: superblock: s_inodes_count %u does not fit %u groups of %u", fs->name,
					fs->inodes_count, fs->n_groups, fs->inodes_per_group);
	fs->first_meta_bg = get_le32(sb + SB_FIRST_META_BG);
	fs->backup_bgs[0] = get_le32(sb + SB_BACKUP_BGS);
	fs->backup_bgs[1] = get_le32(sb + SB_BACKUP_BGS + 4);
	return EFI_SUCCESS;
}

static EFI_STATUS parse_super(struct ext4_fs *fs, const uint8_t *sb)
{
	EFI_STATUS err;

	/* Not ext at all is no error: the loader probes every partition. */
	if (get_le16(sb + SB_MAGIC) != EXT4_SUPER_MAGIC) {
		log_debug("%s: superblock: magic %#x is not 0xef53: not ext2/3/4", fs->name, get_le16(sb + SB_MAGIC));
		return EFI_UNSUPPORTED;
	}
	fs->compat = get_le32(sb + SB_FEATURE_COMPAT);
	fs->incompat = get_le32(sb + SB_FEATURE_INCOMPAT);
	fs->ro_compat = get_le32(sb + SB_FEATURE_RO_COMPAT);
	fs->csum = fs->ro_compat & RO_COMPAT_METADATA_CSUM;
	err = check_sb_csum(fs, sb);
	if (err == EFI_SUCCESS)
		err = check_features(fs);
	if (err == EFI_SUCCESS)
		err = parse_sizes(fs, sb);
	if (err == EFI_SUCCESS)
		err = parse_geometry(fs, sb);
	if (err != EFI_SUCCESS)
		return err;
	fs->free_blocks = get_le32(sb + SB_FREE_BLOCKS_COUNT_LO);
	if (fs->incompat & INCOMPAT_64BIT)
		fs->free_blocks |= (uint64_t)get_le32(sb + SB_FREE_BLOCKS_COUNT_HI) << 32;
	fs->free_blocks = MIN(fs->free_blocks, fs->blocks_count);
	memcpy(fs->label, sb + SB_VOLUME_NAME, 16);
	fs->label[16] = '\0';
	return EFI_SUCCESS;
}

EFI_STATUS ext4_mount(ext4_read_fn read, void *ctx, uint64_t part_size, const char *name, struct ext4_fs **ret)
{
	_cleanup_free_ struct ext4_fs *fs = NULL;
	uint8_t sb[SB_SIZE];
	EFI_STATUS err;

	fs = mem_zalloc(sizeof(*fs));
	if (!fs)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", name);
	fs->read = read;
	fs->ctx = ctx;
	fs->part_size = part_size;
	fmt_snprintf(fs->name, sizeof(fs->name), "%s", name);
	if (part_size < SB_OFFSET + SB_SIZE) {
		log_debug("%s: %llu bytes, too small for an ext2/3/4 superblock", name, (unsigned long long)part_size);
		return EFI_UNSUPPORTED;
	}
	err = ext4_dev_read(fs, SB_OFFSET, sb, sizeof(sb));
	if (err != EFI_SUCCESS)
		return err;
	err = parse_super(fs, sb);
	if (err != EFI_SUCCESS)
		return err;
	fs->cache_slots = MAX(1u, MIN((unsigned)EXT4_FS_CACHE_SLOTS, EXT4_FS_CACHE_BYTES / fs->block_size));
	*ret = TAKE_PTR(fs);
	return EFI_SUCCESS;
}

void ext4_unmount(struct ext4_fs *fs)
{
	if (fs && fs->n_open) {
		/* A caller bug: freeing now would leave those handles dangling. */
		log_error("%s: unmount with %u files still open, volume kept", fs->name, fs->n_open);
		return;
	}
	if (fs)
		for (unsigned i = 0; i < EXT4_FS_CACHE_SLOTS; i++)
			mem_free(fs->cache[i].buf);
	mem_free(fs);
}

void ext4_volume_info(const struct ext4_fs *fs, struct ext4_volume_info *ret)
{
	*ret = (struct ext4_volume_info){
		.size = fs->blocks_count << fs->block_bits,
		.free = fs->free_blocks << fs->block_bits,
		.block_size = fs->block_size,
	};
	memcpy(ret->label, fs->label, sizeof(ret->label));
}
