/* libFuzzer: SMBIOS as the loader and the stub read it (src/core/smbios.c):
 * byte 0 picks the entry point kind, the next 0x20 bytes are the entry
 * point, the rest the structure table; each is copied to a buffer of its
 * exact size, so ASan sees any read past what the firmware gave. An OEM
 * string found must lie in the table, start a string of a type 11 structure
 * (checked by a reader of its own) and end at a NUL inside it; the mangled
 * extra is well-formed UTF-8 with no control character and no blank at
 * either end. */
#include "core/smbios.h"
#include "utf8_ref.h"
#include <stdlib.h>

#define EP_SIZE 0x20

static uint8_t *copy(const uint8_t *p, size_t n)
{
	uint8_t *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

/* Is @at the start of a string in a type 11 structure's set? Walked again,
 * naively: formatted areas by their lengths, strings by their NULs. */
static bool starts_oem_string(const uint8_t *t, size_t size, size_t at)
{
	size_t off = 0;

	while (off + 4 <= size && t[off] != 127 && t[off + 1] >= 4 && t[off + 1] <= size - off) {
		bool oem = t[off] == 11 && t[off + 1] >= 5;
		size_t s = off + t[off + 1];

		if (s + 1 < size && t[s] == 0 && t[s + 1] == 0) {
			off = s + 2;
			continue;
		}
		while (s < size && t[s] != 0) {
			if (oem && s == at)
				return true;
			while (s < size && t[s] != 0)
				s++;
			s++;
		}
		off = s + 1;
	}
	return false;
}

static void check_extra(const char *v, size_t len)
{
	char *x = smbios_cmdline_extra(v, len, "fuzz");
	size_t n;

	if (!x)
		return;
	n = strlen(x);
	if (n == 0 || n > len || x[0] == ' ' || x[n - 1] == ' ' || !ref_utf8_valid((const uint8_t *)x, n, NULL))
		abort();
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)x[i] < ' ' || x[i] == 0x7f)
			abort();
	free(x);
}

static void check_table(const uint8_t *t, size_t size, const char *prefix)
{
	size_t len = 0, n = strlen(prefix);
	const char *v = smbios_oem_string(t, size, prefix, &len);
	size_t at;

	if (!v)
		return;
	at = (size_t)((const uint8_t *)v - t);
	if (at < n || at > size || len >= size - at || v[len] != 0 || memchr(v, 0, len) ||
	    memcmp(v - n, prefix, n) != 0 || !starts_oem_string(t, size, at - n))
		abort();
	check_extra(v, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *ep, *table;
	uint64_t addr;
	uint32_t tsize;

	if (size < 1 + EP_SIZE)
		return 0;
	ep = copy(data + 1, EP_SIZE);
	if (ep && smbios_entry_point(ep, EP_SIZE, data[0] & 1, &addr, &tsize) && (!addr || !tsize))
		abort();
	free(ep);
	table = copy(data + 1 + EP_SIZE, size - 1 - EP_SIZE);
	if (table) {
		check_table(table, size - 1 - EP_SIZE, SMBIOS_BOOT_CMDLINE_EXTRA);
		check_table(table, size - 1 - EP_SIZE, "io.");
	}
	free(table);
	return 0;
}
