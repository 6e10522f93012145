/* guid_format() on the GPT partition GUID bytes as a disk stores them. */
#include "test.h"
#include "core/guid.h"

TEST(guid_format_mixed_endian)
{
	/* ESP type C12A7328-F81F-11D2-BA4B-00A0C93EC93B as stored on disk. */
	static const uint8_t disk[16] = { 0x28, 0x73, 0x2a, 0xc1, 0x1f, 0xf8, 0xd2, 0x11,
					  0xba, 0x4b, 0x00, 0xa0, 0xc9, 0x3e, 0xc9, 0x3b };
	EFI_GUID g;
	char s[GUID_STRING_SIZE];

	memcpy(&g, disk, sizeof(g));
	guid_format(&g, s);
	CHECK_STR(s, "c12a7328-f81f-11d2-ba4b-00a0c93ec93b");
}
