/* ext4 directories, read linearly: classic dirent blocks (also the leaves of
 * hashed/htree directories, whose index blocks look like one empty entry),
 * checked against their metadata_csum tail, and inline-data directories
 * (kernel Documentation/filesystems/ext4/directory.rst, inlinedata.rst).
 * A readdir cookie is a byte position in the directory; for inline
 * directories 0 and 1 stand for the "." and ".." they do not store. */
#include "ext4_priv.h"
#include "crc32c.h"
#include "log.h"

#define DIRENT_HDR 8u
#define DIRENT_MIN 12u       /* header + a 1..4 byte name, 4-aligned */
#define DIR_TAIL_SIZE 12u
#define DIR_TAIL_FT 0xdeu    /* det_reserved_ft of the checksum tail */
#define INLINE_DOTDOT_SIZE 4u
#define DIR_MAX_SIZE (1ull << 32) /* larger is corruption, not a directory */

/* Decoded rec_len; 64 KiB blocks store 65536 as 65535 or 0 (e2fsprogs
 * ext2fs_get_rec_len()). */
static uint32_t rec_len(const uint8_t *d, uint32_t block_size)
{
	uint32_t len = get_le16(d + 4);

	if (block_size < 65536)
		return len;
	if (len == 65535 || len == 0)
		return block_size;
	return (len & 65532) | ((len & 3) << 16);
}

static bool is_csum_tail(const uint8_t *t)
{
	return get_le32(t) == 0 && get_le16(t + 4) == DIR_TAIL_SIZE && t[6] == 0 && t[7] == DIR_TAIL_FT;
}

static EFI_STATUS dir_check_csum(struct ext4_file *dir, const uint8_t *buf, uint64_t pblk)
{
	struct ext4_fs *fs = dir->fs;
	const uint8_t *tail = buf + fs->block_size - DIR_TAIL_SIZE;
	uint32_t calc;

	if (!fs->csum)
		return EFI_SUCCESS;
	if (!is_csum_tail(tail)) {
		/* htree index blocks carry a dx_tail instead, and only empty
		 * entries for a linear reader. */
		if (dir->inode.flags & INODE_FL_INDEX)
			return EFI_SUCCESS;
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: directory block %llu: no checksum tail",
					fs->name, dir->inode.ino, (unsigned long long)pblk);
	}
	calc = crc32c_update(dir->inode.csum_seed, buf, fs->block_size - DIR_TAIL_SIZE);
	if (calc != get_le32(tail + 8))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: inode %u: directory block %llu: checksum mismatch (%#x, computed %#x)",
					fs->name, dir->inode.ino, (unsigned long long)pblk, get_le32(tail + 8), calc);
	return EFI_SUCCESS;
}

/* The record at @pos of a @size-byte area (a block, or an inline region)
 * must lie inside it and hold its name (Linux ext4_check_dir_entry()). */
static EFI_STATUS dirent_check(struct ext4_file *dir, const uint8_t *d, size_t pos, size_t size, uint32_t len)
{
	struct ext4_fs *fs = dir->fs;
	uint32_t name_len = d[6], ino = get_le32(d);

	if (len < DIRENT_MIN || len % 4 != 0 || len > size - pos || len < ALIGN_UP(DIRENT_HDR + name_len, 4) ||
	    ino > fs->inodes_count || (ino != 0 && name_len == 0))
		return log_error_status(
			EFI_VOLUME_CORRUPTED,
			"%s: inode %u: directory entry at %zu: rec_len %u, name_len %u, inode %u overrun or invalid",
			fs->name, dir->inode.ino, pos, len, name_len, ino);
	return EFI_SUCCESS;
}

static void dirent_fill(const struct ext4_fs *fs, const uint8_t *d, struct ext4_dirent *ret)
{
	ret->ino = get_le32(d);
	ret->type = (fs->incompat & INCOMPAT_FILETYPE) && d[7] <= EXT4_FT_SYMLINK ? (enum ext4_file_type)d[7]
										     : EXT4_FT_UNKNOWN;
	memcpy(ret->name, d + DIRENT_HDR, d[6]);
	ret->name[d[6]] = '\0';
}

/* Scans the area @buf of @size bytes, which starts at directory position
 * @base, for the first used entry at or after *@cookie. Records are walked
 * from the start so a stale cookie cannot land inside one. */
static EFI_STATUS dir_scan(struct ext4_file *dir, const uint8_t *buf, size_t size, bool inline_area, uint64_t base,
			   uint64_t *cookie, struct ext4_dirent *ret)
{
	uint32_t bs = inline_area ? 0 : dir->fs->block_size;

	for (size_t pos = 0; pos < size;) {
		const uint8_t *d = buf + pos;
		uint32_t len;
		EFI_STATUS err;

		if (size - pos < DIRENT_HDR)
			return log_error_status(
				EFI_VOLUME_CORRUPTED,
				"%s: inode %u: directory entry at %zu: %zu bytes left, too few for an entry",
				dir->fs->name, dir->inode.ino, pos, size - pos);
		len = rec_len(d, bs);
		err = dirent_check(dir, d, pos, size, len);
		if (err != EFI_SUCCESS)
			return err;
		if (base + pos >= *cookie && get_le32(d) != 0) {
			dirent_fill(dir->fs, d, ret);
			*cookie = base + pos + len;
			return EFI_SUCCESS;
		}
		pos += len;
	}
	*cookie = MAX(*cookie, base + size);
	return EFI_NOT_FOUND;
}

static EFI_STATUS dir_next_block(struct ext4_file *dir, uint64_t *cookie, struct ext4_dirent *ret)
{
	struct ext4_fs *fs = dir->fs;
	uint64_t lblk = *cookie >> fs->block_bits;
	struct ext4_run run;
	bool fresh;
	EFI_STATUS err = ext4_map(dir, lblk, &run);

	if (err != EFI_SUCCESS)
		return err;
	if (run.pblk == 0) { /* a hole: nothing there, skip it whole */
		*cookie = run.len > (UINT64_MAX >> fs->block_bits) - lblk ? UINT64_MAX
									  : (lblk + run.len) << fs->block_bits;
		return EFI_NOT_FOUND;
	}
	err = ext4_cache_block(dir, &dir->dir, run.pblk, "directory", &fresh);
	if (err == EFI_SUCCESS && fresh) {
		err = dir_check_csum(dir, dir->dir.buf, run.pblk);
		if (err != EFI_SUCCESS)
			dir->dir.blk = 0;
	}
	if (err != EFI_SUCCESS)
		return err;
	return dir_scan(dir, dir->dir.buf, fs->block_size, false, lblk << fs->block_bits, cookie, ret);
}

/* Inline directory: the parent's inode number in 4 bytes, then entries in
 * the rest of i_block and, separately, in the system.data xattr. */
static EFI_STATUS dir_next_inline(struct ext4_file *dir, uint64_t *cookie, struct ext4_dirent *ret)
{
	const uint8_t *s = dir->inline_data;
	EFI_STATUS err;

	if (*cookie < 2) {
		*ret = (struct ext4_dirent){ .ino = *cookie == 0 ? dir->inode.ino : get_le32(s), .type = EXT4_FT_DIR };
		memcpy(ret->name, "..", *cookie + 1);
		ret->name[*cookie + 1] = '\0';
		*cookie = *cookie == 0 ? 1 : INLINE_DOTDOT_SIZE;
		return EFI_SUCCESS;
	}
	err = dir_scan(dir, s + INLINE_DOTDOT_SIZE, I_BLOCK_SIZE - INLINE_DOTDOT_SIZE, true, INLINE_DOTDOT_SIZE,
		       cookie, ret);
	if (err != EFI_NOT_FOUND || dir->inline_size <= I_BLOCK_SIZE)
		return err;
	return dir_scan(dir, s + I_BLOCK_SIZE, dir->inline_size - I_BLOCK_SIZE, true, I_BLOCK_SIZE, cookie, ret);
}

EFI_STATUS ext4_readdir(struct ext4_file *dir, uint64_t *cookie, struct ext4_dirent *ret)
{
	uint64_t size = dir->inode.size;

	if ((dir->inode.mode & S_IFMT) != S_IFDIR)
		return log_error_status(EFI_INVALID_PARAMETER, "%s: inode %u: readdir on a non-directory",
					dir->fs->name, dir->inode.ino);
	if (dir->inline_data)
		return dir_next_inline(dir, cookie, ret);
	if (size > DIR_MAX_SIZE)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: inode %u: directory size %llu is implausible",
					dir->fs->name, dir->inode.ino, (unsigned long long)size);
	while (*cookie < size) {
		EFI_STATUS err = dir_next_block(dir, cookie, ret);
		if (err != EFI_NOT_FOUND)
			return err;
	}
	return EFI_NOT_FOUND;
}

/**
 * ext4_dir_lookup() - inode number of entry @name (@name_len bytes, no
 * NUL needed) in directory @dir.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND, or an error from reading @dir.
 */
EFI_STATUS ext4_dir_lookup(struct ext4_file *dir, const char *name, size_t name_len, uint32_t *ret_ino)
{
	struct ext4_dirent *d = mem_alloc(sizeof(*d));
	uint64_t cookie = 0;
	EFI_STATUS err;

	if (!d)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", dir->fs->name);
	while ((err = ext4_readdir(dir, &cookie, d)) == EFI_SUCCESS)
		if (strlen(d->name) == name_len && memcmp(d->name, name, name_len) == 0) {
			*ret_ino = d->ino;
			break;
		}
	mem_free(d);
	return err;
}
