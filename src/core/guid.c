/* EFI_GUID as text (UEFI 2.10 Appendix A): "8-4-4-4-12" hex digits, the
 * first three fields as numbers (stored little-endian), the last eight
 * bytes in order. */
#include "guid.h"
#include "fmt.h"

void guid_format(const EFI_GUID *g, char out[GUID_STRING_SIZE])
{
	const uint8_t *d = g->Data4;

	fmt_snprintf(out, GUID_STRING_SIZE, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", g->Data1, g->Data2,
		     g->Data3, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
}

bool guid_parse(const char *s, size_t len, EFI_GUID *ret)
{
	uint8_t b[16] = { 0 };
	unsigned n = 0, k;

	if (len != GUID_STRING_SIZE - 1)
		return false;
	for (unsigned i = 0; i < GUID_STRING_SIZE - 1; i++) {
		unsigned c = (unsigned char)s[i], v = c - '0';

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (c != '-')
				return false;
			continue;
		}
		if (v > 9 && ((v = (c | 0x20) - 'a' + 10) < 10 || v > 15))
			return false; /* not a hex digit ((c | 0x20): ASCII lower case) */
		/* byte k of the text: Data1, Data2 and Data3 are little-endian
		 * numbers (UEFI 2.10 §2.3.1), Data4 is bytes in order */
		k = n++ / 2;
		k = k < 4 ? 3 - k : k < 8 ? k ^ 1 : k;
		b[k] = (uint8_t)(b[k] << 4 | v);
	}
	memcpy(ret, b, sizeof(b));
	return true;
}
