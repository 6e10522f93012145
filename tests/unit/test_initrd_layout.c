/* initrd_layout_append(): the checked concatenation arithmetic. */
#include "test.h"
#include "core/initrd_layout.h"

TEST(initrd_layout_aligns_each_file_to_4)
{
	uint64_t total = 0, off = 99;

	CHECK_EQ(initrd_layout_append(&total, 5, "a", &off), EFI_SUCCESS);
	CHECK_EQ(off, 0);
	CHECK_EQ(total, 5);
	CHECK_EQ(initrd_layout_append(&total, 3, "b", &off), EFI_SUCCESS);
	CHECK_EQ(off, 8);
	CHECK_EQ(total, 11);
	CHECK_EQ(initrd_layout_append(&total, 0, "empty", &off), EFI_SUCCESS);
	CHECK_EQ(off, 12);
	CHECK_EQ(total, 12);
}

/* issue 12: sizes 2^63-1, 2^63-1 and 4096 once summed (wrapping) to 4096,
 * and the first file was then copied past a 4 KiB buffer. */
TEST(initrd_layout_refuses_wrapping_sizes)
{
	uint64_t total = 0, off = 0;

	CHECK_EQ(initrd_layout_append(&total, INT64_MAX, "/initrd1", &off), EFI_BAD_BUFFER_SIZE);
	CHECK_LOG("initrd /initrd1: 9223372036854775807 bytes after 0 more would pass the 4096 MiB limit");
	CHECK_EQ(total, 0);
	CHECK_EQ(initrd_layout_append(&total, 4096, "/initrd3", &off), EFI_SUCCESS);
	CHECK_EQ(total, 4096);
	CHECK_EQ(initrd_layout_append(&total, UINT64_MAX - 2, "/big", &off), EFI_BAD_BUFFER_SIZE);
	CHECK_EQ(total, 4096);
}

TEST(initrd_layout_cap_is_exact)
{
	uint64_t total = 0, off = 0;

	CHECK_EQ(initrd_layout_append(&total, INITRD_MAX_TOTAL - 7, "a", &off), EFI_SUCCESS);
	CHECK_EQ(initrd_layout_append(&total, 4, "b", &off), EFI_SUCCESS); /* at cap - 4: ends exactly at the cap */
	CHECK_EQ(off, INITRD_MAX_TOTAL - 4);
	CHECK_EQ(total, INITRD_MAX_TOTAL);
	CHECK_EQ(initrd_layout_append(&total, 1, "c", &off), EFI_BAD_BUFFER_SIZE);
	CHECK_EQ(total, INITRD_MAX_TOTAL);
}
