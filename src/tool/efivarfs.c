/* EFI variables through Linux's efivarfs (the kernel's efivarfs documentation):
 * a file NAME-GUID holds the 4 attribute bytes, then the data, and is
 * written in one write(); efivarfs marks files immutable, so the flag is
 * cleared before a rewrite or unlink. Strings of the Boot Loader Interface
 * are UCS-2 with a terminating NUL. HANDOFF_EFIVARS_DIR stands in for
 * /sys/firmware/efi/efivars in tests (efivars_dir()). */
#define _GNU_SOURCE
#include "efivarfs.h"
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
	char *path = var_path(name, guid);
	uint8_t *buf = xmalloc(len + 4);
	int fd, r = 0;

	put_le32(buf, attrs);
	memcpy(buf + 4, data, len);
	clear_immutable(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
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
	struct strbuf sb = { 0 };

	if (!buf)
		return NULL;
	for (size_t i = 0; i + 1 < len; i += 2) {
		uint16_t c = get_le16(buf + i);
		if (!c)
			break;
		if (c < 0x80)
			sb_putc(&sb, (char)c);
		else if (c < 0x800)
			sb_printf(&sb, "%c%c", 0xc0 | c >> 6, 0x80 | (c & 0x3f));
		else
			sb_printf(&sb, "%c%c%c", 0xe0 | c >> 12, 0x80 | (c >> 6 & 0x3f), 0x80 | (c & 0x3f));
	}
	free(buf);
	return sb.buf ? sb.buf : xstrdup("");
}

int efivar_write_str(const char *name, const char *guid, uint32_t attrs, const char *value)
{
	struct strbuf sb = { 0 };
	const unsigned char *p = (const unsigned char *)value;
	int r;

	while (*p) {
		uint32_t c = *p++;
		uint8_t u[2];

		if (c >= 0xc0 && c < 0xe0 && (*p & 0xc0) == 0x80)
			c = (c & 0x1f) << 6 | (*p++ & 0x3f);
		else if (c >= 0xe0 && c < 0xf0 && (p[0] & 0xc0) == 0x80 && (p[1] & 0xc0) == 0x80) {
			c = (c & 0x0f) << 12 | (p[0] & 0x3f) << 6 | (p[1] & 0x3f);
			p += 2;
		} else if (c >= 0x80) {
			sb_free(&sb);
			return tool_fail("%s: '%s' is not UTF-8 text of the Basic Multilingual Plane (UCS-2)", name,
					 value),
			       -1;
		}
		put_le16(u, (uint16_t)c);
		sb_putn(&sb, (const char *)u, 2);
	}
	sb_putn(&sb, "\0\0", 2);
	r = efivar_write(name, guid, attrs, sb.buf, sb.len);
	sb_free(&sb);
	return r;
}
