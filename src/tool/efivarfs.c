/* EFI variables through Linux's efivarfs (the kernel's efivarfs documentation):
 * a file NAME-GUID holds the 4 attribute bytes, then the data, and is
 * written in one write(); efivarfs marks files immutable, so the flag is
 * cleared before a rewrite or unlink. Strings of the Boot Loader Interface
 * are UTF-16 with a terminating NUL, converted by src/core/str16.c as the
 * loader converts them. HANDOFF_EFIVARS_DIR stands in for
 * /sys/firmware/efi/efivars in tests (efivars_dir()). */
#define _GNU_SOURCE
#include "efivarfs.h"
#include "core/str16.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define EFIVAR_MAX_SIZE (1u << 20)

static char *var_path(const char *name, const char *guid)
{
	return xasprintf("%s/%s-%s", efivars_dir(), name, guid);
}

static void clear_immutable(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), flags;

	if (fd < 0)
		return;
	if (ioctl(fd, FS_IOC_GETFLAGS, &flags) == 0 && (flags & FS_IMMUTABLE_FL)) {
		flags &= ~FS_IMMUTABLE_FL;
		ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
}

uint8_t *efivar_read(const char *name, const char *guid, size_t *ret_len)
{
	char *path = var_path(name, guid);
	uint8_t *buf = NULL;
	size_t len = 0;

	if (read_file_opt(path, EFIVAR_MAX_SIZE, &buf, &len) < 0 || !buf || len < 4) {
		free(buf);
		buf = NULL;
	} else {
		memmove(buf, buf + 4, len - 4);
		*ret_len = len - 4;
	}
	free(path);
	return buf;
}

int efivar_write(const char *name, const char *guid, uint32_t attrs, const void *data, size_t len)
{
	return efivar_write_mode(name, guid, attrs, data, len, 0644);
}

int efivar_write_mode(const char *name, const char *guid, uint32_t attrs, const void *data, size_t len, mode_t mode)
{
	char *path = var_path(name, guid);
	uint8_t *buf = xmalloc(len + 4);
	int fd, r = 0;

	put_le32(buf, attrs);
	memcpy(buf + 4, data, len);
	clear_immutable(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0 || write(fd, buf, len + 4) != (ssize_t)(len + 4))
		r = -tool_fail("%s: write: %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	free(buf);
	free(path);
	return r;
}

int efivar_delete(const char *name, const char *guid)
{
	char *path = var_path(name, guid);
	int r = 0;

	clear_immutable(path);
	if (unlink(path) < 0 && errno != ENOENT)
		r = -tool_fail("%s: unlink: %s", path, strerror(errno));
	free(path);
	return r;
}

char *efivar_read_str(const char *name, const char *guid)
{
	size_t len = 0;
	uint8_t *buf = efivar_read(name, guid, &len);
	char *s;

	if (!buf)
		return NULL;
	s = str16le_to_8(buf, len / 2); /* the loader's own decoding: pairs combined, a lone half U+FFFD */
	free(buf);
	if (!s) {
		fputs("handoff: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return s;
}

int efivar_write_str(const char *name, const char *guid, uint32_t attrs, const char *value)
{
	char why[UTF8_PROBLEM_MAX];
	const char *bad = utf8_problem(value, strlen(value), why);
	CHAR16 *v;
	int r;

	if (bad)
		return tool_fail("%s: '%s': %s", name, value, bad), -1;
	v = str8_to_16(value, /* path= */ false); /* UTF-16, as the loader reads it back */
	if (!v) {
		fputs("handoff: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	r = efivar_write(name, guid, attrs, v, (strlen16(v) + 1) * sizeof(CHAR16));
	free(v);
	return r;
}
