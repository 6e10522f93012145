/* ext4 file handles: opening by inode, inline content (inline_data files and
 * directories, fast symlinks), reading in the largest physically contiguous
 * runs straight into the caller's buffer, and stat. */
#include "ext4_priv.h"
#include "log.h"

#define I_ATIME_EXTRA 0x8c
#define I_CTIME_EXTRA 0x84
#define I_CRTIME_EXTRA 0x94

static bool is_fast_symlink(const struct ext4_inode *inode)
{
	/* Linux and e2fsprogs keep targets shorter than i_block in it and never
	 * set EXTENTS_FL on such an inode. */
	return (inode->mode & S_IFMT) == S_IFLNK && inode->size < I_BLOCK_SIZE && !(inode->flags & INODE_FL_EXTENTS) &&
	       !(inode->flags & INODE_FL_INLINE_DATA);
}

/* inline_data inodes and fast symlinks: copy the content out of the inode
 * (i_block, then the system.data xattr) so reads need no more checks. */
static EFI_STATUS load_inline(struct ext4_file *f)
{
	struct ext4_fs *fs = f->fs;
	const uint8_t *extra = NULL;
	size_t extra_size = 0, total;
	bool is_dir = (f->inode.mode & S_IFMT) == S_IFDIR;

	if (f->inode.flags & INODE_FL_INLINE_DATA) {
		EFI_STATUS err = ext4_inline_data(fs, &f->inode, &extra, &extra_size);
		if (err != EFI_SUCCESS)
			return err;
	} else if (!is_fast_symlink(&f->inode))
		return EFI_SUCCESS;
	total = I_BLOCK_SIZE + extra_size;
	f->inline_data = mem_alloc(total);
	if (!f->inline_data)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: inode %u: out of memory", fs->name, f->inode.ino);
	memcpy(f->inline_data, f->inode.raw + I_BLOCK, I_BLOCK_SIZE);
	if (extra_size)
		memcpy(f->inline_data + I_BLOCK_SIZE, extra, extra_size);
	/* A file larger than its inline data reads as zeros past it, as in
	 * Linux (ext4_read_inline_page()); mke2fs -d makes such files. */
	f->inline_size = is_dir ? total : (size_t)MIN(f->inode.size, (uint64_t)total);
	return EFI_SUCCESS;
}

/**
 * ext4_file_new() - load inode @ino of @fs into a new handle.
 * Return: EFI_SUCCESS, or the error of loading or checking the inode.
 */
EFI_STATUS ext4_file_new(struct ext4_fs *fs, uint32_t ino, struct ext4_file **ret)
{
	struct ext4_file *f = mem_zalloc(sizeof(*f));
	EFI_STATUS err;

	if (!f)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", fs->name);
	f->fs = fs;
	err = ext4_inode_load(fs, ino, &f->inode);
	if (err != EFI_SUCCESS) {
		mem_free(f);
		return err;
	}
	fs->n_open++;
	err = load_inline(f);
	if (err != EFI_SUCCESS) {
		ext4_close(f);
		return err;
	}
	*ret = f;
	return EFI_SUCCESS;
}

EFI_STATUS ext4_open_inode(struct ext4_fs *fs, uint32_t ino, struct ext4_file **ret)
{
	return ext4_file_new(fs, ino, ret);
}

void ext4_close(struct ext4_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(f->map); i++)
		mem_free(f->map[i].buf);
	mem_free(f->dir.buf);
	mem_free(f->inline_data);
	ext4_inode_free(&f->inode);
	f->fs->n_open--;
	mem_free(f);
}

uint64_t ext4_file_size(const struct ext4_file *f)
{
	return f->inode.size;
}

bool ext4_file_is_dir(const struct ext4_file *f)
{
	return (f->inode.mode & S_IFMT) == S_IFDIR;
}

/* Reads @len bytes of block-mapped content at @pos: holes are zeroed, each
 * physically contiguous stretch (also across extents) is one device read. */
static EFI_STATUS read_mapped(struct ext4_file *f, uint64_t pos, uint8_t *out, size_t len)
{
	struct ext4_fs *fs = f->fs;
	uint32_t bs = fs->block_size;

	while (len > 0) {
		uint64_t lblk = pos >> fs->block_bits, in_blk = pos & (bs - 1);
		uint64_t want = (in_blk + len + bs - 1) >> fs->block_bits; /* blocks still needed */
		struct ext4_run run;
		EFI_STATUS err = ext4_map(f, lblk, &run);

		if (err != EFI_SUCCESS)
			return err;
		run.len = MIN(run.len, want);
		while (run.pblk != 0 && run.len < want) {
			struct ext4_run next;
			err = ext4_map(f, lblk + run.len, &next);
			if (err != EFI_SUCCESS)
				return err;
			if (next.pblk != run.pblk + run.len)
				break;
			run.len += MIN(next.len, want - run.len);
		}
		size_t n = (size_t)MIN((uint64_t)len, (run.len << fs->block_bits) - in_blk);
		const uint8_t *blk;
		if (run.pblk == 0)
			memset(out, 0, n);
		else if (in_blk + n < bs) { /* part of one block (small files): through the cache */
			if ((err = ext4_block_get(fs, run.pblk, "file data", &blk)) != EFI_SUCCESS)
				return err;
			memcpy(out, blk + in_blk, n);
		} else if ((err = ext4_dev_read(fs, (run.pblk << fs->block_bits) + in_blk, out, n)) != EFI_SUCCESS)
			return err;
		pos += n;
		out += n;
		len -= n;
	}
	return EFI_SUCCESS;
}

EFI_STATUS ext4_read(struct ext4_file *f, uint64_t offset, void *buf, size_t len, size_t *ret_read)
{
	uint16_t fmt = f->inode.mode & S_IFMT;
	EFI_STATUS err;

	*ret_read = 0;
	if (fmt != S_IFREG && fmt != S_IFLNK)
		return log_error_status(EFI_INVALID_PARAMETER,
					"%s: inode %u: not a regular file or symlink, cannot read", f->fs->name,
					f->inode.ino);
	if (offset >= f->inode.size)
		return EFI_SUCCESS;
	len = (size_t)MIN((uint64_t)len, f->inode.size - offset);
	if (f->inline_data) {
		size_t n = offset < f->inline_size ? MIN(len, f->inline_size - (size_t)offset) : 0;
		memcpy(buf, f->inline_data + (n ? offset : 0), n);
		memset((uint8_t *)buf + n, 0, len - n);
	} else if ((err = read_mapped(f, offset, buf, len)) != EFI_SUCCESS)
		return err;
	*ret_read = len;
	return EFI_SUCCESS;
}

/* Seconds of an inode time: 32-bit signed base plus, when the inode is
 * large enough, two epoch bits from the _extra field (inodes.rst). */
static int64_t inode_time(const struct ext4_file *f, unsigned off, unsigned extra_off, uint32_t *ret_nsec)
{
	const uint8_t *raw = f->inode.raw;
	uint32_t extra_isize = f->fs->inode_size > EXT4_GOOD_OLD_INODE_SIZE ? get_le16(raw + I_EXTRA_ISIZE) : 0;
	int64_t t = (int32_t)get_le32(raw + off);

	if (ret_nsec)
		*ret_nsec = 0;
	if (extra_off + 4 <= EXT4_GOOD_OLD_INODE_SIZE + extra_isize) {
		uint32_t extra = get_le32(raw + extra_off);
		t += (int64_t)(extra & 3) << 32;
		if (ret_nsec)
			*ret_nsec = extra >> 2;
	}
	return t;
}

void ext4_stat(const struct ext4_file *f, struct ext4_stat *ret)
{
	const struct ext4_fs *fs = f->fs;
	const uint8_t *raw = f->inode.raw;
	uint32_t extra_isize = fs->inode_size > EXT4_GOOD_OLD_INODE_SIZE ? get_le16(raw + I_EXTRA_ISIZE) : 0;
	uint64_t blocks = get_le32(raw + I_BLOCKS_LO);
	uint32_t mtime_nsec;
	int64_t mtime = inode_time(f, I_MTIME, I_MTIME_EXTRA, &mtime_nsec);

	if (fs->ro_compat & RO_COMPAT_HUGE_FILE)
		blocks |= (uint64_t)get_le16(raw + I_BLOCKS_HIGH) << 32;
	/* huge_file: with the inode flag, i_blocks counts file system blocks. */
	blocks <<= (f->inode.flags & INODE_FL_HUGE_FILE) && (fs->ro_compat & RO_COMPAT_HUGE_FILE) ? fs->block_bits : 9;
	*ret = (struct ext4_stat){
		.ino = f->inode.ino,
		.mode = f->inode.mode,
		.type = ext4_mode_type(f->inode.mode),
		.links = get_le16(raw + I_LINKS_COUNT),
		.size = f->inode.size,
		.blocks_size = blocks,
		.atime = inode_time(f, I_ATIME, I_ATIME_EXTRA, NULL),
		.ctime = inode_time(f, I_CTIME, I_CTIME_EXTRA, NULL),
		.mtime = mtime,
		.mtime_nsec = mtime_nsec,
	};
	if (I_CRTIME + 4 <= EXT4_GOOD_OLD_INODE_SIZE + extra_isize)
		ret->crtime = inode_time(f, I_CRTIME, I_CRTIME_EXTRA, NULL);
}
