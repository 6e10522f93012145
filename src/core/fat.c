/* FAT12/16/32 files as disk extents (fat.h). Section numbers are those of the
 * FAT specification 1.03. Nothing here logs: every failure sends the caller
 * back to the firmware's driver, which reports what it finds. */
#include "fat.h"
#include "array.h"

#define DIRENT_SIZE 32
#define ATTR_VOLUME_ID 0x08
#define ATTR_DIRECTORY 0x10
#define ATTR_LONG_NAME 0x0f
#define LAST_LONG_ENTRY 0x40
#define LFN_CHARS 13
#define LFN_MAX_ENTRIES 20      /* 255 characters (§7) */
#define DIR_MAX_ENTRIES 65536   /* §6: a directory holds at most 65,536 entries */

static EFI_STATUS vol_read(const struct fat_vol *v, uint64_t offset, void *buf, size_t len)
{
	if (!range_ok(offset, len, v->size))
		return EFI_VOLUME_CORRUPTED;
	return v->read(v->ctx, offset, buf, len);
}

/* §3.1-§3.5: the BPB, the regions and the type, which only the count of
 * clusters decides. */
EFI_STATUS fat_mount(struct fat_vol *v, fat_read_fn read, void *ctx, uint64_t size)
{
	uint8_t bs[512];
	uint32_t bps, spc, reserved, nfats, root_entries, fat_sectors, total, root_sectors;
	uint64_t meta, fat_bytes_needed;
	EFI_STATUS err;

	*v = (struct fat_vol){ .read = read, .ctx = ctx, .size = size, .win_offset = UINT64_MAX };
	err = vol_read(v, 0, bs, sizeof(bs));
	if (err != EFI_SUCCESS)
		return err;
	bps = get_le16(bs + 11);
	spc = bs[13];
	reserved = get_le16(bs + 14);
	nfats = bs[16];
	root_entries = get_le16(bs + 17);
	total = get_le16(bs + 19) ? get_le16(bs + 19) : get_le32(bs + 32);
	fat_sectors = get_le16(bs + 22) ? get_le16(bs + 22) : get_le32(bs + 36);
	if (get_le16(bs + 510) != 0xaa55 || bps < 512 || bps > 4096 || !IS_POWER_OF_2(bps) || !IS_POWER_OF_2(spc) ||
	    reserved == 0 || nfats == 0 || fat_sectors == 0 || total == 0)
		return EFI_UNSUPPORTED;
	root_sectors = (root_entries * DIRENT_SIZE + bps - 1) / bps;
	meta = reserved + (uint64_t)nfats * fat_sectors + root_sectors;
	if (meta >= total || (uint64_t)total * bps > size)
		return EFI_UNSUPPORTED;
	v->sector_size = bps;
	v->cluster_size = bps * spc;
	v->clusters = (uint32_t)((total - meta) / spc);
	v->bits = v->clusters < 4085 ? 12 : v->clusters < 65525 ? 16 : 32;
	v->fat_offset = (uint64_t)reserved * bps;
	v->root_offset = v->fat_offset + (uint64_t)nfats * fat_sectors * bps;
	v->root_entries = root_entries;
	v->data_offset = meta * bps;
	v->root_cluster = get_le32(bs + 44);
	fat_bytes_needed = ((uint64_t)v->clusters + 2) * v->bits / 8 + 1;
	if (v->clusters == 0 || fat_bytes_needed > (uint64_t)fat_sectors * bps ||
	    (v->bits == 32) != (root_entries == 0))
		return EFI_UNSUPPORTED;
	if (v->bits == 32 && (v->root_cluster < 2 || v->root_cluster > v->clusters + 1))
		return EFI_VOLUME_CORRUPTED;
	return EFI_SUCCESS;
}

static bool cluster_ok(const struct fat_vol *v, uint32_t cl)
{
	return cl >= 2 && cl <= v->clusters + 1;
}

/* §4: the entry of cluster @cl, through a window of FAT_WINDOW bytes that
 * starts on a 512-byte boundary, so any 2- or 4-byte entry fits in it. */
static EFI_STATUS fat_next(struct fat_vol *v, uint32_t cl, uint32_t *ret)
{
	uint64_t off = v->fat_offset + (v->bits == 12 ? cl + cl / 2 : (uint64_t)cl * (v->bits / 8));
	const uint8_t *p;
	uint32_t e;

	if (v->win_offset == UINT64_MAX || off < v->win_offset || off + 4 > v->win_offset + v->win_len) {
		uint64_t start = ALIGN_DOWN(off, 512);
		size_t len = (size_t)MIN((uint64_t)FAT_WINDOW, v->size - start);
		EFI_STATUS err = vol_read(v, start, v->win, len);

		if (err != EFI_SUCCESS)
			return err;
		v->win_offset = start;
		v->win_len = len;
		if (off + 4 > start + len)
			return EFI_VOLUME_CORRUPTED; /* the FAT ends at the volume's last bytes: never mkfs' layout */
	}
	p = v->win + (off - v->win_offset);
	if (v->bits == 12)
		e = cl & 1 ? get_le16(p) >> 4 : get_le16(p) & 0xfff;
	else
		e = v->bits == 16 ? get_le16(p) : get_le32(p) & 0x0fffffff;
	*ret = e;
	return EFI_SUCCESS;
}

_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "run32() compares FAT32 entries as loaded");

/* FAT32 entries from @p on that say "the next cluster" from @next on, at most
 * @max: two entries per 8-byte load. The loaders are built -Oz, where each
 * get_le32() would be a call, and this loop is most of a large file's map
 * (docs/bench.md). The four high bits of an entry are reserved (§4). */
static uint64_t run32(const uint8_t *p, const uint8_t *end, uint32_t next, uint64_t max)
{
	uint64_t n = 0, want = next | (uint64_t)(next + 1) << 32, pair;
	uint32_t one;

	for (; n + 2 <= max && end - p >= 8; p += 8, n += 2, want += 0x200000002ull) {
		__builtin_memcpy(&pair, p, 8);
		if ((pair & 0x0fffffff0fffffffull) != want)
			break;
	}
	for (; n < max && end - p >= 4; p += 4, n++) { /* the odd one, or the pair that broke */
		__builtin_memcpy(&one, p, 4);
		if ((one & 0x0fffffff) != next + n)
			break;
	}
	return n;
}

/* How many clusters after @cl follow it on disk, at most @max, as far as the
 * window shows: FAT16/32 entries that each say "the next cluster". A file
 * written in one go is one such run, so this loop, not fat_next(), is where a
 * 256 MiB initrd's 65,536 entries are read. */
static uint64_t window_run(const struct fat_vol *v, uint32_t cl, uint64_t max)
{
	uint64_t off = v->fat_offset + (uint64_t)cl * (v->bits / 8), n = 0;
	const uint8_t *p, *end = v->win + v->win_len;

	if (v->bits == 12 || v->win_offset == UINT64_MAX || off < v->win_offset || off - v->win_offset >= v->win_len)
		return 0;
	p = v->win + (off - v->win_offset);
	if (v->bits == 32)
		return run32(p, end, cl + 1, max);
	for (; n < max && p + 2 <= end && get_le16(p) == cl + n + 1; p += 2)
		n++;
	return n;
}

static uint64_t cluster_offset(const struct fat_vol *v, uint32_t cl)
{
	return v->data_offset + (uint64_t)(cl - 2) * v->cluster_size;
}

/* The next cluster of a chain that must go on. */
static EFI_STATUS chain_step(struct fat_vol *v, uint32_t *cl)
{
	uint32_t next;
	EFI_STATUS err = fat_next(v, *cl, &next);

	if (err != EFI_SUCCESS)
		return err;
	if (!cluster_ok(v, next))
		return EFI_VOLUME_CORRUPTED;
	*cl = next;
	return EFI_SUCCESS;
}

static uint32_t fold(uint32_t c)
{
	return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c;
}

/* @name (@len bytes) against @n UCS-2 characters @u, ASCII case folded. A
 * name beyond ASCII never matches: the firmware's collation decides those. */
static bool name_eq16(const char *name, size_t len, const uint16_t *u, size_t n)
{
	if (len != n)
		return false;
	for (size_t i = 0; i < len; i++)
		if ((uint8_t)name[i] >= 0x80 || fold((uint8_t)name[i]) != fold(u[i]))
			return false;
	return true;
}

/* §6.1: "NAME    EXT" as NAME.EXT. A name with bytes of the OEM code page
 * beyond ASCII (0x05 at the start stands for 0xE5) is returned empty, which
 * matches nothing: only the firmware knows its code page. */
static size_t short_name(const uint8_t *d, uint16_t out[12])
{
	size_t n = 0;
	int end;

	for (int i = 0; i < 11; i++)
		if (d[i] >= 0x80 || d[0] == 0x05)
			return 0;

	for (end = 8; end > 0 && d[end - 1] == ' '; end--)
		;
	for (int i = 0; i < end; i++)
		out[n++] = d[i];
	for (end = 11; end > 8 && d[end - 1] == ' '; end--)
		;
	if (end > 8)
		out[n++] = '.';
	for (int i = 8; i < end; i++)
		out[n++] = d[i];
	return n;
}

static uint8_t short_checksum(const uint8_t *d)
{
	uint8_t sum = 0;

	for (int i = 0; i < 11; i++)
		sum = (uint8_t)(((sum & 1) << 7) + (sum >> 1) + d[i]);
	return sum;
}

/* §7: long-name entries come before their short entry, last part first. */
struct lfn {
	uint16_t chars[LFN_MAX_ENTRIES * LFN_CHARS];
	unsigned expect;        /* the next sequence number, 0: none in progress */
	uint8_t checksum;
};

static void lfn_add(struct lfn *l, const uint8_t *d)
{
	static const uint8_t pos[LFN_CHARS] = { 1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30 };
	unsigned ord = d[0] & 0x1f;

	if (d[0] & LAST_LONG_ENTRY) {
		l->expect = ord;
		l->checksum = d[13];
		if (ord == 0 || ord > LFN_MAX_ENTRIES)
			l->expect = 0;
		else
			memset(l->chars, 0, sizeof(l->chars));
	} else if (ord != l->expect - 1 || d[13] != l->checksum) {
		l->expect = 0;
		return;
	} else {
		l->expect = ord;
	}
	if (l->expect)
		for (unsigned i = 0; i < LFN_CHARS; i++)
			l->chars[(ord - 1) * LFN_CHARS + i] = get_le16(d + pos[i]);
}

static size_t lfn_len(const struct lfn *l)
{
	size_t n = 0;

	while (n < ARRAY_SIZE(l->chars) && l->chars[n] != 0 && l->chars[n] != 0xffff)
		n++;
	return n;
}

/* One directory entry against @name: the long name if a whole one precedes
 * it, and always the short one. */
static bool entry_matches(struct lfn *l, const uint8_t *d, const char *name, size_t len)
{
	uint16_t sn[12];
	bool lfn_ok = l->expect == 1 && l->checksum == short_checksum(d);

	l->expect = 0;
	return (lfn_ok && name_eq16(name, len, l->chars, lfn_len(l))) || name_eq16(name, len, sn, short_name(d, sn));
}

struct dir_walk {
	struct lfn lfn;
	const char *name;
	size_t len;
	uint8_t found[DIRENT_SIZE];
};

/* Entries of one run of directory bytes: 1 found, 0 go on, -1 the end marker. */
static int scan_run(struct fat_vol *v, struct dir_walk *w, uint64_t off, uint64_t bytes, EFI_STATUS *err)
{
	uint8_t sec[512];

	for (uint64_t done = 0; done < bytes; done += sizeof(sec)) {
		*err = vol_read(v, off + done, sec, sizeof(sec));
		if (*err != EFI_SUCCESS)
			return -1;
		for (size_t i = 0; i < sizeof(sec) && done + i < bytes; i += DIRENT_SIZE) {
			const uint8_t *d = sec + i;

			if (d[0] == 0)
				return -1;
			if (d[0] == 0xe5)
				w->lfn.expect = 0;
			else if ((d[11] & 0x3f) == ATTR_LONG_NAME)
				lfn_add(&w->lfn, d);
			else if (d[11] & ATTR_VOLUME_ID)
				w->lfn.expect = 0;
			else if (entry_matches(&w->lfn, d, w->name, w->len)) {
				memcpy(w->found, d, DIRENT_SIZE);
				return 1;
			}
		}
	}
	return 0;
}

/* The entry named @name in the directory starting at cluster @dir (0: the
 * FAT12/16 root region). */
static EFI_STATUS dir_find(struct fat_vol *v, uint32_t dir, const char *name, size_t len, uint8_t ret[DIRENT_SIZE])
{
	struct dir_walk w = { .name = name, .len = len };
	EFI_STATUS err = EFI_SUCCESS;
	int r;

	if (dir == 0) {
		r = scan_run(v, &w, v->root_offset, (uint64_t)v->root_entries * DIRENT_SIZE, &err);
	} else {
		uint64_t max = (uint64_t)DIR_MAX_ENTRIES * DIRENT_SIZE / v->cluster_size + 1;

		for (uint64_t i = 0;; i++) {
			r = scan_run(v, &w, cluster_offset(v, dir), v->cluster_size, &err);
			if (r != 0 || i + 1 >= max)
				break;
			err = fat_next(v, dir, &dir);
			if (err != EFI_SUCCESS || !cluster_ok(v, dir))
				break; /* the end of the chain (or a bad one): not found */
		}
	}
	if (r == 1) {
		memcpy(ret, w.found, DIRENT_SIZE);
		return EFI_SUCCESS;
	}
	return err != EFI_SUCCESS ? err : EFI_NOT_FOUND;
}

static EFI_STATUS lookup(struct fat_vol *v, const char *path, uint8_t ret[DIRENT_SIZE])
{
	uint32_t dir = v->bits == 32 ? v->root_cluster : 0;
	bool any = false;

	while (*path) {
		size_t len = 0;
		EFI_STATUS err;

		while (*path == '/' || *path == '\\')
			path++;
		while (path[len] && path[len] != '/' && path[len] != '\\')
			len++;
		if (len == 0)
			break;
		if (path[0] == '.' && (len == 1 || (len == 2 && path[1] == '.')))
			return EFI_NOT_FOUND; /* the firmware resolves those */
		if (any && !(ret[11] & ATTR_DIRECTORY))
			return EFI_NOT_FOUND;
		if (any) {
			dir = (uint32_t)get_le16(ret + 26) | (v->bits == 32 ? (uint32_t)get_le16(ret + 20) << 16 : 0);
			if (!cluster_ok(v, dir))
				return EFI_VOLUME_CORRUPTED;
		}
		err = dir_find(v, dir, path, len, ret);
		if (err != EFI_SUCCESS)
			return err;
		any = true;
		path += len;
	}
	return any && !(ret[11] & ATTR_DIRECTORY) ? EFI_SUCCESS : EFI_NOT_FOUND;
}

static EFI_STATUS extent_add(struct fat_extent **ext, size_t *n, uint64_t off, uint64_t len)
{
	if (*n && (*ext)[*n - 1].offset + (*ext)[*n - 1].length == off) {
		(*ext)[*n - 1].length += len;
		return EFI_SUCCESS;
	}
	return array_append(ext, n, sizeof(**ext), &(struct fat_extent){ off, len });
}

EFI_STATUS fat_map(struct fat_vol *v, const char *path, uint64_t size, struct fat_extent **ret, size_t *ret_n)
{
	struct fat_extent *ext = NULL;
	size_t n = 0;
	uint8_t d[DIRENT_SIZE];
	uint64_t need, left = size;
	uint32_t cl;
	EFI_STATUS err;

	*ret = NULL;
	*ret_n = 0;
	err = lookup(v, path, d);
	if (err != EFI_SUCCESS)
		return err;
	if (get_le32(d + 28) != size)
		return EFI_NOT_FOUND;
	cl = (uint32_t)get_le16(d + 26) | (v->bits == 32 ? (uint32_t)get_le16(d + 20) << 16 : 0);
	need = (size + v->cluster_size - 1) / v->cluster_size;
	if (need > v->clusters)
		return EFI_VOLUME_CORRUPTED;
	for (uint64_t i = 0; i < need;) {
		uint64_t run, len;

		if (!cluster_ok(v, cl)) {
			err = EFI_VOLUME_CORRUPTED;
		} else {
			/* cl + run - 1 stays a valid cluster: clusters + 1 - cl entries at most follow cl */
			run = 1 + window_run(v, cl, MIN(need - i - 1, (uint64_t)v->clusters + 1 - cl));
			len = MIN(left, run * v->cluster_size);
			err = extent_add(&ext, &n, cluster_offset(v, cl), len);
			i += run;
			left -= len;
			cl += (uint32_t)(run - 1);
			if (err == EFI_SUCCESS && i < need)
				err = chain_step(v, &cl);
		}
		if (err != EFI_SUCCESS) {
			mem_free(ext);
			return err;
		}
	}
	*ret = ext;
	*ret_n = n;
	return EFI_SUCCESS;
}

EFI_STATUS fat_extents_read(const struct fat_vol *v, const struct fat_extent *ext, size_t n, uint64_t offset,
			    void *buf, uint64_t len)
{
	uint8_t *out = buf;

	for (size_t i = 0; i < n && len; i++) {
		if (offset >= ext[i].length) {
			offset -= ext[i].length;
			continue;
		}
		while (offset < ext[i].length && len) {
			/* The whole run in one request, as the firmware's own FAT driver
			 * asks Disk I/O for a contiguous run (docs/design.md "Reading
			 * FAT files"); a 32-bit size_t alone splits it. */
			size_t piece = (size_t)MIN(MIN(ext[i].length - offset, len), (uint64_t)SIZE_MAX);
			EFI_STATUS err = vol_read(v, ext[i].offset + offset, out, piece);

			if (err != EFI_SUCCESS)
				return err;
			out += piece;
			offset += piece;
			len -= piece;
		}
		offset = 0;
	}
	return len ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
}
