/* newc cpio archives of one file (src/core/cpio.h): the format of the
 * kernel's Documentation/driver-api/early-userspace/buffer-format.rst, with
 * the field values systemd-stub gives its /.extra archives. */
#include "cpio.h"
#include "log.h"

#define CPIO_MAGIC "070701"
#define CPIO_HEADER_SIZE 110u /* the magic and 13 fields of 8 hex digits */
#define CPIO_S_IFDIR 0040000u
#define CPIO_S_IFREG 0100000u
/* The trailer as systemd-stub writes it: nlink 1, name size 0xB in upper case;
 * with the string's own NUL, 124 bytes (4-byte aligned). */
static const char cpio_trailer[] = CPIO_MAGIC "00000000000000000000000000000000"
				   "00000001000000000000000000000000000000000000000000000000"
				   "0000000B00000000TRAILER!!!\0\0\0";

_Static_assert(sizeof(cpio_trailer) == 124, "systemd-stub's trailer record");

static uint8_t *put_hex8(uint8_t *p, uint32_t v)
{
	static const char hex[] = "0123456789abcdef";

	for (int i = 7; i >= 0; i--, v >>= 4)
		p[i] = (uint8_t)hex[v & 0xf];
	return p + 8;
}

/* One record: header, name with its NUL, data, each padded to 4 bytes from
 * the start of the archive (@start). */
static uint8_t *put_record(uint8_t *p, const uint8_t *start, uint32_t ino, uint32_t mode, const char *dir,
			   const char *name, const void *data, uint32_t size)
{
	size_t dir_len = strlen(dir), name_len = name ? strlen(name) + 1 : 0;
	/* ino, mode, uid, gid, nlink, mtime, filesize, dev and rdev major/minor, namesize, check */
	uint32_t fields[13] = { ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, (uint32_t)(dir_len + name_len + 1), 0 };

	memcpy(p, CPIO_MAGIC, 6);
	p += 6;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		p = put_hex8(p, fields[i]);
	memcpy(p, dir, dir_len);
	p += dir_len;
	if (name) {
		*p++ = '/';
		memcpy(p, name, name_len - 1);
		p += name_len - 1;
	}
	*p++ = 0;
	while ((p - start) % 4)
		*p++ = 0;
	if (size)
		memcpy(p, data, size);
	p += size;
	while ((p - start) % 4)
		*p++ = 0;
	return p;
}

static size_t record_size(size_t name_len, size_t data_size)
{
	return ALIGN_UP(CPIO_HEADER_SIZE + name_len + 1, (size_t)4) + ALIGN_UP(data_size, (size_t)4);
}

EFI_STATUS cpio_one_file(const char *dir, const char *name, const void *data, size_t size, uint32_t dir_mode,
			 uint32_t file_mode, uint8_t **ret, size_t *ret_size)
{
	size_t dir_len = strlen(dir), name_len = strlen(name), total;
	uint8_t *buf, *p;

	/* sizes far below what wraps: a name is short, the file below 4 GiB */
	if ((uint64_t)size > UINT32_MAX - 3 || dir_len > 4096 || name_len > 4096)
		return log_error_status(EFI_BAD_BUFFER_SIZE, "cpio %s/%s: %zu bytes do not fit a newc archive", dir,
					name, size);
	total = record_size(dir_len, 0) + record_size(dir_len + 1 + name_len, 0) + sizeof(cpio_trailer);
	if (size > SIZE_MAX - total - 3)
		return log_error_status(EFI_BAD_BUFFER_SIZE, "cpio %s/%s: %zu bytes: too large", dir, name, size);
	total += ALIGN_UP(size, (size_t)4);
	buf = mem_alloc(total);
	if (!buf)
		return log_error_status(EFI_OUT_OF_RESOURCES, "cpio %s/%s: out of memory", dir, name);
	p = put_record(buf, buf, 1, CPIO_S_IFDIR | dir_mode, dir, NULL, NULL, 0);
	p = put_record(p, buf, 2, CPIO_S_IFREG | file_mode, dir, name, data, (uint32_t)size);
	memcpy(p, cpio_trailer, sizeof(cpio_trailer)); /* its NUL is the last padding byte */
	*ret = buf;
	*ret_size = total;
	return EFI_SUCCESS;
}
