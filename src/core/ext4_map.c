/* ext4 block mapping: logical file block -> physical run, through an extent
 * tree (kernel Documentation/filesystems/ext4/ifork.rst) or an ext2/ext3
 * indirect block map (direct, single, double, triple). Every answer is a
 * run as long as one node shows, so readers can issue large reads; holes
 * come back as runs with pblk 0 and a length up to the next mapped block.
 * Nodes are cached per level in the file handle and checked once per read. */
#include "ext4_priv.h"
#include "crc32c.h"
#include "log.h"

#define EXT_HDR_SIZE 12u
#define EXT_ENTRY_SIZE 12u
#define LBLK_LIMIT (1ull << 32) /* logical block numbers are 32-bit */

EFI_STATUS ext4_cache_block(struct ext4_file *f, struct ext4_block_cache *c, uint64_t blk, const char *what,
			    bool *ret_fresh)
{
	EFI_STATUS err;

	*ret_fresh = false;
	if (c->buf && c->blk == blk && blk != 0)
		return EFI_SUCCESS;
	if (!c->buf) {
		c->buf = mem_alloc(f->fs->block_size);
		if (!c->buf)
			return log_error_status(EFI_OUT_OF_RESOURCES, "%s: inode %u: out of memory", f->fs->name,
						f->inode.ino);
	}
	c->blk = 0;
	err = ext4_read_block(f->fs, blk, c->buf, what);
	if (err != EFI_SUCCESS)
		return err;
	c->blk = blk;
	*ret_fresh = true;
	return EFI_SUCCESS;
}

/* Header of a node @size bytes long at depth @depth (-1: the root, any depth
 * up to EXT4_EXT_MAX_DEPTH). A child whose depth is not its parent's minus
 * one is how a loop (an index pointing back up) shows. */
static EFI_STATUS ext_check_header(struct ext4_file *f, const uint8_t *h, size_t size, int depth, uint64_t blk)
{
	struct ext4_fs *fs = f->fs;
	uint16_t entries = get_le16(h + 2), max = get_le16(h + 4), d = get_le16(h + 6);

	if (get_le16(h) != EXT4_EXT_MAGIC)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: extent header at block %llu: bad magic %#x", fs->name,
					f->inode.ino, (unsigned long long)blk, get_le16(h));
	if (entries > max || EXT_HDR_SIZE + (size_t)max * EXT_ENTRY_SIZE > size)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: extent header at block %llu: %u entries, max %u do not fit",
					fs->name, f->inode.ino, (unsigned long long)blk, entries, max);
	if ((depth < 0 && d > EXT4_EXT_MAX_DEPTH) || (depth >= 0 && d != depth))
		return log_error_status(
			EFI_VOLUME_CORRUPTED,
			"%s: inode %u: extent block %llu: depth %u, expected %s%d (loop or corrupt tree)", fs->name,
			f->inode.ino, (unsigned long long)blk, d, depth < 0 ? "<= " : "",
			depth < 0 ? (int)EXT4_EXT_MAX_DEPTH : depth);
	return EFI_SUCCESS;
}

/* metadata_csum: crc32c(inode seed, node up to the tail after eh_max entries). */
static EFI_STATUS ext_check_tail(struct ext4_file *f, const uint8_t *node, uint64_t blk)
{
	size_t off = EXT_HDR_SIZE + (size_t)get_le16(node + 4) * EXT_ENTRY_SIZE;
	uint32_t calc;

	if (!f->fs->csum)
		return EFI_SUCCESS;
	if (off + 4 > f->fs->block_size)
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: extent block %llu: no room for the checksum", f->fs->name,
					f->inode.ino, (unsigned long long)blk);
	calc = crc32c_update(f->inode.csum_seed, node, off);
	if (calc != get_le32(node + off))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: extent block %llu: checksum mismatch (%#x, computed %#x)",
					f->fs->name, f->inode.ino, (unsigned long long)blk, get_le32(node + off), calc);
	return EFI_SUCCESS;
}

/* Index of the last entry starting at or before @lblk (-1: none), checking
 * that starts ascend; *@next is the following entry's start or @limit. */
static EFI_STATUS ext_find(struct ext4_file *f, const uint8_t *node, uint64_t lblk, uint64_t limit, int *ret,
			   uint64_t *next)
{
	uint16_t n = get_le16(node + 2);
	uint64_t prev = 0;

	*ret = -1;
	*next = limit;
	for (uint16_t i = 0; i < n; i++) {
		uint64_t start = get_le32(node + EXT_HDR_SIZE + (size_t)i * EXT_ENTRY_SIZE);

		if (i > 0 && start <= prev)
			return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: extent entries out of order",
						f->fs->name, f->inode.ino);
		prev = start;
		if (start > lblk) {
			*next = MIN(start, limit);
			break;
		}
		*ret = i;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS ext_leaf(struct ext4_file *f, const uint8_t *e, uint64_t lblk, uint64_t next, struct ext4_run *ret)
{
	struct ext4_fs *fs = f->fs;
	uint64_t start = get_le32(e), len = get_le16(e + 4);
	uint64_t pblk = get_le32(e + 8) | (uint64_t)get_le16(e + 6) << 32;
	bool unwritten = len > EXT4_EXT_UNWRITTEN_MAX;

	if (unwritten)
		len -= EXT4_EXT_UNWRITTEN_MAX;
	if (lblk >= start + len) { /* in the gap after this extent */
		*ret = (struct ext4_run){ 0, next - lblk };
		return EFI_SUCCESS;
	}
	if (start + len > next)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: extent at block %llu overlaps the next",
					fs->name, f->inode.ino, (unsigned long long)start);
	if (pblk == 0 || pblk >= fs->blocks_count || len > fs->blocks_count - pblk)
		return log_error_status(
			EFI_VOLUME_CORRUPTED,
			"%s: inode %u: extent %llu+%llu points past the end of the file system (%llu blocks)", fs->name,
			f->inode.ino, (unsigned long long)pblk, (unsigned long long)len,
			(unsigned long long)fs->blocks_count);
	*ret = (struct ext4_run){ unwritten ? 0 : pblk + (lblk - start), start + len - lblk };
	return EFI_SUCCESS;
}

static EFI_STATUS ext_child(struct ext4_file *f, unsigned level, uint64_t blk, int depth, const uint8_t **ret)
{
	struct ext4_block_cache *c = &f->map[level];
	bool fresh;
	EFI_STATUS err = ext4_cache_block(f, c, blk, "extent tree", &fresh);

	if (err != EFI_SUCCESS)
		return err;
	if (fresh) {
		err = ext_check_header(f, c->buf, f->fs->block_size, depth, blk);
		if (err == EFI_SUCCESS)
			err = ext_check_tail(f, c->buf, blk);
		if (err != EFI_SUCCESS) {
			c->blk = 0;
			return err;
		}
	}
	*ret = c->buf;
	return EFI_SUCCESS;
}

static EFI_STATUS ext_map(struct ext4_file *f, uint64_t lblk, struct ext4_run *ret)
{
	const uint8_t *node = f->inode.raw + I_BLOCK;
	uint64_t limit = LBLK_LIMIT, blk = 0;
	EFI_STATUS err = ext_check_header(f, node, I_BLOCK_SIZE, -1, 0);
	int depth = get_le16(node + 6);

	if (err != EFI_SUCCESS)
		return err;
	for (unsigned level = 0;; level++) {
		int i;

		err = ext_find(f, node, lblk, limit, &i, &limit);
		if (err != EFI_SUCCESS)
			return err;
		if (i < 0) { /* before the first entry, or an empty node */
			*ret = (struct ext4_run){ 0, limit - lblk };
			return EFI_SUCCESS;
		}
		const uint8_t *e = node + EXT_HDR_SIZE + (size_t)i * EXT_ENTRY_SIZE;
		if (depth == 0)
			return ext_leaf(f, e, lblk, limit, ret);
		blk = get_le32(e + 4) | (uint64_t)get_le16(e + 8) << 32;
		depth--;
		err = ext_child(f, level, blk, depth, &node);
		if (err != EFI_SUCCESS)
			return err;
	}
}

/* Indirect maps: a run continues while the next slot of the same pointer
 * array is the next physical block (or, for holes, also zero). */
static struct ext4_run ind_run(const uint8_t *slots, size_t idx, size_t n)
{
	uint64_t first = get_le32(slots + 4 * idx), len = 1;

	while (idx + len < n) {
		uint64_t p = get_le32(slots + 4 * (idx + len));
		if (first == 0 ? p != 0 : p != first + len)
			break;
		len++;
	}
	return (struct ext4_run){ first, len };
}

static EFI_STATUS ind_check(struct ext4_file *f, const struct ext4_run *run)
{
	struct ext4_fs *fs = f->fs;

	if (run->pblk != 0 && (run->pblk >= fs->blocks_count || run->len > fs->blocks_count - run->pblk))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: block map entry %llu points past the end of the file system",
					fs->name, f->inode.ino, (unsigned long long)run->pblk);
	return EFI_SUCCESS;
}

/* Walks @levels of pointer blocks from @ptr, which maps a span of
 * apb^levels blocks; @rel is the block's offset in that span. */
static EFI_STATUS ind_walk(struct ext4_file *f, uint64_t ptr, unsigned levels, uint64_t span, uint64_t rel,
			   struct ext4_run *ret)
{
	uint64_t apb = f->fs->block_size / 4, idx = 0;
	const uint8_t *slots = NULL;

	for (unsigned level = 0; level < levels; level++) {
		bool fresh;
		if (ptr == 0) { /* a missing pointer block: its whole span is a hole */
			*ret = (struct ext4_run){ 0, span - rel };
			return EFI_SUCCESS;
		}
		EFI_STATUS err = ext4_cache_block(f, &f->map[level], ptr, "indirect block", &fresh);
		if (err != EFI_SUCCESS)
			return err;
		span /= apb;
		slots = f->map[level].buf;
		idx = rel / span;
		ptr = get_le32(slots + 4 * idx);
		rel %= span;
	}
	*ret = ind_run(slots, (size_t)idx, (size_t)apb);
	return ind_check(f, ret);
}

static EFI_STATUS ind_map(struct ext4_file *f, uint64_t lblk, struct ext4_run *ret)
{
	const uint8_t *slots = f->inode.raw + I_BLOCK;
	uint64_t apb = f->fs->block_size / 4, span = 1, rel = lblk;

	if (lblk < EXT4_NDIR_BLOCKS) {
		*ret = ind_run(slots, (size_t)lblk, EXT4_NDIR_BLOCKS);
		return ind_check(f, ret);
	}
	rel -= EXT4_NDIR_BLOCKS;
	for (unsigned levels = 1; levels <= EXT4_IND_LEVELS; levels++) {
		span *= apb;
		if (rel < span)
			return ind_walk(f, get_le32(slots + 4 * (EXT4_NDIR_BLOCKS + levels - 1)), levels, span, rel,
					ret);
		rel -= span;
	}
	*ret = (struct ext4_run){ 0, UINT64_MAX - lblk }; /* past the triple indirect span */
	return EFI_SUCCESS;
}

/**
 * ext4_map() - map logical block @lblk of @f to a run of physical blocks.
 * Return: EFI_SUCCESS with *@ret (pblk 0: a hole of ret->len blocks), or
 * EFI_VOLUME_CORRUPTED / a read error.
 */
EFI_STATUS ext4_map(struct ext4_file *f, uint64_t lblk, struct ext4_run *ret)
{
	if (lblk >= LBLK_LIMIT) {
		*ret = (struct ext4_run){ 0, UINT64_MAX - lblk };
		return EFI_SUCCESS;
	}
	if (f->inode.flags & INODE_FL_EXTENTS)
		return ext_map(f, lblk, ret);
	return ind_map(f, lblk, ret);
}
