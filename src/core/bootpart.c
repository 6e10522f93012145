/* Which partitions may supply boot entries: the pure decision (bootpart.h);
 * src/efi/volumes.c gathers the facts from the firmware. */
#include "bootpart.h"
#include "gpt.h"

/* EFI_GUID has no padding (efi.h asserts its size): equal GUIDs are equal
 * bytes. Byte-wise, as the firmware's GUID may sit unaligned in a device path. */
static bool same_guid(const void *a, const void *b)
{
	return memcmp(a, b, sizeof(EFI_GUID)) == 0;
}

enum bootpart bootpart_classify(const struct bootpart_facts *f, const EFI_GUID *named, size_t n_named)
{
	static const EFI_GUID xbootldr = GPT_TYPE_XBOOTLDR;

	for (size_t i = 0; f->part_uuid && i < n_named; i++)
		if (same_guid(f->part_uuid, &named[i]))
			return BOOTPART_NAMED;
	return f->type && same_guid(f->type, &xbootldr) ? BOOTPART_XBOOTLDR : BOOTPART_IGNORED;
}
