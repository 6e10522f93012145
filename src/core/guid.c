#include "guid.h"
#include "fmt.h"

void guid_format(const EFI_GUID *g, char out[GUID_STRING_SIZE])
{
	const uint8_t *d = g->Data4;

	fmt_snprintf(out, GUID_STRING_SIZE, "%08x-%04x-%04x-%02x%02x-%02x%02x%02x%02x%02x%02x", g->Data1, g->Data2,
		     g->Data3, d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]);
}
