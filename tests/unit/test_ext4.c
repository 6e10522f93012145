/* ext4 driver: CRC32C vectors; every file, directory and symlink of the
 * source trees read back from images made by mke2fs -d in many shapes and
 * compared byte for byte (tests/unit/ext4/mkimages.sh); read counts for
 * contiguous files; damaged images, each with its expected error. The images
 * are built on first use into build/ext4-test (or $HANDOFF_EXT4_IMAGES). */
#include "test.h"
#include "core/crc32c.h"
#include "core/ext4.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define GIB (1024ull * 1024 * 1024)

struct img {
	int fd;
	uint8_t *mem;           /* a patched in-memory copy, or NULL: read fd */
	uint64_t size;
	unsigned n_reads;
	unsigned n_outside;     /* reads past size: must stay 0 */
	const uint8_t *watch;   /* count reads landing in [watch, watch + watch_size) */
	size_t watch_size;
	unsigned n_watched;
	bool fail;              /* every read fails with EFI_DEVICE_ERROR */
};

static EFI_STATUS img_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct img *im = ctx;

	im->n_reads++;
	if (im->fail)
		return EFI_DEVICE_ERROR;
	if (im->watch && (const uint8_t *)buf >= im->watch && (const uint8_t *)buf + len <= im->watch + im->watch_size)
		im->n_watched++;
	if (offset > im->size || len > im->size - offset) {
		im->n_outside++;
		return EFI_DEVICE_ERROR;
	}
	if (im->mem) {
		memcpy(buf, im->mem + offset, len);
		return EFI_SUCCESS;
	}
	return pread(im->fd, buf, len, (off_t)offset) == (ssize_t)len ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

static const char *images_dir(void)
{
	static bool built;
	const char *dir = getenv("HANDOFF_EXT4_IMAGES");

	if (dir)
		return dir;
	if (!built) {
		built = true;
		if (system("tests/unit/ext4/mkimages.sh build/ext4-test") != 0)
			fprintf(stdout, "    mkimages.sh failed\n");
	}
	return "build/ext4-test";
}

static char *img_path(const char *name, const char *ext)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s%s", images_dir(), name, ext);
	return path;
}

static bool img_open(struct img *im, const char *name)
{
	struct stat st;

	*im = (struct img){ .fd = open(img_path(name, ".img"), O_RDONLY) };
	if (im->fd < 0 || fstat(im->fd, &st) != 0) {
		test_fail(__FILE__, __LINE__, "cannot open image %s", name);
		return false;
	}
	im->size = (uint64_t)st.st_size;
	return true;
}

/* The whole image in memory, to be damaged by a test. */
static bool img_load(struct img *im, const char *name)
{
	size_t len;

	*im = (struct img){ .fd = -1, .mem = test_read_file(img_path(name, ".img"), &len) };
	im->size = len;
	if (!im->mem)
		test_fail(__FILE__, __LINE__, "cannot read image %s", name);
	return im->mem != NULL;
}

static void img_close(struct img *im)
{
	CHECK_EQ(im->n_outside, 0);
	if (im->fd >= 0)
		close(im->fd);
	free(im->mem);
}

/* "key=value" from an image's .facts file (debugfs' view of it), or -1. */
static long long fact(const char *name, const char *key)
{
	FILE *f = fopen(img_path(name, ".facts"), "r");
	char line[256];
	long long v = -1;
	size_t n = strlen(key);

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, key, n) == 0 && line[n] == '=')
			v = strtoll(line + n + 1, NULL, 0);
	fclose(f);
	return v;
}

TEST(crc32c_vectors)
{
	uint8_t buf[32];

	CHECK_EQ(crc32c("123456789", 9), 0xe3069283);
	/* RFC 3720 B.4: 32 zero bytes, 32 0xff bytes, 0..31. */
	memset(buf, 0, sizeof(buf));
	CHECK_EQ(crc32c(buf, 32), 0x8a9136aa);
	memset(buf, 0xff, sizeof(buf));
	CHECK_EQ(crc32c(buf, 32), 0x62a8ab43);
	for (int i = 0; i < 32; i++)
		buf[i] = (uint8_t)i;
	CHECK_EQ(crc32c(buf, 32), 0x46dd794e);
	CHECK_EQ(crc32c_update(crc32c_update(~0u, buf, 7), buf + 7, 25), ~0x46dd794eu);
	CHECK_EQ(crc32c(buf, 0), 0);
}

/* ---- round trip: image against the source tree ------------------------- */

struct walk_ctx {
	struct ext4_fs *fs;
	struct img *im;
	const char *host_root;
	unsigned n_files, n_dirs, n_links;
};

static void compare_file(struct walk_ctx *w, const char *host, const char *path, uint32_t ino, const struct stat *st);
static void compare_dir(struct walk_ctx *w, const char *host, const char *path);

static void check_range(struct ext4_file *f, int fd, uint64_t off, size_t len, const char *path)
{
	uint8_t *a = malloc(len), *b = malloc(len);
	ssize_t n = pread(fd, a, len, (off_t)off);
	size_t got = 0;

	CHECK_EQ(ext4_read(f, off, b, len, &got), EFI_SUCCESS);
	CHECK_EQ(got, n < 0 ? 0 : (size_t)n);
	if (n > 0 && got == (size_t)n && memcmp(a, b, got) != 0)
		test_fail(__FILE__, __LINE__, "%s: bytes at %llu+%zu differ", path, (unsigned long long)off, got);
	free(a);
	free(b);
}

/* Opens by @path, or by @ino when not 0 (saves a linear lookup per file in
 * the 3000-entry directory). */
static void compare_file(struct walk_ctx *w, const char *host, const char *path, uint32_t ino, const struct stat *st)
{
	struct ext4_file *f = NULL;
	struct ext4_stat est;
	int fd = open(host, O_RDONLY);
	uint64_t size = (uint64_t)st->st_size;

	w->n_files++;
	if ((ino ? ext4_open_inode(w->fs, ino, &f) : ext4_open(w->fs, path, &f)) != EFI_SUCCESS || fd < 0) {
		test_fail(__FILE__, __LINE__, "cannot open %s", path);
		if (fd >= 0)
			close(fd);
		return;
	}
	ext4_stat(f, &est);
	CHECK_EQ(est.size, size);
	CHECK_EQ(est.type, EXT4_FT_REG);
	CHECK_EQ(est.mode & 07777, st->st_mode & 07777);
	CHECK_EQ(est.mtime, st->st_mtime);
	CHECK(!ext4_file_is_dir(f));
	if (size <= 64 * 1024 * 1024) {
		check_range(f, fd, 0, (size_t)size + 1, path); /* whole, asking one byte more */
		if (size > 4096 && size < 1024 * 1024)   /* odd chunks across block edges */
			for (uint64_t off = 0; off < size; off += 4093)
				check_range(f, fd, off, 4093, path);
	} else {
		/* sparse giants: data, holes, their edges, the end */
		static const uint64_t offs[] = {0, 4000, 1 * GIB, 1 * GIB + 120, 2 * GIB, 3 * GIB - 5, 3 * GIB + 69000};
		for (size_t i = 0; i < sizeof(offs) / sizeof(offs[0]); i++)
			check_range(f, fd, offs[i], 70001, path);
		check_range(f, fd, size - 20, 100, path);
	}
	check_range(f, fd, size, 10, path); /* at the end: 0 bytes */
	close(fd);
	ext4_close(f);
}

static void compare_link(struct walk_ctx *w, const char *host, const char *path)
{
	char target[4096], buf[4096];
	ssize_t n = readlink(host, target, sizeof(target));
	struct ext4_file *f = NULL;
	struct stat st;
	size_t got = 0;
	EFI_STATUS err;

	w->n_links++;
	CHECK(n > 0);
	if (ext4_open_at(w->fs, NULL, path, EXT4_OPEN_NOFOLLOW, &f) != EFI_SUCCESS) {
		test_fail(__FILE__, __LINE__, "cannot open link %s", path);
		return;
	}
	CHECK_EQ(ext4_read(f, 0, buf, sizeof(buf), &got), EFI_SUCCESS);
	CHECK_EQ(got, (size_t)n);
	CHECK(n > 0 && memcmp(buf, target, (size_t)n) == 0);
	ext4_close(f);
	if (n > 0 && target[0] == '/')
		return; /* absolute: host and image roots differ, see ext4_symlinks */
	err = ext4_open(w->fs, path, &f);
	if (stat(host, &st) == 0) {
		CHECK_EQ(err, EFI_SUCCESS);
		if (err == EFI_SUCCESS) {
			CHECK_EQ(ext4_file_is_dir(f), S_ISDIR(st.st_mode));
			if (!S_ISDIR(st.st_mode))
				CHECK_EQ(ext4_file_size(f), (uint64_t)st.st_size);
			ext4_close(f);
		}
	} else if (errno == ELOOP) {
		CHECK_EQ(err, EFI_VOLUME_CORRUPTED);
		CHECK_LOG("symlink loop");
	} else {
		CHECK_EQ(err, EFI_NOT_FOUND);
	}
}

struct name_set {
	char **names;
	uint32_t *inos;
	enum ext4_file_type *types;
	bool *seen;
	size_t n;
};

static void read_image_dir(struct walk_ctx *w, const char *path, struct name_set *ns, uint32_t *ret_dot)
{
	struct ext4_file *d = NULL;
	struct ext4_dirent de;
	uint64_t cookie = 0;
	EFI_STATUS err;
	size_t cap = 0;

	*ns = (struct name_set){ 0 };
	if (ext4_open(w->fs, path, &d) != EFI_SUCCESS) {
		test_fail(__FILE__, __LINE__, "cannot open dir %s", path);
		return;
	}
	CHECK(ext4_file_is_dir(d));
	while ((err = ext4_readdir(d, &cookie, &de)) == EFI_SUCCESS) {
		if (strcmp(de.name, ".") == 0) {
			*ret_dot = de.ino;
			continue;
		}
		if (strcmp(de.name, "..") == 0)
			continue;
		if (ns->n == cap) {
			cap = cap ? 2 * cap : 64;
			ns->names = realloc(ns->names, cap * sizeof(char *));
			ns->types = realloc(ns->types, cap * sizeof(*ns->types));
			ns->inos = realloc(ns->inos, cap * sizeof(*ns->inos));
		}
		ns->inos[ns->n] = de.ino;
		ns->types[ns->n] = de.type;
		ns->names[ns->n++] = strdup(de.name);
	}
	CHECK_EQ(err, EFI_NOT_FOUND);
	CHECK_EQ(ext4_readdir(d, &cookie, &de), EFI_NOT_FOUND); /* stays at the end */
	ns->seen = calloc(ns->n + 1, 1);
	ext4_close(d);
}

static enum ext4_file_type host_type(mode_t m)
{
	return S_ISDIR(m) ? EXT4_FT_DIR : S_ISLNK(m) ? EXT4_FT_SYMLINK : S_ISREG(m) ? EXT4_FT_REG : EXT4_FT_UNKNOWN;
}

static void compare_entry(struct walk_ctx *w, struct name_set *ns, const char *host, const char *path, const char *name)
{
	char hp[8192], ip[8192];
	struct stat st;
	size_t i;

	snprintf(hp, sizeof(hp), "%s/%s", host, name);
	snprintf(ip, sizeof(ip), "%s/%s", strcmp(path, "/") == 0 ? "" : path, name);
	for (i = 0; i < ns->n && strcmp(ns->names[i], name) != 0; i++)
		;
	if (i == ns->n || lstat(hp, &st) != 0) {
		test_fail(__FILE__, __LINE__, "%s missing from the image", ip);
		return;
	}
	ns->seen[i] = true;
	if (ns->types[i] != EXT4_FT_UNKNOWN) /* rev 0: no filetype feature */
		CHECK_EQ(ns->types[i], host_type(st.st_mode));
	if (S_ISDIR(st.st_mode))
		compare_dir(w, hp, ip);
	else if (S_ISLNK(st.st_mode))
		compare_link(w, hp, ip);
	else
		compare_file(w, hp, ip, ns->n > 1000 ? ns->inos[i] : 0, &st);
}

static void compare_dir(struct walk_ctx *w, const char *host, const char *path)
{
	struct name_set ns;
	uint32_t dot = 0;
	DIR *d = opendir(host);
	struct dirent *e;
	struct stat st;
	size_t n_host = 0;

	w->n_dirs++;
	read_image_dir(w, path, &ns, &dot);
	CHECK(d != NULL);
	CHECK(stat(host, &st) == 0 && dot != 0);
	while (d && (e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "lost+found") == 0)
			continue;
		n_host++;
		compare_entry(w, &ns, host, path, e->d_name);
	}
	for (size_t i = 0; i < ns.n; i++) {
		if (!ns.seen[i] && strcmp(ns.names[i], "lost+found") != 0)
			test_fail(__FILE__, __LINE__, "%s/%s only in the image", path, ns.names[i]);
		free(ns.names[i]);
	}
	free(ns.names);
	free(ns.types);
	free(ns.inos);
	free(ns.seen);
	if (d)
		closedir(d);
}

static void roundtrip(const char *name, const char *tree)
{
	struct img im;
	struct walk_ctx w = { .im = &im };
	char host[512];
	long long runs = fact(name, "big_runs");

	if (!img_open(&im, name))
		return;
	snprintf(host, sizeof(host), "%s/%s", images_dir(), tree);
	CHECK_EQ(ext4_mount(img_read, &im, im.size, "ext4", &w.fs), EFI_SUCCESS);
	if (!w.fs) {
		img_close(&im);
		return;
	}
	compare_dir(&w, host, "/");
	CHECK(w.n_files >= 12 && w.n_dirs >= 32 && w.n_links >= 54);
	if (strcmp(tree, "full") == 0) {
		/* /big whole: one read callback per physically contiguous run */
		struct ext4_file *f = NULL;
		size_t size = 8 * 1024 * 1024 + 5, got = 0;
		uint8_t *buf = malloc(size);
		CHECK(runs > 0);
		CHECK_EQ(ext4_open(w.fs, "/big", &f), EFI_SUCCESS);
		im.watch = buf;
		im.watch_size = size;
		CHECK_EQ(ext4_read(f, 0, buf, size, &got), EFI_SUCCESS);
		CHECK_EQ(got, size);
		CHECK_EQ(im.n_watched, runs);
		im.watch = NULL;
		ext4_close(f);
		free(buf);
		CHECK(w.n_files >= 3000);
	}
	ext4_unmount(w.fs);
	img_close(&im);
}

#define ROUNDTRIP(id, name, tree) \
	TEST(ext4_roundtrip_##id) { roundtrip(name, tree); }

ROUNDTRIP(ext4_4k, "ext4-4k", "full")
ROUNDTRIP(ext4_1k, "ext4-1k", "full")
ROUNDTRIP(ext4_no64, "ext4-no64", "full")
ROUNDTRIP(ext4_nocsum, "ext4-nocsum", "full")
ROUNDTRIP(ext4_inline, "ext4-inline", "full")
ROUNDTRIP(ext4_i128, "ext4-i128", "full")
ROUNDTRIP(ext4_metabg, "ext4-metabg", "full")
ROUNDTRIP(ext4_sparse2, "ext4-sparse2", "full")
ROUNDTRIP(ext4_seed, "ext4-seed", "full")
ROUNDTRIP(ext4_64k, "ext4-64k", "small")
ROUNDTRIP(ext4_noextent, "ext4-noextent", "full")
ROUNDTRIP(ext4_bigalloc, "ext4-bigalloc", "small")
ROUNDTRIP(ext4_bigalloc_1k, "ext4-bigalloc-1k", "small")
ROUNDTRIP(ext3_4k, "ext3-4k", "full")
ROUNDTRIP(ext2_1k, "ext2-1k", "full")
ROUNDTRIP(ext2_rev0, "ext2-rev0", "small")

/* Every image mkimages.sh lists has a ROUNDTRIP above. */
TEST(ext4_roundtrip_covers_images_list)
{
	static const char *const covered[] = {"ext4-4k",	  "ext4-1k",   "ext4-no64",	"ext4-nocsum",
					      "ext4-inline",	  "ext4-i128", "ext4-metabg",	"ext4-sparse2",
					      "ext4-seed",	  "ext4-64k",  "ext4-noextent", "ext4-bigalloc",
					      "ext4-bigalloc-1k", "ext3-4k",   "ext2-1k",	"ext2-rev0"};
	FILE *f = fopen(img_path("images", ".list"), "r");
	char line[512], name[128];
	int n = 0;

	CHECK(f != NULL);
	while (f && fgets(line, sizeof(line), f) && sscanf(line, "%127s", name) == 1) {
		bool found = false;
		for (size_t i = 0; i < sizeof(covered) / sizeof(covered[0]); i++)
			found |= strcmp(covered[i], name) == 0;
		if (!found)
			test_fail(__FILE__, __LINE__, "image %s has no roundtrip test", name);
		n++;
	}
	CHECK_EQ(n, 16);
	if (f)
		fclose(f);
}

/* ---- behaviour on the 4 KiB image -------------------------------------- */

static struct ext4_fs *mount_4k(struct img *im)
{
	struct ext4_fs *fs = NULL;

	if (img_open(im, "ext4-4k"))
		CHECK_EQ(ext4_mount(img_read, im, im->size, "ext4", &fs), EFI_SUCCESS);
	return fs;
}

static void check_same(struct ext4_fs *fs, const char *a, const char *b)
{
	struct ext4_file *fa = NULL, *fb = NULL;
	static uint8_t ba[400000], bb[400000];
	size_t na = 0, nb = 0;

	CHECK_EQ(ext4_open(fs, a, &fa), EFI_SUCCESS);
	CHECK_EQ(ext4_open(fs, b, &fb), EFI_SUCCESS);
	if (fa && fb) {
		CHECK_EQ(ext4_read(fa, 0, ba, sizeof(ba), &na), EFI_SUCCESS);
		CHECK_EQ(ext4_read(fb, 0, bb, sizeof(bb), &nb), EFI_SUCCESS);
		CHECK(na == nb && na > 0 && memcmp(ba, bb, na) == 0);
	}
	ext4_close(fa);
	ext4_close(fb);
}

TEST(ext4_symlinks)
{
	struct img im;
	struct ext4_fs *fs = mount_4k(&im);
	struct ext4_file *f = NULL;

	if (!fs)
		return;
	check_same(fs, "/lnk_abs", "/medium");         /* absolute: from this root */
	check_same(fs, "/one1k", "/one1k");   /* relative, with .. */
	check_same(fs, "lnk_dir/d03/../../../one1k", "one1k");
	check_same(fs, "/c10", "/one1k");              /* 36 links: allowed */
	check_same(fs, "/../../one1k", "/one1k");      /* the root's parent is the root */
	CHECK_EQ(ext4_open(fs, "/c00", &f), EFI_VOLUME_CORRUPTED); /* 46 links */
	CHECK_LOG("ext4: inode");
	CHECK_LOG("more than 40 symlinks in one lookup (symlink loop)");
	test_log_reset();
	CHECK_EQ(ext4_open(fs, "/loop_self", &f), EFI_VOLUME_CORRUPTED);
	CHECK_LOG("symlink loop");
	/* Missing names are EFI_NOT_FOUND and silent, as from the firmware's FAT
	 * driver: the loader probes optional paths (/EFI/Linux) on every volume. */
	test_log_reset();
	CHECK_EQ(ext4_open(fs, "/lnk_dangling", &f), EFI_NOT_FOUND);
	CHECK_EQ(ext4_open(fs, "/one1k/x", &f), EFI_NOT_FOUND);
	CHECK_EQ(ext4_open(fs, "/nonexistent", &f), EFI_NOT_FOUND);
	CHECK_EQ(test_log_count(), 0);
	CHECK_EQ(ext4_open_at(fs, NULL, "/loop_a", EXT4_OPEN_NOFOLLOW, &f), EFI_SUCCESS);
	ext4_close(f);
	ext4_unmount(fs);
	img_close(&im);
}

TEST(ext4_open_at_and_read_edges)
{
	struct img im;
	struct ext4_fs *fs = mount_4k(&im);
	struct ext4_file *d = NULL, *f = NULL;
	struct ext4_stat st;
	struct ext4_volume_info vi;
	uint8_t buf[16];
	size_t got = 99;

	if (!fs)
		return;
	CHECK_EQ(ext4_open(fs, "/d01/d02", &d), EFI_SUCCESS);
	CHECK_EQ(ext4_open_at(fs, d, "d03/../lnk_up", 0, &f), EFI_SUCCESS); /* relative to d */
	CHECK_EQ(f ? ext4_file_size(f) : 0, 1024);
	ext4_close(f);
	CHECK_EQ(ext4_open_at(fs, d, "/one4k", 0, &f), EFI_SUCCESS);        /* absolute ignores d */
	CHECK_EQ(f ? ext4_file_size(f) : 0, 4096);
	ext4_close(f);
	CHECK_EQ(ext4_read(d, 0, buf, sizeof(buf), &got), EFI_INVALID_PARAMETER);
	CHECK_EQ(got, 0);
	ext4_stat(d, &st);
	CHECK_EQ(st.type, EXT4_FT_DIR);
	CHECK_EQ(st.mode & 0170000, 0040000);
	ext4_close(d);
	CHECK_EQ(ext4_open(fs, "/sparse", &f), EFI_SUCCESS);
	CHECK_EQ(ext4_read(f, 10 * 1024 * 1024, buf, sizeof(buf), &got), EFI_SUCCESS); /* at EOF */
	CHECK_EQ(got, 0);
	CHECK_EQ(ext4_read(f, UINT64_MAX - 3, buf, sizeof(buf), &got), EFI_SUCCESS);
	CHECK_EQ(got, 0);
	memset(buf, 0xaa, sizeof(buf));
	CHECK_EQ(ext4_read(f, 2 * 1024 * 1024, buf, sizeof(buf), &got), EFI_SUCCESS); /* a hole */
	CHECK_EQ(got, sizeof(buf));
	CHECK(buf[0] == 0 && buf[15] == 0);
	ext4_close(f);
	CHECK_EQ(ext4_open(fs, "/", &d), EFI_SUCCESS);
	ext4_stat(d, &st);
	CHECK_EQ(st.ino, 2);
	ext4_close(d);
	ext4_volume_info(fs, &vi);
	CHECK_EQ(vi.size, 64 * 1024 * 1024);
	CHECK_EQ(vi.block_size, 4096);
	CHECK(vi.free > 0 && vi.free < vi.size);
	CHECK_STR(vi.label, "handoff-test");
	CHECK_EQ(ext4_open_inode(fs, 0, &f), EFI_VOLUME_CORRUPTED);
	CHECK_LOG("ext4: inode 0: out of range");
	CHECK_EQ(ext4_open_inode(fs, 0x40000000, &f), EFI_VOLUME_CORRUPTED);
	CHECK_LOG("ext4: inode 1073741824: out of range");
	ext4_unmount(fs);
	img_close(&im);
}

/* ---- damaged images ---------------------------------------------------- */

/* Opens @path and reads it whole (a directory: lists it). */
static EFI_STATUS read_path(struct ext4_fs *fs, const char *path)
{
	struct ext4_file *f = NULL;
	struct ext4_dirent de;
	static uint8_t buf[1 << 20];
	uint64_t cookie = 0;
	size_t got;
	EFI_STATUS err = ext4_open(fs, path, &f);

	if (err != EFI_SUCCESS)
		return err;
	if (ext4_file_is_dir(f)) {
		while ((err = ext4_readdir(f, &cookie, &de)) == EFI_SUCCESS)
			;
		if (err == EFI_NOT_FOUND)
			err = EFI_SUCCESS;
	} else
		err = ext4_read(f, 0, buf, sizeof(buf), &got);
	ext4_close(f);
	return err;
}

static void sb_fix_csum(uint8_t *mem)
{
	put_le32(mem + 1024 + 0x3fc, crc32c_update(~0u, mem + 1024, 0x3fc));
}

/* Mounts @base patched by @patch, then reads @path (NULL: mount only); the
 * first failure must be @want with a log line containing @msg. */
static void damaged(const char *base, void (*patch)(uint8_t *mem, const char *base), const char *path,
		    EFI_STATUS want, const char *msg)
{
	struct img im;
	struct ext4_fs *fs = NULL;
	EFI_STATUS err;

	if (!img_load(&im, base))
		return;
	err = ext4_mount(img_read, &im, im.size, "ext4", &fs);
	CHECK_EQ(err, EFI_SUCCESS); /* undamaged first: the test must be able to fail */
	if (fs)
		CHECK_EQ(read_path(fs, path ? path : "/"), EFI_SUCCESS);
	ext4_unmount(fs);
	fs = NULL;
	patch(im.mem, base);
	test_log_reset();
	err = ext4_mount(img_read, &im, im.size, "ext4", &fs);
	if (err == EFI_SUCCESS && path)
		err = read_path(fs, path);
	CHECK_EQ(err, want);
	if (*msg)
		CHECK_LOG(msg);
	ext4_unmount(fs);
	img_close(&im);
}

static uint64_t at(const char *base, const char *key)
{
	long long v = fact(base, key);
	CHECK(v > 0);
	return v > 0 ? (uint64_t)v : 0;
}

static uint64_t inode_at(const char *base, const char *which)
{
	char b[64], o[64];
	snprintf(b, sizeof(b), "%s_inode_block", which);
	snprintf(o, sizeof(o), "%s_inode_offset", which);
	return at(base, b) * 1024 + at(base, o);
}

static void flip_sb(uint8_t *m, const char *base) { m[1024 + 0x78] ^= 1; /* s_volume_name */ }
static void flip_gd(uint8_t *m, const char *base) { m[2048 + 0x0c] ^= 1; /* group 0 bg_free_blocks_count */ }
static void flip_inode(uint8_t *m, const char *base) { m[inode_at(base, "f") + 0x08] ^= 1; /* i_atime */ }
static void flip_extent_block(uint8_t *m, const char *base) { m[at(base, "frag_index_block") * 1024 + 16] ^= 1; }
static void flip_dir_block(uint8_t *m, const char *base) { m[at(base, "d_block") * 1024 + 0x20] ^= 1; }

TEST(ext4_checksum_mismatches_are_named)
{
	damaged("corrupt-csum", flip_sb, NULL, EFI_VOLUME_CORRUPTED, "ext4: superblock: checksum mismatch");
	damaged("corrupt-csum", flip_gd, "/f", EFI_VOLUME_CORRUPTED, "ext4: group descriptor 0: checksum mismatch");
	damaged("corrupt-csum", flip_inode, "/f", EFI_VOLUME_CORRUPTED, "ext4: inode 19: checksum mismatch");
	damaged("corrupt-csum", flip_extent_block, "/frag", EFI_VOLUME_CORRUPTED, ": checksum mismatch");
	CHECK_LOG("extent block");
	damaged("corrupt-csum", flip_dir_block, "/d", EFI_VOLUME_CORRUPTED, "directory block");
	CHECK_LOG("checksum mismatch");
	/* without metadata_csum the same flips are not detected */
	damaged("corrupt-nocsum", flip_inode, "/", EFI_SUCCESS, "");
}

/* The leaf under /frag's root index made an index pointing at itself. */
static void extent_self_loop(uint8_t *m, const char *base)
{
	uint64_t blk = at(base, "frag_index_block");
	uint8_t *node = m + blk * 1024;

	put_le16(node + 6, 1);                 /* eh_depth 1 */
	put_le32(node + 12 + 4, (uint32_t)blk); /* ei_leaf_lo of entry 0 */
	put_le16(node + 12 + 8, 0);
}

static void extent_root_too_deep(uint8_t *m, const char *base) { put_le16(m + inode_at(base, "frag") + 0x28 + 6, 6); }
static void extent_past_end(uint8_t *m, const char *base)
{
	put_le32(m + inode_at(base, "f") + 0x28 + 12 + 8, 0x7fffffff);
}
static void dirent_overrun(uint8_t *m, const char *base) { put_le16(m + at(base, "d_block") * 1024 + 4, 0x2000); }
static void dirent_bad_ino(uint8_t *m, const char *base) { put_le32(m + at(base, "d_block") * 1024 + 24, 0x0fffffff); }
static void dir_inode_zero(uint8_t *m, const char *base) { put_le32(m + at(base, "d_block") * 1024 + 24, 0); }
static void bad_magic(uint8_t *m, const char *base) { m[1024 + 0x38] ^= 0xff; }
static void unknown_incompat(uint8_t *m, const char *base) { m[1024 + 0x63] |= 0x80; }
static void compression(uint8_t *m, const char *base) { m[1024 + 0x60] |= 0x01; }
static void needs_recovery(uint8_t *m, const char *base) { m[1024 + 0x60] |= 0x04; }
static void huge_log_block_size(uint8_t *m, const char *base) { put_le32(m + 1024 + 0x18, 20); }
static void inode_size_odd(uint8_t *m, const char *base) { put_le16(m + 1024 + 0x58, 200); }
static void blocks_count_huge(uint8_t *m, const char *base) { put_le32(m + 1024 + 0x04, 0x10000000); }
static void set_size(uint8_t *m, const char *base, uint64_t size)
{
	put_le32(m + inode_at(base, "f") + 0x04, (uint32_t)size);       /* i_size_lo */
	put_le32(m + inode_at(base, "f") + 0x6c, (uint32_t)(size >> 32)); /* i_size_high */
}
/* issue 12: i_size 2^63-1 once made three initrds sum to 4 KiB */
static void size_int64_max(uint8_t *m, const char *base) { set_size(m, base, INT64_MAX); }
/* 1 KiB blocks, extents: 2^32 blocks map 2^42 bytes, not one more */
static void size_extent_limit(uint8_t *m, const char *base) { set_size(m, base, 1ull << 42); }
static void size_past_extent_limit(uint8_t *m, const char *base) { set_size(m, base, (1ull << 42) + 1); }

TEST(ext4_damaged_metadata)
{
	const char *b = "corrupt-nocsum";

	damaged(b, extent_self_loop, "/frag", EFI_VOLUME_CORRUPTED, "depth 1, expected 0 (loop or corrupt tree)");
	damaged(b, extent_root_too_deep, "/frag", EFI_VOLUME_CORRUPTED, "depth 6, expected <= 5");
	damaged(b, extent_past_end, "/f", EFI_VOLUME_CORRUPTED, "points past the end of the file system");
	damaged(b, dirent_overrun, "/d", EFI_VOLUME_CORRUPTED, "overrun or invalid");
	damaged(b, dirent_bad_ino, "/d", EFI_VOLUME_CORRUPTED, "inode 268435455 overrun or invalid");
	damaged(b, dir_inode_zero, "/d", EFI_SUCCESS, ""); /* inode 0: an unused entry, skipped */
	damaged(b, bad_magic, NULL, EFI_UNSUPPORTED, "magic 0xefac is not 0xef53: not ext2/3/4");
	damaged(b, unknown_incompat, NULL, EFI_UNSUPPORTED, "incompatible features not supported: unknown 0x80000000");
	damaged(b, compression, NULL, EFI_UNSUPPORTED, "incompatible features not supported: compression");
	damaged(b, needs_recovery, "/f", EFI_SUCCESS, "journal needs recovery");
	damaged(b, huge_log_block_size, NULL, EFI_VOLUME_CORRUPTED, "s_log_block_size 20 is out of range");
	damaged(b, inode_size_odd, NULL, EFI_VOLUME_CORRUPTED, "s_inode_size 200 is invalid");
	damaged(b, blocks_count_huge, NULL, EFI_VOLUME_CORRUPTED, "exceeds the partition");
	damaged(b, size_int64_max, "/f", EFI_VOLUME_CORRUPTED,
		"i_size 0x7fffffffffffffff is larger than its block map can describe");
	damaged(b, size_extent_limit, "/f", EFI_SUCCESS, "");
	damaged(b, size_past_extent_limit, "/f", EFI_VOLUME_CORRUPTED,
		"i_size 0x40000000001 is larger than its block map");
}

static void sb_feature_with_csum(uint8_t *m, const char *base)
{
	m[1024 + 0x63] |= 0x40; /* unknown incompat 0x40000000, checksum kept valid */
	sb_fix_csum(m);
}

TEST(ext4_damaged_with_valid_superblock_csum)
{
	damaged("corrupt-csum", sb_feature_with_csum, NULL, EFI_UNSUPPORTED, "unknown 0x40000000");
}

TEST(ext4_mount_rejects_small_or_truncated)
{
	struct img im;
	struct ext4_fs *fs = NULL;

	if (!img_load(&im, "corrupt-csum"))
		return;
	CHECK_EQ(ext4_mount(img_read, &im, 2000, "tiny", &fs), EFI_UNSUPPORTED);
	CHECK_LOG("tiny: 2000 bytes, too small for an ext2/3/4 superblock");
	CHECK_EQ(test_log_count(), 0); /* probing a non-ext partition is not an error */
	CHECK_EQ(ext4_mount(img_read, &im, im.size / 2, "half", &fs), EFI_VOLUME_CORRUPTED);
	CHECK_LOG("half: superblock: s_blocks_count 2048 (1024-byte blocks) exceeds the partition (1048576 bytes)");
	CHECK(fs == NULL);
	img_close(&im);
}

TEST(ext4_unwritten_extent_reads_as_zeros)
{
	struct img im;
	struct ext4_fs *fs = NULL;
	struct ext4_file *f = NULL;
	uint8_t buf[4000], zero[4000] = { 0 };
	size_t got = 0;

	if (!img_load(&im, "corrupt-nocsum"))
		return;
	uint8_t *ee_len = im.mem + inode_at("corrupt-nocsum", "f") + 0x28 + 12 + 4;
	CHECK_EQ(get_le16(ee_len), 3); /* 3000 bytes in one 3-block extent */
	put_le16(ee_len, 3 + 32768);   /* the same extent, marked unwritten */
	CHECK_EQ(ext4_mount(img_read, &im, im.size, "ext4", &fs), EFI_SUCCESS);
	CHECK_EQ(ext4_open(fs, "/f", &f), EFI_SUCCESS);
	memset(buf, 0xaa, sizeof(buf));
	CHECK_EQ(ext4_read(f, 0, buf, sizeof(buf), &got), EFI_SUCCESS);
	CHECK_EQ(got, 3000);
	CHECK_MEM(buf, zero, 3000);
	ext4_close(f);
	ext4_unmount(fs);
	img_close(&im);
}

TEST(ext4_read_errors_propagate)
{
	struct img im;
	struct ext4_fs *fs = mount_4k(&im);
	struct ext4_file *f = NULL;
	uint8_t buf[64];
	size_t got = 1;

	if (!fs)
		return;
	CHECK_EQ(ext4_open(fs, "/one1k", &f), EFI_SUCCESS);
	im.fail = true;
	/* 64 bytes of one block go through the volume's cache: a whole-block read */
	CHECK_EQ(ext4_read(f, 0, buf, sizeof(buf), &got), EFI_DEVICE_ERROR);
	CHECK_EQ(got, 0);
	CHECK_LOG("ext4: reading 4096 bytes at");
	CHECK_LOG("EFI_DEVICE_ERROR");
	ext4_close(f);
	ext4_unmount(fs);
	/* metadata not yet cached: a fresh mount, failing from the first lookup on */
	f = NULL;
	fs = NULL;
	im.fail = false;
	CHECK_EQ(ext4_mount(img_read, &im, im.size, "ext4", &fs), EFI_SUCCESS);
	if (!fs)
		return;
	im.fail = true;
	CHECK_EQ(ext4_open(fs, "/medium", &f), EFI_DEVICE_ERROR);
	CHECK(f == NULL);
	im.fail = false;
	/* a failed read leaves no cache slot claiming the block: the retry reads it */
	CHECK_EQ(ext4_open(fs, "/medium", &f), EFI_SUCCESS);
	ext4_close(f);
	ext4_unmount(fs);
	img_close(&im);
}

/* /f's one 3-block extent split into three adjacent 1-block extents: still
 * one read, straight into the caller's buffer. */
TEST(ext4_adjacent_extents_merge_into_one_read)
{
	struct img im;
	struct ext4_fs *fs = NULL;
	struct ext4_file *f = NULL;
	uint8_t buf[3000];
	size_t got = 0;

	if (!img_load(&im, "corrupt-nocsum"))
		return;
	uint8_t *root = im.mem + inode_at("corrupt-nocsum", "f") + 0x28;
	uint32_t pblk = get_le32(root + 12 + 8);
	CHECK_EQ(get_le16(root + 2), 1);
	CHECK_EQ(pblk, at("corrupt-nocsum", "f_block"));
	put_le16(root + 2, 3);
	for (uint32_t i = 0; i < 3; i++) {
		uint8_t *e = root + 12 + 12 * i;
		put_le32(e, i);            /* ee_block */
		put_le16(e + 4, 1);        /* ee_len */
		put_le16(e + 6, 0);        /* ee_start_hi */
		put_le32(e + 8, pblk + i); /* ee_start_lo */
	}
	CHECK_EQ(ext4_mount(img_read, &im, im.size, "ext4", &fs), EFI_SUCCESS);
	CHECK_EQ(ext4_open(fs, "/f", &f), EFI_SUCCESS);
	im.watch = buf;
	im.watch_size = sizeof(buf);
	CHECK_EQ(ext4_read(f, 0, buf, sizeof(buf), &got), EFI_SUCCESS);
	CHECK_EQ(got, 3000);
	CHECK_EQ(im.n_watched, 1);
	CHECK_MEM(buf, im.mem + (uint64_t)pblk * 1024, 3000);
	ext4_close(f);
	ext4_unmount(fs);
	img_close(&im);
}

/* The last entry of /d's first block shortened by 4: 4 bytes remain, too
 * few for an entry header (and must not be read past the block). */
static void dirent_leaves_4(uint8_t *m, const char *base)
{
	uint8_t *blk = m + at(base, "d_block") * 1024;
	size_t pos = 0;

	for (int i = 0; i < 64; i++) {
		uint16_t len = get_le16(blk + pos + 4);
		if (len < 12 || pos + len >= 1024) {
			put_le16(blk + pos + 4, (uint16_t)(len - 4));
			return;
		}
		pos += len;
	}
}

TEST(ext4_dirent_tail_too_short)
{
	damaged("corrupt-nocsum", dirent_leaves_4, "/d", EFI_VOLUME_CORRUPTED, "4 bytes left, too few for an entry");
}

/* The volume's block cache: a second lookup of the same path, and reading a
 * small file again, cost no device read; a large read still goes straight
 * into the caller's buffer (one read, not block by block). */
TEST(ext4_block_cache_saves_repeated_reads)
{
	struct img im;
	struct ext4_fs *fs = mount_4k(&im);
	struct ext4_file *f = NULL;
	static uint8_t buf[400000];
	size_t got = 0;
	unsigned first;

	if (!fs)
		return;
	im.n_reads = 0;
	CHECK_EQ(ext4_open(fs, "/one1k", &f), EFI_SUCCESS);
	CHECK_EQ(ext4_read(f, 0, buf, 100, &got), EFI_SUCCESS);
	ext4_close(f);
	first = im.n_reads;
	CHECK(first > 0);
	im.n_reads = 0;
	CHECK_EQ(ext4_open(fs, "/one1k", &f), EFI_SUCCESS);
	CHECK_EQ(ext4_read(f, 0, buf, 100, &got), EFI_SUCCESS);
	ext4_close(f);
	CHECK_EQ(im.n_reads, 0);
	CHECK_EQ(ext4_open(fs, "/medium", &f), EFI_SUCCESS);
	im.n_reads = 0;
	im.watch = buf;
	im.watch_size = sizeof(buf);
	im.n_watched = 0;
	CHECK_EQ(ext4_read(f, 0, buf, MIN(sizeof(buf), (size_t)ext4_file_size(f)), &got), EFI_SUCCESS);
	CHECK(got > 3 * 4096);
	CHECK_EQ(im.n_watched, im.n_reads); /* every read landed in the caller's buffer */
	CHECK(im.n_reads <= 2);
	ext4_close(f);
	ext4_unmount(fs);
	img_close(&im);
}
