/* handoff disk: a GPT disk image from directories, without root or loop
 * devices. src/core/gpt.c writes the partition table; the file systems are
 * made in place at their partition offsets by mkfs.vfat --offset + mcopy
 * (mtools) and mke2fs -E offset= -d (e2fsprogs). The image is built under a
 * temporary name beside IMG and renamed only when complete. A root
 * partition holding loader entries is named in the image's loader.conf
 * (boot-partition): the loader reads no other partition's entries. */
#define _GNU_SOURCE
#include "loader_conf.h"
#include "disk_arch.h"
#include "core/gpt.h"
#include "core/guid.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1ull << 20)
#define FAT32_MIN_MIB 64ull   /* FAT32 needs 65525 clusters; 64 MiB leaves room */
#define EXT4_MIN_MIB 16ull
#define FAT32_4K_SECTORS (260ull * 2048) /* 260 MiB in sectors */
#define SIZE_MAX_MIB (1ull << 20) /* 1 TiB */
#define DISK_MAX_PARTS 4          /* ESP, XBOOTLDR, root, data */

static const char help[] =
	"Usage: handoff disk -o IMG --esp DIR [--arch x64|aa64] [--esp-size MIB] [--size MIB]\n"
	"                    [--xbootldr DIR [--xbootldr-fs vfat|ext4]] [--root DIR] [--data DIR]\n\n"
	"Build a GPT disk image (protective MBR, primary and backup GPT) holding an\n"
	"EFI system partition with the contents of DIR (FAT32), and optionally an\n"
	"Extended Boot Loader partition (XBOOTLDR, vfat or ext4), a Linux root\n"
	"partition and a Linux data partition (ext4, owners and modes kept).\n"
	"Partitions start at 1 MiB boundaries; no root privileges or loop devices\n"
	"are needed.\n\n"
	"  -o, --output IMG      image to write (replaced atomically)\n"
	"  --esp DIR             contents of the EFI system partition\n"
	"  --arch ARCH           x64 or aa64: the machine the disk is for; the ESP gets\n"
	"                        handoff's loader for it (handoffx64.efi or\n"
	"                        handoffaa64.efi beside the tool, or in\n"
	"                        PREFIX/lib/handoff) as EFI/BOOT/BOOTX64.EFI or\n"
	"                        BOOTAA64.EFI unless DIR has that file, and --root's\n"
	"                        type is Linux root of that machine (default: x64,\n"
	"                        no loader added)\n"
	"  --esp-size MIB        the ESP's size (default: its contents, at least 64 MiB)\n"
	"  --size MIB            total image size; the last partition gets the room\n"
	"                        (default: just enough for the contents)\n"
	"  --xbootldr DIR        contents of an XBOOTLDR partition after the ESP\n"
	"  --xbootldr-fs FS      vfat (default) or ext4\n"
	"  --root DIR            contents of a root partition (type Linux root x86-64,\n"
	"                        or AArch64 with --arch aa64,\n"
	"                        label \"root\", ext4); when DIR has boot/loader/entries\n"
	"                        (entries in place), the image's loader/loader.conf\n"
	"                        names the partition (boot-partition PARTUUID)\n"
	"  --data DIR            contents of a data partition (type Linux filesystem\n"
	"                        data, label \"data\", ext4: a /home or /tmp), last;\n"
	"                        the loader never reads entries from it\n"
	"  -h, --help            show this help\n";

/* Space the files under @dir need, with room for directory entries and
 * cluster rounding. Symbolic links are not followed (a root file system's
 * point at absolute paths that exist only inside it). */
static int tree_size(const char *dir, uint64_t *total)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	if (!d)
		return tool_fail("%s: %s", dir, strerror(errno)), -1;
	*total += 4096;
	while (r == 0 && (e = readdir(d))) {
		char *p;
		struct stat st;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = path_join(dir, e->d_name);
		if (lstat(p, &st) < 0)
			r = -tool_fail("%s: %s", p, strerror(errno));
		else if (S_ISDIR(st.st_mode))
			r = tree_size(p, total);
		else
			*total += ALIGN_UP((uint64_t)st.st_size, 4096ull) + 512;
		free(p);
	}
	closedir(d);
	return r;
}

static uint64_t part_mib(uint64_t content, bool ext4)
{
	uint64_t mib = (content + content / 4 + 8 * MIB + MIB - 1) / MIB;

	return MAX(mib, ext4 ? EXT4_MIN_MIB : FAT32_MIN_MIB);
}

static int random_guid(EFI_GUID *g)
{
	if (random_bytes(g, sizeof(*g)) < 0)
		return -1;
	g->Data3 = (uint16_t)((g->Data3 & 0x0fff) | 0x4000); /* RFC 4122 version 4 */
	g->Data4[0] = (uint8_t)((g->Data4[0] & 0x3f) | 0x80);
	return 0;
}

struct disk_part_spec {
	const char *dir;
	bool ext4;
	bool named;             /* named in the ESP's loader.conf (boot-partition) */
	const char *label;      /* file system label */
	const char *gpt_name;
	EFI_GUID type;
};

/* mcopy -s copies each top-level entry of @dir (with its subtree) to the
 * root of the FAT file system at @target ("IMG@@OFFSET"). */
static int copy_tree_mtools(const char *target, const char *dir)
{
	char **argv = xmalloc(9 * sizeof(char *));
	size_t n = 0, cap = 9;
	struct dirent *e;
	DIR *d = opendir(dir);
	int r = 0;

	if (!d)
		return tool_fail("%s: %s", dir, strerror(errno)), -1;
	argv[n++] = "mcopy", argv[n++] = "-s", argv[n++] = "-p", argv[n++] = "-m", argv[n++] = "-Q";
	argv[n++] = "-i", argv[n++] = (char *)target;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (n + 2 >= cap)
			argv = xrealloc(argv, (cap *= 2) * sizeof(char *));
		argv[n++] = path_join(dir, e->d_name);
	}
	closedir(d);
	argv[n++] = "::/";
	argv[n] = NULL;
	if (n > 8)
		r = run_command(dir, argv);
	for (size_t i = 7; i + 1 < n; i++)
		free(argv[i]);
	free(argv);
	return r;
}

static int make_vfat(const char *img, const struct gpt_part *p, const struct disk_part_spec *s)
{
	uint64_t sectors = p->last_lba - p->first_lba + 1;
	char *volid, *offset, *blocks, *target;
	uint32_t id;
	int r;

	if (random_bytes(&id, sizeof(id)) < 0)
		return -1;
	volid = xasprintf("%08x", id);
	offset = xasprintf("%llu", (unsigned long long)p->first_lba);
	blocks = xasprintf("%llu", (unsigned long long)(sectors / 2));
	/* FAT32 needs at least 65525 clusters (Microsoft FAT spec §3.5): 512-byte
	 * clusters below 260 MiB, 4 KiB above, as that spec's size table. The
	 * hidden-sector count is the partition's start. */
	r = run_command(s->dir, (char *[]){"mkfs.vfat", "-F", "32", "-S", "512", "-s",
					   sectors < FAT32_4K_SECTORS ? "1" : "8", "-h", offset, "-n", (char *)s->label,
					   "-i", volid, "--offset", offset, (char *)img, blocks, NULL});
	free(volid);
	free(offset);
	free(blocks);
	if (r < 0)
		return -1;
	target = xasprintf("%s@@%llu", img, (unsigned long long)(p->first_lba * GPT_SECTOR_SIZE));
	r = copy_tree_mtools(target, s->dir);
	free(target);
	return r;
}

static int make_ext4(const char *img, const struct gpt_part *p, const struct disk_part_spec *s)
{
	uint64_t sectors = p->last_lba - p->first_lba + 1;
	char *offset, *size, uuid[GUID_STRING_SIZE];
	EFI_GUID fs_uuid;
	int r;

	if (random_guid(&fs_uuid) < 0)
		return -1;
	guid_format(&fs_uuid, uuid);
	offset = xasprintf("offset=%llu", (unsigned long long)(p->first_lba * GPT_SECTOR_SIZE));
	size = xasprintf("%lluk", (unsigned long long)(sectors / 2));
	r = run_command(s->dir, (char *[]){ "mke2fs", "-q", "-F", "-t", "ext4", "-L", (char *)s->label, "-U", uuid,
					    "-E", offset, "-d", (char *)s->dir, (char *)img, size, NULL });
	free(offset);
	free(size);
	return r;
}

/* Partition sizes: each fits its contents (the ESP at least @esp_mib);
 * --size gives the rest to the last. */
static int plan_disk(const struct disk_part_spec *specs, size_t n, uint64_t esp_mib, uint64_t size_mib,
		     struct gpt_part *parts, uint64_t *ret_sectors)
{
	uint64_t sizes[DISK_MAX_PARTS], content, need;

	for (size_t i = 0; i < n; i++) {
		content = 0;
		if (tree_size(specs[i].dir, &content) < 0)
			return -1;
		sizes[i] = MAX(part_mib(content, specs[i].ext4), i == 0 ? esp_mib : 0) * MIB;
	}
	if (EFI_ERROR(gpt_plan(sizes, n, 0, parts, &need)))
		return -1;
	if (size_mib) {
		if (size_mib * MIB < need * GPT_SECTOR_SIZE)
			return tool_fail("--size %llu MiB is too small: the contents need %llu MiB",
					 (unsigned long long)size_mib,
					 (unsigned long long)(need * GPT_SECTOR_SIZE / MIB)),
			       -1;
		sizes[n - 1] += size_mib * MIB - need * GPT_SECTOR_SIZE;
		if (EFI_ERROR(gpt_plan(sizes, n, size_mib * MIB, parts, &need)))
			return -1;
	}
	*ret_sectors = need;
	return 0;
}

static int write_gpt(int fd, const char *img, struct gpt_disk *d)
{
	uint8_t head[GPT_HEAD_SECTORS * GPT_SECTOR_SIZE], tail[GPT_TAIL_SECTORS * GPT_SECTOR_SIZE];

	if (random_guid(&d->disk_guid) < 0)
		return -1;
	for (size_t i = 0; i < d->n_parts; i++)
		if (random_guid(&d->parts[i].guid) < 0)
			return -1;
	if (EFI_ERROR(gpt_write(d, head, tail)))
		return -1;
	if (ftruncate(fd, (off_t)(d->n_sectors * GPT_SECTOR_SIZE)) < 0 ||
	    pwrite(fd, head, sizeof(head), 0) != (ssize_t)sizeof(head) ||
	    pwrite(fd, tail, sizeof(tail), (off_t)((d->n_sectors - GPT_TAIL_SECTORS) * GPT_SECTOR_SIZE)) !=
		    (ssize_t)sizeof(tail))
		return tool_fail("%s: write: %s", img, strerror(errno)), -1;
	return 0;
}

/* Does @dir hold entries where the loader looks (loader/entries, EFI/Linux,
 * at its root or in its /boot)? */
static bool has_entries(const char *dir)
{
	static const char *const where[] = { "loader/entries", "EFI/Linux", "boot/loader/entries", "boot/EFI/Linux" };
	bool found = false;

	for (size_t i = 0; i < sizeof(where) / sizeof(where[0]) && !found; i++) {
		char *p = path_join(dir, where[i]);

		found = is_dir(p);
		free(p);
	}
	return found;
}

/* The image's loader.conf (the ESP tree's, which stays as it is) names
 * @uuid: the loader reads no other partition's entries (README "Security"). */
static int name_in_esp(const char *img, const struct gpt_part *esp, const char *esp_dir, const EFI_GUID *uuid)
{
	char *src = path_join(esp_dir, "loader/loader.conf"), *dir = path_join(esp_dir, "loader"), *tmp = NULL;
	char *file = NULL, *target = xasprintf("%s@@%llu", img, (unsigned long long)(esp->first_lba * GPT_SECTOR_SIZE));
	char *text = NULL, s[GUID_STRING_SIZE];
	uint8_t *old = NULL;
	size_t old_len = 0, len = 0;
	int r = -1;

	if (read_file_opt(src, 1u << 20, &old, &old_len) < 0 || !(tmp = tmpdir_create("disk")))
		goto out;
	text = loader_conf_add_partition((const char *)old, old_len, uuid,
					 "the root partition, with entries in place (named by handoff disk)", &len);
	file = path_join(tmp, "loader.conf");
	if (!text || write_file_atomic(file, text, len, 0644) < 0 ||
	    (!is_dir(dir) && run_command("mmd", (char *[]){ "mmd", "-i", target, "::/loader", NULL }) < 0) ||
	    run_command("mcopy", (char *[]){ "mcopy", "-Q", "-D", "o", "-i", target, file, "::/loader/loader.conf",
					     NULL }) < 0)
		goto out;
	guid_format(uuid, s);
	printf("named the root partition (PARTUUID %s) in the image's loader/loader.conf\n", s);
	r = 0;
out:
	if (tmp)
		rm_rf(tmp);
	free(tmp);
	free(file);
	free(text);
	free(old);
	free(target);
	free(dir);
	free(src);
	return r;
}

static int fill_disk(int fd, const char *tmp, struct gpt_disk *d, const struct disk_part_spec *specs,
		     const struct disk_arch *arch)
{
	if (write_gpt(fd, tmp, d) < 0)
		return -1;
	for (size_t i = 0; i < d->n_parts; i++)
		if ((specs[i].ext4 ? make_ext4 : make_vfat)(tmp, &d->parts[i], &specs[i]) < 0)
			return -1;
	if (arch && disk_add_fallback(tmp, &d->parts[0], specs[0].dir, arch) < 0)
		return -1;
	for (size_t i = 1; i < d->n_parts; i++)
		if (specs[i].named && name_in_esp(tmp, &d->parts[0], specs[0].dir, &d->parts[i].guid) < 0)
			return -1;
	if (fsync(fd) < 0)
		return tool_fail("%s: fsync: %s", tmp, strerror(errno)), -1;
	return 0;
}

static void print_layout(const char *img, const struct gpt_disk *d, const struct disk_part_spec *specs)
{
	printf("%s: %llu MiB, GPT", img, (unsigned long long)(d->n_sectors * GPT_SECTOR_SIZE / MIB));
	for (size_t i = 0; i < d->n_parts; i++)
		printf(", %s %llu MiB %s at %llu MiB", specs[i].label,
		       (unsigned long long)((d->parts[i].last_lba - d->parts[i].first_lba + 1) * GPT_SECTOR_SIZE / MIB),
		       specs[i].ext4 ? "ext4" : "FAT32",
		       (unsigned long long)(d->parts[i].first_lba * GPT_SECTOR_SIZE / MIB));
	putchar('\n');
}

struct disk_layout {
	const char *esp, *xbootldr, *root, *data;
	bool xbootldr_ext4;
	uint64_t esp_mib, size_mib;
	const struct disk_arch *arch; /* --arch; NULL: x64's root type, no loader added */
};

static int disk_build_layout(const char *img, const struct disk_layout *l, bool report)
{
	const struct disk_part_spec all[DISK_MAX_PARTS] = {
		{.dir = l->esp, .label = "ESP", .gpt_name = "EFI System Partition", .type = GPT_TYPE_ESP},
		{.dir = l->xbootldr,
		 .ext4 = l->xbootldr_ext4,
		 .label = "XBOOTLDR",
		 .gpt_name = "Linux Extended Boot",
		 .type = GPT_TYPE_XBOOTLDR},
		{.dir = l->root,
		 .ext4 = true,
		 .named = l->root && has_entries(l->root),
		 .label = "root",
		 .gpt_name = (l->arch ? l->arch : &disk_arch_x64)->root_name,
		 .type = (l->arch ? l->arch : &disk_arch_x64)->root_type},
		{.dir = l->data, .ext4 = true, .label = "data", .gpt_name = "Linux data", .type = GPT_TYPE_LINUX_DATA},
	};
	struct disk_part_spec specs[DISK_MAX_PARTS];
	struct gpt_part parts[DISK_MAX_PARTS] = { 0 };
	struct gpt_disk d = { .parts = parts };
	const char *base = path_basename(img);
	char *tmp;
	int fd, r;

	for (size_t i = 0; i < DISK_MAX_PARTS; i++)
		if (all[i].dir)
			specs[d.n_parts++] = all[i];
	for (size_t i = 0; i < d.n_parts; i++) {
		parts[i].type = specs[i].type;
		snprintf(parts[i].name, sizeof(parts[i].name), "%s", specs[i].gpt_name);
	}
	if (plan_disk(specs, d.n_parts, l->esp_mib, l->size_mib, parts, &d.n_sectors) < 0)
		return -1;
	setenv("MTOOLS_SKIP_CHECK", "1", 1);
	tmp = xasprintf("%.*s.%s.XXXXXX", (int)(base - img), img, base);
	fd = mkstemp(tmp);
	if (fd < 0) {
		tool_fail("%s: cannot create a temporary file beside it: %s", img, strerror(errno));
		free(tmp);
		return -1;
	}
	r = fill_disk(fd, tmp, &d, specs, l->arch);
	close(fd);
	if (r == 0 && (fchmodat(AT_FDCWD, tmp, 0644, 0) < 0 || rename(tmp, img) < 0))
		r = -tool_fail("%s: %s", img, strerror(errno));
	if (r < 0)
		unlink(tmp);
	free(tmp);
	if (r == 0 && report)
		print_layout(img, &d, specs);
	return r;
}

int disk_build(const char *img, const char *esp, const char *xbootldr, bool xbootldr_ext4, uint64_t size_mib,
	       bool report)
{
	struct disk_layout l = {.esp = esp, .xbootldr = xbootldr, .xbootldr_ext4 = xbootldr_ext4, .size_mib = size_mib};

	return disk_build_layout(img, &l, report);
}

static bool parse_mib(const char *s, uint64_t *ret)
{
	return parse_u64(s, SIZE_MAX_MIB, ret) && *ret > 0;
}

int cmd_disk(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "esp", required_argument, NULL, 'e' },
		{ "size", required_argument, NULL, 's' },
		{ "xbootldr", required_argument, NULL, 'x' },
		{ "xbootldr-fs", required_argument, NULL, 'f' },
		{ "root", required_argument, NULL, 'r' },
		{ "data", required_argument, NULL, 'd' },
		{ "esp-size", required_argument, NULL, 'E' },
		{ "arch", required_argument, NULL, 'a' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	const char *out = NULL, *fs = NULL;
	struct disk_layout l = { 0 };
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'e': l.esp = optarg; break;
		case 'x': l.xbootldr = optarg; break;
		case 'r': l.root = optarg; break;
		case 'd': l.data = optarg; break;
		case 'f': fs = optarg; break;
		case 'a':
			l.arch = strcmp(optarg, "aa64") == 0 ? &disk_arch_aa64 : NULL;
			if (strcmp(optarg, "x64") == 0)
				l.arch = &disk_arch_x64;
			if (!l.arch)
				return tool_usage("--arch '%s': expected x64 or aa64", optarg);
			break;
		case 's':
			if (!parse_mib(optarg, &l.size_mib))
				return tool_usage("--size '%s': expected MiB from 1 to %llu", optarg, SIZE_MAX_MIB);
			break;
		case 'E':
			if (!parse_mib(optarg, &l.esp_mib))
				return tool_usage("--esp-size '%s': expected MiB from 1 to %llu", optarg, SIZE_MAX_MIB);
			break;
		case 'h': return fputs(help, stdout), EXIT_OK;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!out || !l.esp)
		return tool_usage("-o IMG and --esp DIR are required");
	if (fs && !l.xbootldr)
		return tool_usage("--xbootldr-fs needs --xbootldr DIR");
	if (fs && strcmp(fs, "vfat") != 0 && strcmp(fs, "ext4") != 0)
		return tool_usage("--xbootldr-fs '%s': expected vfat or ext4", fs);
	l.xbootldr_ext4 = fs && strcmp(fs, "ext4") == 0;
	for (size_t i = 0; i < DISK_MAX_PARTS; i++) {
		const char *dir = i == 0 ? l.esp : i == 1 ? l.xbootldr : i == 2 ? l.root : l.data;
		if (dir && !is_dir(dir))
			return tool_fail("%s: not a directory", dir);
	}
	if (is_dir(out))
		return tool_fail("%s: is a directory", out);
	return disk_build_layout(out, &l, /* report= */ true) < 0 ? EXIT_FAIL : EXIT_OK;
}
