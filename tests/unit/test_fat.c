/* FAT extents (src/core/fat.c): real FAT12, FAT16 and FAT32 images made by
 * mkfs.fat and mtools; every mapped file read back and compared with the
 * file mtools copied in; the extents of a fragmented file against mshowfat's
 * cluster list; names long, short and in another case; damaged images, each
 * with its status. The images are built in a fresh directory under /tmp. */
#include "test.h"
#include "core/fat.h"
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

struct img {
	uint8_t *mem;
	size_t size;
	unsigned n_reads;
};

static EFI_STATUS img_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct img *im = ctx;

	im->n_reads++;
	if (offset > im->size || len > im->size - offset)
		return EFI_DEVICE_ERROR;
	memcpy(buf, im->mem + offset, len);
	return EFI_SUCCESS;
}

static char workdir[64];

static int sh(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Random files, the same for every image: name, size. */
static const struct {
	const char *name;
	size_t size;
} files[] = {
	{ "loader/entries/debian.conf", 97 },
	{ "debian/vmlinuz", 300 * 1024 + 5 },
	{ "EFI/Linux/Debian GNU Linux 6.12 with a long name.efi", 70000 },
	{ "EFI/BOOT/BOOTX64.EFI", 4096 },
	{ "empty", 0 },
	{ "one-cluster-exactly", 2048 },
};

static void remove_workdir(void)
{
	sh("rm -rf %s", workdir);
}

static const char *dir(void)
{
	if (!workdir[0]) {
		snprintf(workdir, sizeof(workdir), "/tmp/handoff-fat-XXXXXX");
		if (!mkdtemp(workdir) ||
		    sh("cd %s && mkdir -p src/loader/entries src/debian 'src/EFI/Linux' src/EFI/BOOT", workdir) != 0)
			test_fail(__FILE__, __LINE__, "cannot make %s", workdir);
		atexit(remove_workdir);
		for (size_t i = 0; i < ARRAY_SIZE(files); i++)
			sh("head -c %zu /dev/urandom > '%s/src/%s'", files[i].size, workdir, files[i].name);
	}
	return workdir;
}

/* mkfs.fat with @opts on an image of @kib KiB, the files copied in; a
 * fragmented 200,000-byte "frag" made by deleting every other small file. */
static bool make_image(struct img *im, const char *name, const char *opts, unsigned kib)
{
	const char *d = dir();
	char path[256], fsinfo_reset[128] = "";

	/* FAT32: FSInfo's next-free hint (FAT spec §5, 512-byte sectors here)
	 * forgotten, so that mcopy fills the holes and "frag" is fragmented */
	if (strstr(opts, "-F 32") && !strstr(opts, "-S"))
		snprintf(fsinfo_reset, sizeof(fsinfo_reset),
			 "printf '\\377\\377\\377\\377' | dd of=%s.img bs=1 seek=1004 conv=notrunc 2>/dev/null &&",
			 name);

	snprintf(path, sizeof(path), "%s/%s.img", d, name);
	if (sh("cd %s && rm -f %s.img && /usr/sbin/mkfs.fat -C %s %s.img %u >/dev/null && "
	       "export MTOOLS_SKIP_CHECK=1 && mcopy -s -i %s.img src/* :: && "
	       "for i in $(seq 10 40); do head -c 3000 /dev/urandom > s$i; done && mcopy -i %s.img s?? :: && "
	       "mdel -i %s.img $(seq -f ::/s%%g 10 2 40) && %s head -c 200000 /dev/urandom > frag && "
	       "mcopy -i %s.img frag ::/frag",
	       d, name, opts, name, kib, name, name, name, fsinfo_reset, name) != 0) {
		test_fail(__FILE__, __LINE__, "cannot build %s", path);
		return false;
	}
	*im = (struct img){ 0 };
	im->mem = test_read_file(path, &im->size);
	return im->mem != NULL;
}

static void check_file(struct fat_vol *v, const char *path, const char *host)
{
	char hp[512];
	size_t len;
	uint8_t *want, *got;
	struct fat_extent *ext;
	size_t n;
	unsigned reads;

	snprintf(hp, sizeof(hp), "%s/%s", dir(), host);
	want = test_read_file(hp, &len);
	if (!want) {
		test_fail(__FILE__, __LINE__, "cannot read %s", hp);
		return;
	}
	got = malloc(len + 1);
	CHECK_EQ(fat_map(v, path, len, &ext, &n), EFI_SUCCESS);
	reads = ((struct img *)v->ctx)->n_reads;
	CHECK_EQ(fat_extents_read(v, ext, n, 0, got, len), EFI_SUCCESS);
	CHECK_EQ(((struct img *)v->ctx)->n_reads - reads, n); /* one request per extent */
	if (memcmp(got, want, len) != 0)
		test_fail(__FILE__, __LINE__, "%s: bytes differ", path);
	if (len > 1000) { /* a piece across the middle */
		memset(got, 0, len);
		CHECK_EQ(fat_extents_read(v, ext, n, 333, got, len - 666), EFI_SUCCESS);
		CHECK_MEM(got, want + 333, len - 666);
	}
	CHECK_EQ(fat_extents_read(v, ext, n, len, got, 1), EFI_INVALID_PARAMETER);
	free(ext);
	free(got);
	free(want);
}

static void check_image(const char *name, const char *opts, unsigned kib, unsigned bits)
{
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));

	if (!make_image(&im, name, opts, kib))
		return;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_SUCCESS);
	CHECK_EQ(v->bits, bits);
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char host[256];

		snprintf(host, sizeof(host), "src/%s", files[i].name);
		check_file(v, files[i].name, host);
	}
	check_file(v, "/DEBIAN/VMLINUZ", "src/debian/vmlinuz");
	check_file(v, "\\efi\\linux\\debian gnu linux 6.12 WITH A LONG NAME.EFI",
		   "src/EFI/Linux/Debian GNU Linux 6.12 with a long name.efi");
	check_file(v, "EFI/Linux/DEBIAN~1.EFI", "src/EFI/Linux/Debian GNU Linux 6.12 with a long name.efi");
	check_file(v, "//frag", "frag");
	check_file(v, "s11", "s11");
	free(v);
	free(im.mem);
}

/* Requests of a fake disk: where and how long, nothing copied. */
struct req_log {
	uint64_t offset[4], len[4];
	unsigned n;
};

static EFI_STATUS log_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct req_log *l = ctx;

	(void)buf;
	if (l->n == ARRAY_SIZE(l->offset))
		return EFI_DEVICE_ERROR;
	l->offset[l->n] = offset;
	l->len[l->n++] = len;
	return EFI_SUCCESS;
}

/* Requests per run, not per 64 MiB: four per 256 MiB initrd cost 1-3 ms
 * under TCG (docs/bench.md); a 32-bit size_t alone may split a run. */
TEST(fat_each_run_is_one_request_whatever_its_length)
{
	static uint8_t sink;
	struct req_log l = { 0 };
	struct fat_vol v = { .read = log_read, .ctx = &l, .size = 1ull << 40 };
	const struct fat_extent ext[] = { { 1 << 20, 300ull << 20 }, { 400ull << 20, 5 } };

	CHECK_EQ(fat_extents_read(&v, ext, 2, 0, &sink, (300ull << 20) + 5), EFI_SUCCESS);
	CHECK_EQ(l.n, 2);
	CHECK_EQ(l.offset[0], 1 << 20);
	CHECK_EQ(l.len[0], 300ull << 20);
	CHECK_EQ(l.offset[1], 400ull << 20);
	CHECK_EQ(l.len[1], 5);
	l.n = 0; /* from the middle of the first run into the second */
	CHECK_EQ(fat_extents_read(&v, ext, 2, 100ull << 20, &sink, (200ull << 20) + 2), EFI_SUCCESS);
	CHECK_EQ(l.n, 2);
	CHECK_EQ(l.offset[0], 101ull << 20);
	CHECK_EQ(l.len[0], 200ull << 20);
	CHECK_EQ(l.len[1], 2);
}

TEST(fat_fat12_files_read_back)
{
	check_image("fat12", "-F 12 -s 4", 4096, 12);
}

TEST(fat_fat16_files_read_back)
{
	check_image("fat16", "-F 16 -s 4", 32768, 16);
}

TEST(fat_fat32_files_read_back)
{
	check_image("fat32", "-F 32 -s 1", 65536, 32);
}

TEST(fat_fat16_4k_sectors_read_back)
{
	check_image("fat16s4k", "-F 16 -S 4096 -s 1", 40000, 16);
}

/* "<2-5> <9-12>" from mshowfat: the runs of clusters holding @file. */
static size_t mshowfat_runs(const char *img, const char *file, uint32_t first[64], uint32_t last[64])
{
	char cmd[512], out[1024] = "";
	FILE *p;
	size_t n = 0;
	char *s;

	snprintf(cmd, sizeof(cmd), "MTOOLS_SKIP_CHECK=1 mshowfat -i %s/%s ::/%s", dir(), img, file);
	p = popen(cmd, "r");
	if (!p || !fgets(out, sizeof(out), p))
		test_fail(__FILE__, __LINE__, "%s failed", cmd);
	if (p)
		pclose(p);
	for (s = out; (s = strchr(s, '<')) && n < 64; n++) {
		char *end;

		first[n] = (uint32_t)strtoul(s + 1, &end, 10);
		last[n] = *end == '-' ? (uint32_t)strtoul(end + 1, &end, 10) : first[n];
		s = end;
	}
	return n;
}

/* The extents of the fragmented "frag" against mshowfat's runs: breaks at
 * every position of the run loops (pairs of FAT32 entries, single ones). */
static void check_fragmented(const char *name, const char *opts, unsigned kib)
{
	char img[64];
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));
	struct fat_extent *ext;
	uint32_t first[64], last[64];
	size_t n, runs;
	uint64_t total = 0;

	if (!make_image(&im, name, opts, kib))
		return;
	snprintf(img, sizeof(img), "%s.img", name);
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_SUCCESS);
	runs = mshowfat_runs(img, "frag", first, last);
	CHECK(runs > 1);
	CHECK_EQ(fat_map(v, "frag", 200000, &ext, &n), EFI_SUCCESS);
	CHECK_EQ(n, runs);
	for (size_t i = 0; ext && i < n && i < runs; i++) {
		CHECK_EQ(ext[i].offset, v->data_offset + (uint64_t)(first[i] - 2) * v->cluster_size);
		if (i + 1 < n)
			CHECK_EQ(ext[i].length, (uint64_t)(last[i] - first[i] + 1) * v->cluster_size);
		total += ext[i].length;
	}
	CHECK_EQ(total, 200000);
	/* one read per extent touched, plus nothing */
	im.n_reads = 0;
	{
		uint8_t *buf = malloc(200000);

		CHECK_EQ(fat_extents_read(v, ext, n, 0, buf, 200000), EFI_SUCCESS);
		CHECK_EQ(im.n_reads, n);
		free(buf);
	}
	free(ext);
	free(v);
	free(im.mem);
}

TEST(fat_fragmented_file_extents_match_mshowfat)
{
	check_fragmented("frag16", "-F 16 -s 4", 32768);
	check_fragmented("frag32", "-F 32 -s 1", 65536);
}

/* §4: the four high bits of a FAT32 entry are reserved; a run is the same
 * run whatever they hold. */
TEST(fat32_reserved_high_bits_do_not_break_a_run)
{
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));
	struct fat_extent *ext, *ext2;
	size_t n, n2;
	const uint64_t size = 300 * 1024 + 5;
	uint64_t fat_bytes;
	uint32_t cl;

	if (!make_image(&im, "hi32", "-F 32 -s 1", 65536))
		return;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_SUCCESS);
	CHECK_EQ(fat_map(v, "debian/vmlinuz", size, &ext, &n), EFI_SUCCESS);
	CHECK_EQ(n, 1);
	fat_bytes = (v->data_offset - v->fat_offset) / 2;
	cl = (uint32_t)((ext[0].offset - v->data_offset) / v->cluster_size + 2);
	for (uint32_t i = 0; i + 1 < ext[0].length / v->cluster_size; i += 3) /* every third entry */
		for (int copy = 0; copy < 2; copy++) {
			uint8_t *e = im.mem + v->fat_offset + copy * fat_bytes + 4ull * (cl + i);

			put_le32(e, get_le32(e) | 0xf0000000u);
		}
	v->win_offset = UINT64_MAX;
	CHECK_EQ(fat_map(v, "debian/vmlinuz", size, &ext2, &n2), EFI_SUCCESS);
	CHECK_EQ(n2, 1);
	if (n2 == 1) {
		CHECK_EQ(ext2[0].offset, ext[0].offset);
		CHECK_EQ(ext2[0].length, ext[0].length);
	}
	free(ext);
	free(ext2);
	free(v);
	free(im.mem);
}

TEST(fat_not_found_and_refused)
{
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));
	struct fat_extent *ext = (void *)1;
	size_t n = 7;

	if (!make_image(&im, "err32", "-F 32 -s 1", 65536))
		return;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_SUCCESS);
	CHECK_EQ(fat_map(v, "debian/nothing", 1, &ext, &n), EFI_NOT_FOUND);
	CHECK(ext == NULL && n == 0);
	CHECK_EQ(fat_map(v, "debian", 0, &ext, &n), EFI_NOT_FOUND);            /* a directory */
	CHECK_EQ(fat_map(v, "debian/vmlinuz/x", 0, &ext, &n), EFI_NOT_FOUND);  /* through a file */
	CHECK_EQ(fat_map(v, "debian/vmlinuz", 300 * 1024, &ext, &n), EFI_NOT_FOUND); /* another size */
	CHECK_EQ(fat_map(v, "debian/../debian/vmlinuz", 300 * 1024 + 5, &ext, &n), EFI_NOT_FOUND);
	CHECK_EQ(fat_map(v, "", 0, &ext, &n), EFI_NOT_FOUND);
	CHECK_EQ(fat_map(v, "debian/vmlinu", 300 * 1024 + 5, &ext, &n), EFI_NOT_FOUND); /* a prefix */
	CHECK_EQ(fat_map(v, "empty", 0, &ext, &n), EFI_SUCCESS);
	CHECK_EQ(n, 0);
	free(ext);
	free(v);
	free(im.mem);
}

/* The FAT entry of @path's first cluster set to @value (UINT32_MAX: that
 * cluster itself, a loop) in both FAT copies. */
static void set_chain(struct img *im, struct fat_vol *v, const char *path, uint64_t size, uint32_t value)
{
	struct fat_extent *ext;
	size_t n;
	uint32_t cl;
	uint64_t fat_bytes = (v->data_offset - v->fat_offset) / 2;

	CHECK_EQ(fat_map(v, path, size, &ext, &n), EFI_SUCCESS);
	if (n == 0)
		return;
	cl = (uint32_t)((ext[0].offset - v->data_offset) / v->cluster_size + 2);
	for (int copy = 0; copy < 2; copy++)
		put_le32(im->mem + v->fat_offset + copy * fat_bytes + 4ull * cl, value == UINT32_MAX ? cl : value);
	free(ext);
	v->win_offset = UINT64_MAX;
}

TEST(fat_damaged_chains_are_corrupted)
{
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));
	struct fat_extent *ext;
	size_t n;
	const uint64_t size = 300 * 1024 + 5;

	if (!make_image(&im, "bad32", "-F 32 -s 1", 65536))
		return;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_SUCCESS);
	CHECK_EQ(v->cluster_size, 512);
	set_chain(&im, v, "debian/vmlinuz", size, 0x0ffffff8); /* ends after one cluster */
	CHECK_EQ(fat_map(v, "debian/vmlinuz", size, &ext, &n), EFI_VOLUME_CORRUPTED);
	set_chain(&im, v, "frag", 200000, 0);                  /* a free cluster */
	CHECK_EQ(fat_map(v, "frag", 200000, &ext, &n), EFI_VOLUME_CORRUPTED);
	set_chain(&im, v, "s11", 3000, v->clusters + 2);       /* past the last cluster */
	CHECK_EQ(fat_map(v, "s11", 3000, &ext, &n), EFI_VOLUME_CORRUPTED);
	set_chain(&im, v, "s13", 3000, 0x0ffffff7);            /* a bad cluster */
	CHECK_EQ(fat_map(v, "s13", 3000, &ext, &n), EFI_VOLUME_CORRUPTED);
	/* A loop is walked no further than the size asks: six clusters, ended. */
	set_chain(&im, v, "s15", 3000, UINT32_MAX);
	CHECK_EQ(fat_map(v, "s15", 3000, &ext, &n), EFI_SUCCESS);
	CHECK_EQ(n, 6);
	if (n == 6) {
		CHECK_EQ(ext[5].offset, ext[0].offset);
		CHECK_EQ(ext[5].length, 3000 - 5 * 512);
	}
	free(ext);
	free(v);
	free(im.mem);
}

TEST(fat_mount_refuses_what_is_not_fat)
{
	struct img im;
	struct fat_vol *v = malloc(sizeof(*v));

	if (!make_image(&im, "mnt16", "-F 16 -s 4", 32768))
		return;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size - 512), EFI_UNSUPPORTED);  /* larger than its partition */
	CHECK_EQ(fat_mount(v, img_read, &im, 100), EFI_VOLUME_CORRUPTED);      /* shorter than a sector */
	im.mem[510] = 0;
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_UNSUPPORTED);
	im.mem[510] = 0x55;
	im.mem[13] = 3;                                                         /* sectors per cluster */
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_UNSUPPORTED);
	im.mem[13] = 4;
	put_le16(im.mem + 11, 256);                                             /* bytes per sector */
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_UNSUPPORTED);
	put_le16(im.mem + 11, 512);
	put_le16(im.mem + 17, 0);                                               /* FAT16 without a root */
	CHECK_EQ(fat_mount(v, img_read, &im, im.size), EFI_UNSUPPORTED);
	free(v);
	free(im.mem);
}
