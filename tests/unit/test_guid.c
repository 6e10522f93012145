/* guid_format() on the GPT partition GUID bytes as a disk stores them; guid_parse() of the text form. */
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

TEST(guid_parse_round_trips_and_refuses_near_misses)
{
	static const EFI_GUID xbootldr = { 0xbc13c2ff, 0x59e6, 0x4262,
					   { 0xa3, 0x52, 0xb2, 0x75, 0xfd, 0x6f, 0x71, 0x72 } };
	static const char *const bad[] = {
		"bc13c2ff-59e6-4262-a352-b275fd6f717",     /* one digit short */
		"bc13c2ff-59e6-4262-a352-b275fd6f71722",   /* one digit more */
		"bc13c2ff59e6-4262-a352-b275fd6f71722",    /* a dash moved */
		"bc13c2ff-59e6-4262-a352_b275fd6f7172",    /* not a dash */
		"bc13c2ff-59e6-4262-a352-b275fd6f717g",    /* not hex */
		"{c13c2ff-59e6-4262-a352-b275fd6f7172",
		" bc13c2ff-59e6-4262-a352-b275fd6f7172",
		"bc13c2ff-59e6-4262-a352-b275fd6f71 2",
		"bc13c2ff-59e6-4262-a352-b275fd6f71\0002",
		"",
	};
	EFI_GUID g, untouched = { 1, 2, 3, { 4 } };
	char s[GUID_STRING_SIZE];

	CHECK(guid_parse("bc13c2ff-59e6-4262-a352-b275fd6f7172", 36, &g));
	CHECK_MEM(&g, &xbootldr, sizeof(g));
	CHECK(guid_parse("BC13C2FF-59E6-4262-A352-B275FD6F7172", 36, &g)); /* as sfdisk and blkid print it */
	CHECK_MEM(&g, &xbootldr, sizeof(g));
	guid_format(&g, s);
	CHECK_STR(s, "bc13c2ff-59e6-4262-a352-b275fd6f7172");
	/* the length decides, not a NUL: a longer buffer is not a GUID */
	CHECK(!guid_parse("bc13c2ff-59e6-4262-a352-b275fd6f7172", 35, &g));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		g = untouched;
		if (guid_parse(bad[i], i == 8 ? 36 : strlen(bad[i]), &g))
			test_fail(__FILE__, __LINE__, "'%s' parsed as a GUID", bad[i]);
		CHECK_MEM(&g, &untouched, sizeof(g));
	}
}
