/* cpio_one_file(): the exact bytes systemd-stub writes for a /.extra file
 * (pack_cpio_literal(): directory, file, trailer; lower-case hex, inodes 1
 * and 2, no mtime), and the size limits. */
#include "test.h"
#include "core/cpio.h"
#include <stdlib.h>

static const char expected_abc[] =
	/* .extra: directory 0555, inode 1, name size 7 ("" + NUL), padded to 4 */
	"070701" "00000001" "0000416d" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "00000007" "00000000" ".extra\0\0\0\0"
	/* .extra/x.json: regular file 0444, inode 2, 3 bytes, name size 0xe */
	"070701" "00000002" "00008124" "00000000" "00000000" "00000001" "00000000" "00000003"
	"00000000" "00000000" "00000000" "00000000" "0000000e" "00000000" ".extra/x.json\0" "abc\0"
	/* the trailer: nlink 1, name size 0xB (upper case, as systemd's literal) */
	"070701" "00000000" "00000000" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "0000000B" "00000000" "TRAILER!!!\0\0\0";

TEST(cpio_one_file_is_systemd_stubs_archive)
{
	uint8_t *a = NULL;
	size_t n = 0;

	CHECK_EQ(cpio_one_file(".extra", "x.json", "abc", 3, CPIO_DIR_MODE, CPIO_FILE_MODE, &a, &n), EFI_SUCCESS);
	CHECK_EQ(n, sizeof(expected_abc)); /* the literal's own NUL is the trailer's last padding byte */
	if (a && n == sizeof(expected_abc))
		CHECK_MEM(a, expected_abc, n);
	CHECK_EQ(n % 4, 0);
	free(a);
}

/* Data already 4-byte aligned gets no padding; empty data none either. */
TEST(cpio_one_file_alignment)
{
	uint8_t *a = NULL;
	size_t n = 0;

	CHECK_EQ(cpio_one_file(".extra", "x.json", "abcd", 4, CPIO_DIR_MODE, CPIO_FILE_MODE, &a, &n), EFI_SUCCESS);
	CHECK_EQ(n, sizeof(expected_abc));
	if (a && n == sizeof(expected_abc)) {
		CHECK_MEM(a + 244, "abcd", 4);
		CHECK_MEM(a + 248, "070701", 6);
	}
	free(a);
	a = NULL;
	CHECK_EQ(cpio_one_file("d", "f", NULL, 0, 0500, 0400, &a, &n), EFI_SUCCESS);
	/* 110 + "d\0" -> 112; 110 + "d/f\0" -> 116; trailer 124 */
	CHECK_EQ(n, 112 + 116 + 124);
	if (a && n == 352) {
		CHECK_MEM(a + 14, "00004140", 8);
		CHECK_MEM(a + 112 + 14, "00008100", 8);
		CHECK_MEM(a + 112 + 54, "00000000", 8);
	}
	free(a);
}

TEST(cpio_one_file_refuses_4gib)
{
	uint8_t *a = NULL;
	size_t n = 0;

	if (sizeof(size_t) > 4) {
		CHECK_EQ(cpio_one_file(".extra", "big", "x", (size_t)UINT32_MAX + 1, 0555, 0444, &a, &n),
			 EFI_BAD_BUFFER_SIZE);
		CHECK_LOG("cpio .extra/big");
		CHECK(a == NULL);
	}
}

/* cpio_archive(): systemd-stub's pack_cpio() for two credentials: ".extra"
 * 0555 (a leading directory, as mkdir -p), ".extra/credentials" 0500, the
 * files 0400 in the order given, inodes counted on from 1, then the trailer. */
static const char expected_creds[] =
	"070701" "00000001" "0000416d" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "00000007" "00000000" ".extra\0\0\0\0"
	"070701" "00000002" "00004140" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "00000013" "00000000" ".extra/credentials\0\0\0\0"
	"070701" "00000003" "00008100" "00000000" "00000000" "00000001" "00000000" "00000001"
	"00000000" "00000000" "00000000" "00000000" "0000001a" "00000000" ".extra/credentials/a.cred\0" "A\0\0\0"
	"070701" "00000004" "00008100" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "0000001a" "00000000" ".extra/credentials/b.cred\0"
	"070701" "00000000" "00000000" "00000000" "00000000" "00000001" "00000000" "00000000"
	"00000000" "00000000" "00000000" "00000000" "0000000B" "00000000" "TRAILER!!!\0\0\0";

TEST(cpio_archive_is_systemd_stubs_pack_cpio)
{
	const struct cpio_file files[] = { { "a.cred", "A", 1 }, { "b.cred", "", 0 } };
	uint8_t *a = NULL;
	size_t n = 0;

	CHECK_EQ(cpio_archive(".extra/credentials", 0500, 0400, files, 2, &a, &n), EFI_SUCCESS);
	CHECK_EQ(n, sizeof(expected_creds));
	CHECK_EQ(n, 652u);
	if (a && n == sizeof(expected_creds))
		CHECK_MEM(a, expected_creds, n);
	free(a);
}

TEST(cpio_archive_refuses_a_4gib_file_by_name)
{
	const struct cpio_file files[] = { { "a.raw", "x", 1 }, { "big.raw", "x", (size_t)UINT32_MAX + 1 } };
	uint8_t *a = NULL;
	size_t n = 0;

	if (sizeof(size_t) > 4) {
		CHECK_EQ(cpio_archive(".extra/sysext", 0555, 0444, files, 2, &a, &n), EFI_BAD_BUFFER_SIZE);
		CHECK_LOG("cpio .extra/sysext/big.raw: 4294967296 bytes do not fit");
		CHECK(a == NULL);
	}
}
