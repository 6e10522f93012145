/* SMBIOS entry points and the structure walk (DMTF DSP0134 3.x §5.2 and
 * §6.1.3: a structure is a formatted area, whose header gives its type and
 * length, followed by its string set, non-empty strings each ending in a NUL
 * and the set in one more; a set without strings is two NULs), and the OEM
 * strings (type 11, §7.12) systemd reads its kernel-cmdline-extra from. */
#include "smbios.h"
#include "log.h"
#include "str16.h"

#define SMBIOS_INTERMEDIATE_ANCHOR 0x10 /* "_DMI_" */
#define SMBIOS_EP_LENGTH 0x05
#define SMBIOS3_EP_LENGTH 0x06
#define SMBIOS_HEADER_SIZE 4 /* type, length, handle */
#define SMBIOS_OEM_COUNT_END 5 /* the type 11 formatted area: header and Count */

bool smbios_entry_point(const uint8_t *ep, size_t avail, bool v3, uint64_t *ret_addr, uint32_t *ret_size)
{
	size_t min = v3 ? SMBIOS3_EP_MIN : SMBIOS_EP_MIN, len;
	uint64_t addr;
	uint32_t size;

	if (!ep || avail < min || memcmp(ep, v3 ? "_SM3_" : "_SM_", v3 ? 5 : 4) != 0)
		return false;
	len = ep[v3 ? SMBIOS3_EP_LENGTH : SMBIOS_EP_LENGTH];
	if (len < min || len > avail || (!v3 && memcmp(ep + SMBIOS_INTERMEDIATE_ANCHOR, "_DMI_", 5) != 0))
		return false;
	addr = v3 ? get_le64(ep + SMBIOS3_TABLE_ADDRESS) : get_le32(ep + SMBIOS_TABLE_ADDRESS);
	size = v3 ? get_le32(ep + SMBIOS3_TABLE_MAX_SIZE) : get_le16(ep + SMBIOS_TABLE_LENGTH);
	if (addr == 0 || size == 0 || addr > UINTPTR_MAX || size > UINTPTR_MAX - addr)
		return false;
	*ret_addr = addr;
	*ret_size = size;
	return true;
}

/* The string set from @off: calls back for each string (when @prefix), and
 * returns the offset after it, or 0 when it does not end before @size. */
static size_t string_set(const uint8_t *t, size_t size, size_t off, const char *prefix, const char **found,
			 size_t *ret_len)
{
	size_t n = prefix ? strlen(prefix) : 0;

	if (off < size && t[off] == 0) /* no strings: two NULs */
		return off + 1 < size && t[off + 1] == 0 ? off + 2 : 0;
	while (off < size) {
		const uint8_t *e = memchr(t + off, 0, size - off);
		size_t len;

		if (!e)
			return 0;
		len = (size_t)(e - (t + off));
		if (len == 0)
			return off + 1;
		if (prefix && !*found && len >= n && memcmp(t + off, prefix, n) == 0) {
			*found = (const char *)t + off + n;
			*ret_len = len - n;
		}
		off += len + 1;
	}
	return 0;
}

const char *smbios_oem_string(const uint8_t *table, size_t size, const char *prefix, size_t *ret_len)
{
	size_t off = 0;

	while (off < size && size - off >= SMBIOS_HEADER_SIZE) {
		uint8_t type = table[off], len = table[off + 1];
		bool oem = type == SMBIOS_TYPE_OEM_STRINGS && len >= SMBIOS_OEM_COUNT_END;
		const char *found = NULL;

		if (type == SMBIOS_TYPE_END || len < SMBIOS_HEADER_SIZE || len > size - off)
			break;
		off = string_set(table, size, off + len, oem ? prefix : NULL, &found, ret_len);
		if (off == 0) /* a string set cut short: not even what it began with */
			break;
		if (found)
			return found;
	}
	return NULL;
}

static bool blank(uint8_t c)
{
	return c <= ' ' || c == 0x7f; /* systemd's shall_be_whitespace() */
}

char *smbios_cmdline_extra(const char *value, size_t len, const char *what)
{
	const uint8_t *v = (const uint8_t *)value;
	size_t off;
	char *out;

	while (len > 0 && blank(v[0]))
		v++, len--;
	while (len > 0 && blank(v[len - 1]))
		len--;
	if (len == 0)
		return NULL;
	if (!utf8_check((const char *)v, len, &off)) {
		log_warning("SMBIOS %s: not UTF-8 at byte %zu: ignored", what, off);
		return NULL;
	}
	out = mem_alloc(len + 1);
	for (size_t i = 0; out && i < len; i++)
		out[i] = blank(v[i]) ? ' ' : (char)v[i];
	if (out)
		out[len] = 0;
	return out;
}
