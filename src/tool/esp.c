/* Where the ESP is. As bootctl(1) looks for it: /efi, /boot/efi, /boot, the
 * first that is the root of a mounted FAT file system and, when its disk can
 * be read, a GPT partition of type ESP (UEFI 2.10 Table 5.7). A directory
 * given with --esp is taken as it is (image builds, chroots). handoff
 * install records the ESP it used in /etc/handoff/esp, so the kernel hooks of
 * an image built in a chroot keep finding it; the record is written only
 * where /etc/handoff exists (the Debian package creates it: without the
 * package there are no hooks to read it). HANDOFF_CONF_DIR stands in for
 * /etc/handoff in tests. */
#define _GNU_SOURCE
#include "esp.h"
#include "handoff_conf.h"
#include "core/gpt.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

#define ESP_RECORD "esp"
#define GPT_HEAD_BYTES (64u << 10) /* LBA 0 to the end of any sane entry array */

static const char *const esp_candidates[] = { "/efi", "/boot/efi", "/boot" };

static bool fs_is_fat(const char *path)
{
	struct statfs sfs;

	return statfs(path, &sfs) == 0 && sfs.f_type == MSDOS_SUPER_MAGIC;
}

bool is_mount_root(const char *path)
{
	char *parent = path_join(path, "..");
	struct stat a, b;
	bool r = stat(path, &a) == 0 && stat(parent, &b) == 0 && (a.st_dev != b.st_dev || a.st_ino == b.st_ino);

	free(parent);
	return r;
}

char *sysfs_block_dir(dev_t dev)
{
	char *link = xasprintf("/sys/dev/block/%u:%u", major(dev), minor(dev)), real[PATH_MAX];
	char *r = realpath(link, real) ? xstrdup(real) : NULL;

	free(link);
	return r;
}

/* A one-line sysfs attribute as a number. */
bool sysfs_u64(const char *dir, const char *name, uint64_t *ret)
{
	char *p = path_join(dir, name), line[64];
	FILE *f = fopen(p, "re");
	bool ok = f && fgets(line, sizeof(line), f) &&
		  (line[strcspn(line, "\n")] = '\0', parse_u64(line, UINT64_MAX, ret));

	if (f)
		fclose(f);
	free(p);
	return ok;
}

/* /dev/NAME of the sysfs block device @dir (its uevent's DEVNAME). */
char *sysfs_dev_node(const char *dir)
{
	char *uevent = path_join(dir, "uevent"), line[256], *node = NULL;
	FILE *f = fopen(uevent, "re");

	while (f && !node && fgets(line, sizeof(line), f))
		if (strncmp(line, "DEVNAME=", 8) == 0)
			node = xasprintf("/dev/%.*s", (int)strcspn(line + 8, "\n"), line + 8);
	if (f)
		fclose(f);
	free(uevent);
	return node;
}

int partition_gpt_ids(const char *path, EFI_GUID *ret_type, EFI_GUID *ret_uuid)
{
	struct stat st;
	char *part = NULL, *disk = NULL, *node = NULL;
	uint8_t *head = NULL;
	uint64_t number, sectors;
	int fd = -1, r = -1;
	ssize_t n;

	if (stat(path, &st) < 0 || !(part = sysfs_block_dir(st.st_dev)) || !sysfs_u64(part, "partition", &number) ||
	    number == 0 || number > UINT32_MAX)
		goto out;
	disk = path_join(part, "..");
	node = sysfs_dev_node(disk);
	if (!node || !sysfs_u64(disk, "size", &sectors) || (fd = open(node, O_RDONLY | O_CLOEXEC)) < 0)
		goto out;
	head = xmalloc(GPT_HEAD_BYTES);
	n = pread(fd, head, GPT_HEAD_BYTES, 0);
	if (n > 0 && gpt_read_entry(head, (size_t)n, sectors, (uint32_t)(number - 1), node, ret_type, ret_uuid) ==
			     EFI_SUCCESS)
		r = 0;
out:
	if (fd >= 0)
		close(fd);
	free(head);
	free(node);
	free(disk);
	free(part);
	return r;
}

/* The GPT type of the partition holding @path, when its disk can be read:
 * 1 the ESP type, 0 another type, -1 cannot tell (no sysfs, no GPT, not
 * root: then the file system type has to do). */
static int esp_partition_type(const char *path)
{
	static const EFI_GUID esp_type = GPT_TYPE_ESP;
	EFI_GUID type, uuid;

	return partition_gpt_ids(path, &type, &uuid) < 0 ? -1 : guid_equal(&type, &esp_type);
}

/* Why @path is not a mounted ESP, or NULL when it is one. */
static const char *esp_not_mounted_why(const char *path)
{
	if (!is_dir(path))
		return "missing";
	if (!fs_is_fat(path))
		return "not a FAT file system";
	if (!is_mount_root(path))
		return "not a mount point";
	if (esp_partition_type(path) == 0)
		return "not a partition of type ESP (c12a7328-f81f-11d2-ba4b-00a0c93ec93b)";
	return NULL;
}

bool esp_is_mounted(const char *path)
{
	return !esp_not_mounted_why(path);
}

static char *esp_recorded(void)
{
	char *path = path_join(conf_dir(), ESP_RECORD), line[PATH_MAX], *r = NULL;
	FILE *f = fopen(path, "re");

	if (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '/')
			r = xstrdup(line);
	}
	if (f)
		fclose(f);
	free(path);
	return r;
}

int esp_record(const char *esp)
{
	char real[PATH_MAX], *path, *text;
	int r;

	if (!is_dir(conf_dir()))
		return 0;
	if (!realpath(esp, real))
		return tool_fail("%s: %s", esp, strerror(errno)), -1;
	path = path_join(conf_dir(), ESP_RECORD);
	text = xasprintf("%s\n", real);
	r = install_file(path, text, strlen(text), 0644);
	if (r > 0)
		printf("recorded %s in %s\n", real, path);
	free(text);
	free(path);
	return r < 0 ? -1 : 0;
}

char *esp_locate(const char *opt, bool quiet)
{
	char *rec;

	if (opt) {
		if (is_dir(opt))
			return xstrdup(opt);
		if (!quiet)
			tool_fail("%s: not a directory", opt);
		return NULL;
	}
	rec = esp_recorded();
	if (rec && is_dir(rec))
		return rec;
	if (rec && !quiet)
		tool_note("%s (recorded in %s/" ESP_RECORD ") is gone: looking for the ESP", rec, conf_dir());
	free(rec);
	for (size_t i = 0; i < sizeof(esp_candidates) / sizeof(esp_candidates[0]); i++)
		if (esp_is_mounted(esp_candidates[i]))
			return xstrdup(esp_candidates[i]);
	if (!quiet) {
		char why[512] = "";
		for (size_t i = 0; i < sizeof(esp_candidates) / sizeof(esp_candidates[0]); i++)
			snprintf(why + strlen(why), sizeof(why) - strlen(why), "%s%s: %s", i ? ", " : "",
				 esp_candidates[i], esp_not_mounted_why(esp_candidates[i]));
		tool_fail("no EFI system partition found (%s); mount it or give --esp DIR", why);
	}
	return NULL;
}
