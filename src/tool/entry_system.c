/* What `handoff entry add --kernel-version V` (the kernel hooks) takes from
 * the running system, as kernel-install(8) does: the command line, the
 * number of boot tries, and whether the loader can read the kernel where
 * the distribution put it (so that nothing is copied to the ESP).
 * KERNEL_INSTALL_CONF_ROOT (kernel-install's own variable) moves
 * /etc/kernel; in tests HANDOFF_PROC_CMDLINE stands in for /proc/cmdline and
 * HANDOFF_FS_ROOT marks a directory as the root of its file system (as a
 * chroot's / is for an image build). */
#define _GNU_SOURCE
#include "entry.h"
#include "esp.h"
#include "readers.h"
#include "core/cmdline.h"
#include "core/bls_count.h"
#include "core/ext4.h"
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

const char *kernel_conf_root(void)
{
	const char *env = getenv("KERNEL_INSTALL_CONF_ROOT");

	return env && *env ? env : "/etc/kernel";
}

/* @path's text with every run of white space made one space, trimmed; NULL when missing. */
static char *read_words(const char *path, const char *drop1, const char *drop2)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	char *s;

	if (read_file_opt(path, 1 << 20, &buf, &len) < 0 || !buf)
		return NULL;
	s = text_words((const char *)buf, len, drop1, drop2);
	free(buf);
	return s;
}

char *system_cmdline(void)
{
	const char *proc = getenv("HANDOFF_PROC_CMDLINE");
	char *conf = path_join(kernel_conf_root(), "cmdline"), *s;
	const char *from = conf;

	s = read_words(conf, NULL, NULL);
	if (!s)
		s = read_words(from = "/usr/lib/kernel/cmdline", NULL, NULL);
	/* the loader's own words (GRUB's BOOT_IMAGE=, systemd-boot's initrd=) are not the OS's */
	if (!s)
		s = read_words(from = proc && *proc ? proc : "/proc/cmdline", "BOOT_IMAGE=", "initrd=");
	/* the loader would skip the options line and boot without it (conf_line.h): say so now */
	if (s && cmdline_check(s, strlen(s), from) != EFI_SUCCESS) {
		free(s);
		free(conf);
		return NULL;
	}
	if (s && !*s) {
		free(s);
		s = NULL;
	}
	if (!s)
		tool_fail("no kernel command line: %s is missing and %s is empty or missing (a chroot?): "
			  "write the command line (root=...) to %s",
			  conf, proc && *proc ? proc : "/proc/cmdline", conf);
	free(conf);
	return s;
}

int system_tries(uint32_t *ret)
{
	char *path = path_join(kernel_conf_root(), "tries"), *s = read_words(path, NULL, NULL);
	uint64_t v;
	int r = 0;

	if (s && (!parse_u64(s, BLS_COUNT_MAX, &v) || strchr(s, 'x')))
		r = -tool_fail("%s: '%s' is not a number of tries (0..%u)", path, s, BLS_COUNT_MAX);
	else if (s) {
		*ret = (uint32_t)v;
		r = 1;
	}
	free(s);
	free(path);
	return r;
}

/* The mount point of the file system holding @real (a resolved path). */
static char *mount_root_of(const char *real)
{
	const char *env = getenv("HANDOFF_FS_ROOT");
	char *cur = xstrdup(real), fsroot[PATH_MAX] = "";

	if (env && *env && !realpath(env, fsroot))
		fsroot[0] = '\0';
	while (strcmp(cur, "/") != 0 && strcmp(cur, fsroot) != 0 && !is_mount_root(cur)) {
		char *slash = strrchr(cur, '/');
		if (slash == cur)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
	return cur;
}

char *fs_root_of(const char *path)
{
	char real[PATH_MAX];

	return realpath(path, real) ? mount_root_of(real) : NULL;
}

struct blockdev {
	int fd;
};

static EFI_STATUS read_dev(void *ctx, uint64_t offset, void *buf, size_t len)
{
	const struct blockdev *b = ctx;

	return pread(b->fd, buf, len, (off_t)offset) == (ssize_t)len ? EFI_SUCCESS : EFI_DEVICE_ERROR;
}

/* handoff's own ext4 driver must accept the superblock (features, checksums)
 * of the partition @sys (sysfs dir, /dev node @node). NULL, or why not. */
static char *ext4_check(const char *sys, const char *node)
{
	struct blockdev b = { .fd = open(node, O_RDONLY | O_CLOEXEC) };
	struct diag_capture cap;
	struct ext4_fs *fs = NULL;
	char *sizef = path_join(sys, "size"), *why = NULL;
	uint8_t *txt = NULL;
	size_t len = 0;
	uint64_t sectors = 0;
	EFI_STATUS err;

	if (b.fd < 0 || read_file_opt(sizef, 64, &txt, &len) < 0 || !txt) {
		free(sizef);
		if (b.fd >= 0)
			close(b.fd);
		free(txt);
		return NULL; /* cannot read it: trust the file system type */
	}
	txt = xrealloc(txt, len + 1);
	txt[len] = '\0';
	txt[strcspn((char *)txt, "\n")] = '\0';
	parse_u64((char *)txt, UINT64_MAX / 512, &sectors);
	diag_capture_begin(&cap);
	err = ext4_mount(read_dev, &b, sectors * 512, node, &fs);
	diag_capture_end(&cap);
	if (EFI_ERROR(err))
		why = xasprintf("handoff's ext4 driver refuses %s: %s", node,
				cap.n ? cap.lines[cap.n - 1] : efi_status_str(err));
	ext4_unmount(fs);
	diag_capture_free(&cap);
	close(b.fd);
	free(txt);
	free(sizef);
	return why;
}

/* @boot's partition must be on the ESP's disk; ext4 must mount with handoff's driver. */
static char *same_disk_check(const char *real, const char *esp, bool ext4)
{
	struct stat sb, se;
	char *pb = NULL, *pe = NULL, *db = NULL, *de = NULL, rb[PATH_MAX], re[PATH_MAX], *why = NULL, *node = NULL;
	char *partb = NULL;

	if (stat(real, &sb) < 0 || stat(esp, &se) < 0 || !(pb = sysfs_block_dir(sb.st_dev)) ||
	    !(pe = sysfs_block_dir(se.st_dev))) {
		why = xasprintf("%s is not on a disk partition", real);
		goto out;
	}
	partb = path_join(pb, "partition");
	db = path_join(pb, "..");
	de = path_join(pe, "..");
	if (!is_file(partb) || !realpath(db, rb) || !realpath(de, re) || strcmp(rb, re) != 0) {
		why = xasprintf("%s is not on a partition of the ESP's disk", real);
		goto out;
	}
	if (ext4) {
		node = sysfs_dev_node(pb);
		why = node ? ext4_check(pb, node) : NULL;
	}
out:
	free(node);
	free(partb);
	free(de);
	free(db);
	free(pe);
	free(pb);
	return why;
}

char *boot_readable(const char *boot, const char *esp, bool *ret_fat)
{
	char real[PATH_MAX], *mnt, *why = NULL;
	struct statfs sfs;
	const char *rel;

	*ret_fat = false;
	if (!realpath(boot, real) || statfs(real, &sfs) < 0)
		return xasprintf("%s: %s", boot, strerror(errno));
	if (sfs.f_type != EXT4_SUPER_MAGIC_FS && sfs.f_type != MSDOS_SUPER_MAGIC)
		return xasprintf("%s is neither ext4 nor FAT", boot);
	*ret_fat = sfs.f_type == MSDOS_SUPER_MAGIC;
	mnt = mount_root_of(real);
	rel = real + (strcmp(mnt, "/") == 0 ? 0 : strlen(mnt));
	/* the loader looks for loader/entries at a partition's root and in its /boot */
	if (*rel && strcmp(rel, "/boot") != 0)
		why = xasprintf("%s is %s inside its file system: the loader looks only at the root and /boot", boot,
				rel);
	else if (esp_is_mounted(esp))
		why = same_disk_check(real, esp, !*ret_fat);
	/* else an image build or a chroot: the disk does not exist yet, the file system type has to do */
	free(mnt);
	return why;
}
