/* GPT writer, planner and reader. Layout (UEFI 2.10 §5.3.1): LBA 0 protective
 * MBR, LBA 1 primary header, LBA 2-33 entry array (128 x 128 bytes); the
 * backup array and header mirror it at the end of the disk, with MyLBA and
 * AlternateLBA swapped (§5.3.2). CRC32s cover the 92-byte header (with its
 * own CRC field zeroed) and the whole entry array. */
#include "gpt.h"
#include "crc32.h"
#include "log.h"

#define GPT_SIGNATURE "EFI PART"
#define GPT_REVISION 0x00010000u
#define GPT_HEADER_SIZE 92u
#define MBR_SIGNATURE 0xaa55u
#define MBR_PART0 446u
#define MBR_TYPE_GPT_PROTECTIVE 0xeeu

void guid_put(uint8_t *p, const EFI_GUID *g)
{
	put_le32(p, g->Data1);
	put_le16(p + 4, g->Data2);
	put_le16(p + 6, g->Data3);
	memcpy(p + 8, g->Data4, 8);
}

void guid_get(const uint8_t *p, EFI_GUID *g)
{
	g->Data1 = get_le32(p);
	g->Data2 = get_le16(p + 4);
	g->Data3 = get_le16(p + 6);
	memcpy(g->Data4, p + 8, 8);
}

bool guid_equal(const EFI_GUID *a, const EFI_GUID *b)
{
	uint8_t x[16], y[16];

	guid_put(x, a);
	guid_put(y, b);
	return memcmp(x, y, 16) == 0;
}

EFI_STATUS gpt_plan(const uint64_t *sizes, size_t n, uint64_t min_disk_bytes, struct gpt_part *parts,
		    uint64_t *ret_n_sectors)
{
	const uint64_t limit = UINT64_MAX / 4 / GPT_SECTOR_SIZE; /* far beyond any image */
	uint64_t lba = GPT_ALIGN_SECTORS;

	if (n > GPT_N_ENTRIES)
		return log_error_status(EFI_INVALID_PARAMETER, "GPT: %zu partitions, at most %u", n, GPT_N_ENTRIES);
	for (size_t i = 0; i < n; i++) {
		uint64_t sectors = ALIGN_UP(sizes[i] / GPT_SECTOR_SIZE + (sizes[i] % GPT_SECTOR_SIZE != 0),
					    (uint64_t)GPT_ALIGN_SECTORS);
		if (sizes[i] == 0 || sizes[i] / GPT_SECTOR_SIZE > limit || lba > limit - sectors)
			return log_error_status(EFI_INVALID_PARAMETER,
						"GPT: partition %zu: size %llu bytes is unusable", i + 1,
						(unsigned long long)sizes[i]);
		parts[i].first_lba = lba;
		parts[i].last_lba = lba + sectors - 1;
		lba += sectors;
	}
	/* The backup entries and header need 33 sectors; keep the end aligned too. */
	lba += GPT_ALIGN_SECTORS;
	if (min_disk_bytes / GPT_SECTOR_SIZE > limit)
		return log_error_status(EFI_INVALID_PARAMETER, "GPT: disk size %llu bytes is unusable",
					(unsigned long long)min_disk_bytes);
	*ret_n_sectors = MAX(lba, ALIGN_UP(min_disk_bytes, (uint64_t)GPT_SECTOR_SIZE) / GPT_SECTOR_SIZE);
	return EFI_SUCCESS;
}

static EFI_STATUS gpt_check_parts(const struct gpt_disk *d)
{
	uint64_t first = GPT_HEAD_SECTORS, last = d->n_sectors - GPT_TAIL_SECTORS - 1;

	if (d->n_parts > GPT_N_ENTRIES)
		return log_error_status(EFI_INVALID_PARAMETER, "GPT: %zu partitions, at most %u", d->n_parts,
					GPT_N_ENTRIES);
	for (size_t i = 0; i < d->n_parts; i++) {
		const struct gpt_part *p = &d->parts[i];
		if (p->first_lba < first || p->last_lba > last || p->first_lba > p->last_lba)
			return log_error_status(
				EFI_INVALID_PARAMETER,
				"GPT: partition %zu (LBA %llu-%llu) is outside the usable LBAs %llu-%llu", i + 1,
				(unsigned long long)p->first_lba, (unsigned long long)p->last_lba,
				(unsigned long long)first, (unsigned long long)last);
		for (size_t k = 0; k < i; k++)
			if (p->first_lba <= d->parts[k].last_lba && d->parts[k].first_lba <= p->last_lba)
				return log_error_status(EFI_INVALID_PARAMETER,
							"GPT: partition %zu overlaps partition %zu", i + 1, k + 1);
		for (size_t c = 0; p->name[c]; c++)
			if (c >= GPT_NAME_MAX || (uint8_t)p->name[c] >= 0x80)
				return log_error_status(
					EFI_INVALID_PARAMETER,
					"GPT: partition %zu: name is not ASCII of at most %u characters", i + 1,
					GPT_NAME_MAX);
	}
	return EFI_SUCCESS;
}

static void gpt_put_entries(const struct gpt_disk *d, uint8_t *entries)
{
	memset(entries, 0, GPT_ENTRIES_SECTORS * GPT_SECTOR_SIZE);
	for (size_t i = 0; i < d->n_parts; i++) {
		const struct gpt_part *p = &d->parts[i];
		uint8_t *e = entries + i * GPT_ENTRY_SIZE;

		guid_put(e, &p->type);
		guid_put(e + 16, &p->guid);
		put_le64(e + 32, p->first_lba);
		put_le64(e + 40, p->last_lba);
		put_le64(e + 48, p->attributes);
		for (size_t c = 0; p->name[c] && c < GPT_NAME_MAX; c++)
			put_le16(e + 56 + 2 * c, (uint8_t)p->name[c]); /* ASCII is UCS-2 widened */
	}
}

static void gpt_put_header(const struct gpt_disk *d, uint8_t *h, uint64_t my_lba, uint64_t alt_lba,
			   uint64_t entries_lba, uint32_t entries_crc)
{
	memset(h, 0, GPT_SECTOR_SIZE);
	memcpy(h, GPT_SIGNATURE, 8);
	put_le32(h + 8, GPT_REVISION);
	put_le32(h + 12, GPT_HEADER_SIZE);
	put_le64(h + 24, my_lba);
	put_le64(h + 32, alt_lba);
	put_le64(h + 40, GPT_HEAD_SECTORS);
	put_le64(h + 48, d->n_sectors - GPT_TAIL_SECTORS - 1);
	guid_put(h + 56, &d->disk_guid);
	put_le64(h + 72, entries_lba);
	put_le32(h + 80, GPT_N_ENTRIES);
	put_le32(h + 84, GPT_ENTRY_SIZE);
	put_le32(h + 88, entries_crc);
	put_le32(h + 16, crc32(0, h, GPT_HEADER_SIZE));
}

/* §5.2.3: one partition record of type 0xEE covering the disk from LBA 1,
 * its size clamped to 0xffffffff; CHS start 0x000200, CHS end 0xffffff. */
static void gpt_put_pmbr(const struct gpt_disk *d, uint8_t *mbr)
{
	uint8_t *r = mbr + MBR_PART0;

	memset(mbr, 0, GPT_SECTOR_SIZE);
	r[1] = 0x00, r[2] = 0x02, r[3] = 0x00;
	r[4] = MBR_TYPE_GPT_PROTECTIVE;
	r[5] = r[6] = r[7] = 0xff;
	put_le32(r + 8, 1);
	put_le32(r + 12, (uint32_t)MIN(d->n_sectors - 1, (uint64_t)UINT32_MAX));
	put_le16(mbr + 510, MBR_SIGNATURE);
}

EFI_STATUS gpt_write(const struct gpt_disk *d, uint8_t *head, uint8_t *tail)
{
	const uint64_t last = d->n_sectors - 1;
	uint8_t *entries = head + 2 * GPT_SECTOR_SIZE;
	uint32_t entries_crc;
	EFI_STATUS err;

	if (d->n_sectors < GPT_HEAD_SECTORS + GPT_TAIL_SECTORS + 1)
		return log_error_status(EFI_INVALID_PARAMETER, "GPT: a disk of %llu sectors is too small",
					(unsigned long long)d->n_sectors);
	err = gpt_check_parts(d);
	if (EFI_ERROR(err))
		return err;
	gpt_put_pmbr(d, head);
	gpt_put_entries(d, entries);
	entries_crc = crc32(0, entries, GPT_ENTRIES_SECTORS * GPT_SECTOR_SIZE);
	gpt_put_header(d, head + GPT_SECTOR_SIZE, 1, last, 2, entries_crc);
	memcpy(tail, entries, GPT_ENTRIES_SECTORS * GPT_SECTOR_SIZE);
	gpt_put_header(d, tail + GPT_ENTRIES_SECTORS * GPT_SECTOR_SIZE, last, 1, last - GPT_ENTRIES_SECTORS,
		       entries_crc);
	return EFI_SUCCESS;
}

struct gpt_header_view {
	uint64_t my_lba, alt_lba, first_usable, last_usable, entries_lba;
	uint32_t n_entries, entry_size, entries_crc;
	EFI_GUID disk_guid;
};

/* §5.3.2 "GPT Header": signature, size, CRC (over HeaderSize bytes with the
 * CRC field read as 0), MyLBA, and the entry array's place and CRC. */
static EFI_STATUS gpt_read_header(const uint8_t *buf, uint64_t n_sectors, uint64_t lba, const char *name,
				  struct gpt_header_view *v)
{
	const uint8_t *h = buf + lba * GPT_SECTOR_SIZE;
	uint8_t copy[GPT_SECTOR_SIZE];
	uint32_t size = get_le32(h + 12);
	uint64_t array_bytes;

	if (memcmp(h, GPT_SIGNATURE, 8) != 0)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: no GPT header signature at LBA %llu", name,
					(unsigned long long)lba);
	if (size < GPT_HEADER_SIZE || size > GPT_SECTOR_SIZE)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: GPT header at LBA %llu: HeaderSize %u", name,
					(unsigned long long)lba, size);
	memcpy(copy, h, size);
	put_le32(copy + 16, 0);
	if (crc32(0, copy, size) != get_le32(h + 16))
		return log_error_status(EFI_CRC_ERROR, "%s: GPT header at LBA %llu: HeaderCRC32 mismatch", name,
					(unsigned long long)lba);
	v->my_lba = get_le64(h + 24);
	v->alt_lba = get_le64(h + 32);
	v->first_usable = get_le64(h + 40);
	v->last_usable = get_le64(h + 48);
	guid_get(h + 56, &v->disk_guid);
	v->entries_lba = get_le64(h + 72);
	v->n_entries = get_le32(h + 80);
	v->entry_size = get_le32(h + 84);
	v->entries_crc = get_le32(h + 88);
	array_bytes = (uint64_t)v->n_entries * v->entry_size;
	if (v->my_lba != lba || v->first_usable > v->last_usable || v->last_usable >= n_sectors ||
	    v->entry_size < GPT_ENTRY_SIZE || v->entry_size % 8 || v->n_entries > 4096 || v->entries_lba >= n_sectors ||
	    !range_ok(v->entries_lba * GPT_SECTOR_SIZE, array_bytes, n_sectors * GPT_SECTOR_SIZE))
		return log_error_status(EFI_VOLUME_CORRUPTED,
					"%s: GPT header at LBA %llu: inconsistent MyLBA or entry array", name,
					(unsigned long long)lba);
	if (crc32(0, buf + v->entries_lba * GPT_SECTOR_SIZE, array_bytes) != v->entries_crc)
		return log_error_status(EFI_CRC_ERROR,
					"%s: GPT entry array at LBA %llu: PartitionEntryArrayCRC32 mismatch", name,
					(unsigned long long)v->entries_lba);
	return EFI_SUCCESS;
}

static EFI_STATUS gpt_read_entries(const uint8_t *buf, const struct gpt_header_view *v, const char *name,
				   struct gpt_disk *ret, size_t max_parts)
{
	static const EFI_GUID unused = { 0 };

	ret->n_parts = 0;
	for (uint32_t i = 0; i < v->n_entries && ret->n_parts < max_parts; i++) {
		const uint8_t *e = buf + v->entries_lba * GPT_SECTOR_SIZE + (uint64_t)i * v->entry_size;
		struct gpt_part *p = &ret->parts[ret->n_parts];

		guid_get(e, &p->type);
		if (guid_equal(&p->type, &unused))
			continue;
		guid_get(e + 16, &p->guid);
		p->first_lba = get_le64(e + 32);
		p->last_lba = get_le64(e + 40);
		p->attributes = get_le64(e + 48);
		/* §5.3.3: a partition lies in the usable area, FirstLBA <= LastLBA. */
		if (p->first_lba < v->first_usable || p->first_lba > p->last_lba || p->last_lba > v->last_usable)
			return log_error_status(EFI_VOLUME_CORRUPTED,
						"%s: GPT entry %u: LBAs %llu..%llu outside the usable area %llu..%llu",
						name, i + 1, (unsigned long long)p->first_lba,
						(unsigned long long)p->last_lba, (unsigned long long)v->first_usable,
						(unsigned long long)v->last_usable);
		for (size_t c = 0; c <= GPT_NAME_MAX; c++) {
			uint16_t ch = c < GPT_NAME_MAX ? get_le16(e + 56 + 2 * c) : 0;
			p->name[c] = ch < 0x80 ? (char)ch : '?';
			if (!ch)
				break;
		}
		ret->n_parts++;
	}
	return EFI_SUCCESS;
}

EFI_STATUS gpt_read(const uint8_t *buf, size_t len, const char *name, struct gpt_disk *ret, size_t max_parts)
{
	uint64_t n_sectors = len / GPT_SECTOR_SIZE;
	struct gpt_header_view primary, backup;
	EFI_STATUS err;

	if (n_sectors < GPT_HEAD_SECTORS + GPT_TAIL_SECTORS + 1 || get_le16(buf + 510) != MBR_SIGNATURE ||
	    buf[MBR_PART0 + 4] != MBR_TYPE_GPT_PROTECTIVE || memcmp(buf + GPT_SECTOR_SIZE, GPT_SIGNATURE, 8) != 0)
		return EFI_UNSUPPORTED;
	err = gpt_read_header(buf, n_sectors, 1, name, &primary);
	if (EFI_ERROR(err))
		return err;
	if (primary.alt_lba != n_sectors - 1)
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: GPT AlternateLBA %llu is not the last sector %llu",
					name, (unsigned long long)primary.alt_lba, (unsigned long long)(n_sectors - 1));
	err = gpt_read_header(buf, n_sectors, primary.alt_lba, name, &backup);
	if (EFI_ERROR(err))
		return err;
	if (backup.alt_lba != 1 || backup.entries_crc != primary.entries_crc ||
	    !guid_equal(&backup.disk_guid, &primary.disk_guid))
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: backup GPT header does not match the primary", name);
	ret->n_sectors = n_sectors;
	ret->disk_guid = primary.disk_guid;
	return gpt_read_entries(buf, &primary, name, ret, max_parts);
}

EFI_STATUS gpt_read_entry(const uint8_t *buf, size_t len, uint64_t n_sectors, uint32_t index, const char *name,
			  EFI_GUID *ret_type, EFI_GUID *ret_guid)
{
	const uint8_t *e;
	const uint8_t *h = buf + GPT_SECTOR_SIZE;
	struct gpt_header_view v;
	uint64_t entries_lba;
	EFI_STATUS err;

	if (len < 2 * GPT_SECTOR_SIZE || memcmp(h, GPT_SIGNATURE, 8) != 0)
		return EFI_UNSUPPORTED;
	/* gpt_read_header() reads the entry array: it must lie in what was read */
	entries_lba = get_le64(h + 72);
	if (entries_lba > len / GPT_SECTOR_SIZE ||
	    !range_ok(entries_lba * GPT_SECTOR_SIZE, (uint64_t)get_le32(h + 80) * get_le32(h + 84), len))
		return log_error_status(EFI_VOLUME_CORRUPTED, "%s: GPT entry array beyond the first %zu bytes", name,
					len);
	err = gpt_read_header(buf, n_sectors, 1, name, &v);
	if (EFI_ERROR(err))
		return err;
	if (index >= v.n_entries)
		return EFI_NOT_FOUND;
	e = buf + v.entries_lba * GPT_SECTOR_SIZE + (uint64_t)index * v.entry_size;
	guid_get(e, ret_type);
	guid_get(e + 16, ret_guid);
	return EFI_SUCCESS;
}
