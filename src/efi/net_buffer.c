/* The buffer a transport (net_http.c, net_tftp.c) fetches a whole file into,
 * which net_fs.c then serves: its own file, so that neither side depends on
 * the other for it. */
#include "net.h"

uint8_t *net_buffer(const char *name, uint64_t size)
{
	uint8_t *buf = size < NET_FILE_MAX ? mem_alloc(size ? size : 1) : NULL;

	if (!buf)
		log_error_status(EFI_OUT_OF_RESOURCES, "%s: %llu bytes: too large, or no memory", name,
				 (unsigned long long)size);
	return buf;
}

bool net_buffer_grow(const char *name, uint8_t **buf, size_t *size, size_t used)
{
	/* *size < NET_FILE_MAX (2 GiB): doubling it cannot wrap 32 bits; net_buffer() refuses 2 GiB */
	size_t want = *size ? *size * 2 : NET_BUFFER_FIRST;
	uint8_t *p = net_buffer(name, want);

	if (!p)
		return false;
	if (used)
		memcpy(p, *buf, used);
	mem_free(TAKE_PTR(*buf));
	*buf = p;
	*size = want;
	return true;
}
