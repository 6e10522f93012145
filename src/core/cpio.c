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

/* One record: header, @path_len bytes of @path (and "/@name" when @name is
 * set) with a NUL, then data, each padded to 4 bytes from the start of the
 * archive (@start). */
static uint8_t *put_record(uint8_t *p, const uint8_t *start, uint32_t ino, uint32_t mode, const char *path,
			   size_t path_len, const char *name, const void *data, uint32_t size)
{
	size_t name_len = name ? strlen(name) + 1 : 0;
	/* ino, mode, uid, gid, nlink, mtime, filesize, dev and rdev major/minor, namesize, check */
	uint32_t fields[13] = { ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, (uint32_t)(path_len + name_len + 1), 0 };

	memcpy(p, CPIO_MAGIC, 6);
	p += 6;
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
		p = put_hex8(p, fields[i]);
	memcpy(p, path, path_len);
	p += path_len;
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

/* The archive's size; 0 when a name or a file does not fit (logged). */
static size_t archive_size(const char *dir, const struct cpio_file *files, size_t n)
{
	size_t dir_len = strlen(dir), total = sizeof(cpio_trailer);

	for (size_t i = 0; i <= dir_len; i++) /* one record per component: "a", "a/b" */
		if (dir[i] == '/' || dir[i] == 0)
			total += record_size(i, 0);
	for (size_t i = 0; i < n; i++) {
		size_t name_len = strlen(files[i].name);

		/* sizes far below what wraps: a name is short, a file below 4 GiB (newc sizes are 32 bits) */
		if ((uint64_t)files[i].size > UINT32_MAX - 3 || dir_len > 4096 || name_len > 4096 ||
		    files[i].size > SIZE_MAX - total - 8192 - 3) {
			log_error("cpio %s/%s: %zu bytes do not fit a newc archive", dir, files[i].name, files[i].size);
			return 0;
		}
		total += record_size(dir_len + 1 + name_len, files[i].size);
	}
	return total;
}

EFI_STATUS cpio_archive(const char *dir, uint32_t dir_mode, uint32_t file_mode, const struct cpio_file *files,
			size_t n, uint8_t **ret, size_t *ret_size)
{
	size_t total = archive_size(dir, files, n);
	uint32_t ino = 1;
	uint8_t *buf, *p;

	if (!total)
		return EFI_BAD_BUFFER_SIZE;
	buf = mem_alloc(total);
	if (!buf)
		return log_error_status(EFI_OUT_OF_RESOURCES, "cpio %s: out of memory", dir);
	p = buf;
	for (size_t i = 0; dir[i]; i++) /* the leading directories 0555, as mkdir -p (systemd's pack_cpio_prefix()) */
		if (dir[i] == '/')
			p = put_record(p, buf, ino++, CPIO_S_IFDIR | 0555u, dir, i, NULL, NULL, 0);
	p = put_record(p, buf, ino++, CPIO_S_IFDIR | dir_mode, dir, strlen(dir), NULL, NULL, 0);
	for (size_t i = 0; i < n; i++)
		p = put_record(p, buf, ino++, CPIO_S_IFREG | file_mode, dir, strlen(dir), files[i].name, files[i].data,
			       (uint32_t)files[i].size);
	memcpy(p, cpio_trailer, sizeof(cpio_trailer)); /* its NUL is the last padding byte */
	*ret = buf;
	*ret_size = total;
	return EFI_SUCCESS;
}

EFI_STATUS cpio_one_file(const char *dir, const char *name, const void *data, size_t size, uint32_t dir_mode,
			 uint32_t file_mode, uint8_t **ret, size_t *ret_size)
{
	struct cpio_file f = { name, data, size };

	return cpio_archive(dir, dir_mode, file_mode, &f, 1, ret, ret_size);
}
