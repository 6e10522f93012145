/* CRC-32 and the GPT writer/reader. Expected CRCs of the fixed layout below
 * were computed independently with Python's zlib.crc32 over the structure
 * as UEFI 2.10 §5.3.2 lays it out (uuid.UUID(...).bytes_le for GUIDs). */
#include "test.h"
#include "core/crc32.h"
#include "core/gpt.h"
#include <stdlib.h>

#define N_SECTORS 16384u

TEST(crc32_known_vectors)
{
	const char *fox = "The quick brown fox jumps over the lazy dog";

	CHECK_EQ(crc32(0, "123456789", 9), 0xcbf43926);
	CHECK_EQ(crc32(0, "", 0), 0);
	CHECK_EQ(crc32(0, fox, strlen(fox)), 0x414fa339);
	CHECK_EQ(crc32(crc32(0, fox, 10), fox + 10, strlen(fox) - 10), 0x414fa339);
}

TEST(gpt_guid_byte_order)
{
	static const uint8_t esp[16] = { 0x28, 0x73, 0x2a, 0xc1, 0x1f, 0xf8, 0xd2, 0x11,
					 0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b };
	static const uint8_t xbl[16] = { 0xff, 0xc2, 0x13, 0xbc, 0xe6, 0x59, 0x62, 0x42,
					 0xa3, 0x52, 0xb2, 0x75, 0xfd, 0x6f, 0x71, 0x72 };
	EFI_GUID a = GPT_TYPE_ESP, b = GPT_TYPE_XBOOTLDR, c;
	uint8_t out[16];

	guid_put(out, &a);
	CHECK_MEM(out, esp, 16);
	guid_put(out, &b);
	CHECK_MEM(out, xbl, 16);
	guid_get(xbl, &c);
	CHECK(guid_equal(&c, &b));
	CHECK(!guid_equal(&a, &b));
}

TEST(gpt_plan_aligns_to_mib)
{
	uint64_t sizes[2] = { 64ull << 20, (100ull << 20) + 1 };
	struct gpt_part p[2];
	uint64_t n;

	CHECK_EQ(gpt_plan(sizes, 2, 0, p, &n), EFI_SUCCESS);
	CHECK_EQ(p[0].first_lba, 2048);
	CHECK_EQ(p[0].last_lba, 2048 + 131072 - 1);
	CHECK_EQ(p[1].first_lba, 2048 + 131072);
	CHECK_EQ(p[1].last_lba, 2048 + 131072 + 206848 - 1); /* 101 MiB */
	CHECK_EQ(n, 2048 + 131072 + 206848 + 2048);
	CHECK_EQ(gpt_plan(sizes, 2, 1ull << 30, p, &n), EFI_SUCCESS);
	CHECK_EQ(n, (1ull << 30) / 512);
	sizes[1] = 0;
	CHECK_EQ(gpt_plan(sizes, 2, 0, p, &n), EFI_INVALID_PARAMETER);
	CHECK_LOG("partition 2");
	sizes[1] = UINT64_MAX;
	CHECK_EQ(gpt_plan(sizes, 2, 0, p, &n), EFI_INVALID_PARAMETER);
}

static struct gpt_part test_part(void)
{
	struct gpt_part p = {
		.type = GPT_TYPE_ESP,
		.guid = { 0x01020304, 0x0506, 0x0708, { 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x10 } },
		.first_lba = 2048,
		.last_lba = N_SECTORS - 1 - 2048,
		.name = "ESP",
	};
	return p;
}

static uint8_t *build_disk(struct gpt_part *parts, size_t n)
{
	struct gpt_disk d = {
		.n_sectors = N_SECTORS,
		.disk_guid = { 0x11111111, 0x2222, 0x3333, { 0x44, 0x55, 0x66, 0x77, 0x88, 0x99, 0xaa, 0xbb } },
		.parts = parts,
		.n_parts = n,
	};
	uint8_t *disk = calloc(N_SECTORS, 512);

	if (gpt_write(&d, disk, disk + (N_SECTORS - GPT_TAIL_SECTORS) * 512) != EFI_SUCCESS) {
		free(disk);
		return NULL;
	}
	return disk;
}

TEST(gpt_write_layout_and_crcs)
{
	struct gpt_part p = test_part();
	uint8_t *d = build_disk(&p, 1), *bh;

	CHECK(d != NULL);
	if (!d)
		return;
	/* Protective MBR: record 0 type 0xEE from LBA 1 over the rest of the disk. */
	CHECK_EQ(d[446 + 4], 0xee);
	CHECK_EQ(d[446 + 2], 0x02);
	CHECK_EQ(get_le32(d + 446 + 8), 1);
	CHECK_EQ(get_le32(d + 446 + 12), N_SECTORS - 1);
	CHECK_EQ(get_le16(d + 510), 0xaa55);
	/* Primary header. */
	CHECK_MEM(d + 512, "EFI PART", 8);
	CHECK_EQ(get_le32(d + 512 + 8), 0x00010000);
	CHECK_EQ(get_le32(d + 512 + 12), 92);
	CHECK_EQ(get_le64(d + 512 + 24), 1);
	CHECK_EQ(get_le64(d + 512 + 32), N_SECTORS - 1);
	CHECK_EQ(get_le64(d + 512 + 40), 34);
	CHECK_EQ(get_le64(d + 512 + 48), N_SECTORS - 34);
	CHECK_EQ(get_le64(d + 512 + 72), 2);
	CHECK_EQ(get_le32(d + 512 + 88), 0xe6e9a53e);
	CHECK_EQ(get_le32(d + 512 + 16), 0x242755fb);
	/* Entry 0: name "ESP" in UCS-2. */
	CHECK_EQ(get_le64(d + 1024 + 32), 2048);
	CHECK_MEM(d + 1024 + 56, "E\0S\0P\0\0\0", 8);
	/* Backup: entries at n-33, header at n-1 with the LBAs swapped. */
	bh = d + (N_SECTORS - 1) * 512;
	CHECK_MEM(d + (N_SECTORS - 33) * 512, d + 1024, 128 * 128);
	CHECK_EQ(get_le64(bh + 24), N_SECTORS - 1);
	CHECK_EQ(get_le64(bh + 32), 1);
	CHECK_EQ(get_le64(bh + 72), N_SECTORS - 33);
	CHECK_EQ(get_le32(bh + 16), 0x901240ce);
	free(d);
}

TEST(gpt_write_rejects_bad_partitions)
{
	struct gpt_part p[2] = { test_part(), test_part() };

	CHECK(build_disk(p, 2) == NULL);
	CHECK_LOG("partition 2 overlaps partition 1");
	p[0].first_lba = 33;
	CHECK(build_disk(p, 1) == NULL);
	CHECK_LOG("outside the usable LBAs");
	p[0] = test_part();
	p[0].last_lba = N_SECTORS - 33; /* the first backup entry sector */
	CHECK(build_disk(p, 1) == NULL);
	p[0] = test_part();
	p[0].name[0] = (char)0xc3;
	CHECK(build_disk(p, 1) == NULL);
	CHECK_LOG("not ASCII");
}

TEST(gpt_read_round_trip_and_corruption)
{
	struct gpt_part p[2] = { test_part(), test_part() }, got[4];
	struct gpt_disk disk = { .parts = got };
	uint8_t *d;
	EFI_GUID xbl = GPT_TYPE_XBOOTLDR;

	p[0].last_lba = 4095;
	p[1].type = xbl;
	p[1].first_lba = 4096;
	strcpy(p[1].name, "Linux Extended Boot");
	d = build_disk(p, 2);
	CHECK(d != NULL);
	if (!d)
		return;
	CHECK_EQ(gpt_read(d, N_SECTORS * 512, "img", &disk, 4), EFI_SUCCESS);
	CHECK_EQ(disk.n_parts, 2);
	CHECK(guid_equal(&got[1].type, &xbl));
	CHECK_EQ(got[1].first_lba, 4096);
	CHECK_STR(got[1].name, "Linux Extended Boot");
	CHECK(guid_equal(&got[0].guid, &p[0].guid));
	d[1024 + 40] ^= 1; /* an entry byte: the array CRC must catch it */
	CHECK_EQ(gpt_read(d, N_SECTORS * 512, "img", &disk, 4), EFI_CRC_ERROR);
	CHECK_LOG("img: GPT entry array at LBA 2: PartitionEntryArrayCRC32 mismatch");
	d[1024 + 40] ^= 1;
	d[512 + 40] ^= 1; /* a header byte */
	CHECK_EQ(gpt_read(d, N_SECTORS * 512, "img", &disk, 4), EFI_CRC_ERROR);
	CHECK_LOG("HeaderCRC32 mismatch");
	d[512 + 40] ^= 1;
	CHECK_EQ(gpt_read(d, (N_SECTORS - 1) * 512, "img", &disk, 4), EFI_VOLUME_CORRUPTED);
	d[510] = 0;
	CHECK_EQ(gpt_read(d, N_SECTORS * 512, "img", &disk, 4), EFI_UNSUPPORTED);
	free(d);
}

TEST(gpt_read_entry_from_the_head)
{
	struct gpt_part p[2] = { test_part(), test_part() };
	EFI_GUID esp = GPT_TYPE_ESP, xbl = GPT_TYPE_XBOOTLDR, got, uuid;
	EFI_GUID uuid1 = { 0x6e1d2a9c, 0x51f3, 0x4b8e, { 0x9a, 0x0d, 0x17, 0x2c, 0x44, 0x5b, 0x60, 0x01 } };
	uint8_t *d;

	p[0].last_lba = 4095;
	p[1].type = xbl;
	p[1].first_lba = 4096;
	p[1].guid = uuid1;
	d = build_disk(p, 2);
	CHECK(d != NULL);
	if (!d)
		return;
	/* only the first 34 sectors are read, the disk's size is known */
	CHECK_EQ(gpt_read_entry(d, 34 * 512, N_SECTORS, 0, "disk", &got, &uuid), EFI_SUCCESS);
	CHECK(guid_equal(&got, &esp));
	CHECK_EQ(gpt_read_entry(d, 34 * 512, N_SECTORS, 1, "disk", &got, &uuid), EFI_SUCCESS);
	CHECK(guid_equal(&got, &xbl));
	CHECK(guid_equal(&uuid, &uuid1));
	CHECK_MEM(d + 1024 + 128 + 16, "\x9c\x2a\x1d\x6e\xf3\x51\x8e\x4b\x9a\x0d\x17\x2c\x44\x5b\x60\x01", 16);
	CHECK_EQ(gpt_read_entry(d, 34 * 512, N_SECTORS, 2, "disk", &got, &uuid), EFI_SUCCESS); /* unused: zero GUID */
	CHECK_EQ(got.Data1, 0);
	CHECK_EQ(gpt_read_entry(d, 34 * 512, N_SECTORS, 128, "disk", &got, &uuid), EFI_NOT_FOUND);
	CHECK_EQ(gpt_read_entry(d, 33 * 512, N_SECTORS, 0, "disk", &got, &uuid), EFI_VOLUME_CORRUPTED);
	CHECK_LOG("disk: GPT entry array beyond the first 16896 bytes");
	d[1024 + 3] ^= 1; /* a type byte: the array CRC must catch it */
	CHECK_EQ(gpt_read_entry(d, 34 * 512, N_SECTORS, 0, "disk", &got, &uuid), EFI_CRC_ERROR);
	d[1024 + 3] ^= 1;
	CHECK_EQ(gpt_read_entry(d, 34 * 512, 40, 0, "disk", &got, &uuid),
		 EFI_VOLUME_CORRUPTED); /* LastUsableLBA past the disk */
	CHECK_EQ(gpt_read_entry(d, 512, N_SECTORS, 0, "disk", &got, &uuid), EFI_UNSUPPORTED);
	free(d);
}

/* The fuzz corpus's hand-made disks (tests/fuzz/mkseeds.py): a good one, and
 * entries outside the usable area or reversed, which gpt_read now refuses. */
TEST(gpt_read_corpus_disks)
{
	static const struct { const char *name; EFI_STATUS want; const char *msg;
	} cases[] = {
		{"two-partitions", EFI_SUCCESS, NULL},
		{"partition-past-usable", EFI_VOLUME_CORRUPTED,
		 "GPT entry 1: LBAs 34..99 outside the usable area 34..66"},
		{"partition-reversed", EFI_VOLUME_CORRUPTED, "GPT entry 1: LBAs 60..40 outside"},
		{"no-gpt", EFI_UNSUPPORTED, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char path[128];
		struct gpt_part parts[4];
		struct gpt_disk d = { .parts = parts };
		size_t len;
		uint8_t *buf;

		snprintf(path, sizeof(path), "tests/fuzz/corpus/gpt/%s", cases[i].name);
		buf = test_read_file(path, &len);
		CHECK(buf != NULL);
		if (!buf)
			continue;
		test_log_reset();
		CHECK_EQ(gpt_read(buf, len, "disk", &d, 4), cases[i].want);
		if (cases[i].msg)
			CHECK_LOG(cases[i].msg);
		if (cases[i].want == EFI_SUCCESS) {
			CHECK_EQ(d.n_parts, 2);
			CHECK_EQ(parts[1].first_lba, 51);
			CHECK_EQ(parts[1].last_lba, 66);
		}
		free(buf);
	}
}
