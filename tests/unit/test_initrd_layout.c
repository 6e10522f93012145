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

/* issue 24: a UKI's .initrd goes to the kernel where the loader read it only
 * when it is page-aligned and below the kernel's limit, checked without wrap. */
TEST(initrd_in_place_page_aligned_below_the_limit)
{
	CHECK(initrd_in_place(0x23d93000, 0xf5fa800, 0x80000000));
	CHECK(initrd_in_place(0x7ffff000, 0x1000, 0x80000000));
	CHECK(!initrd_in_place(0x7ffff000, 0x1001, 0x80000000));
	CHECK(!initrd_in_place(0x23d92018, 0xf5fa800, 0x80000000));
	CHECK(!initrd_in_place(0x23d93000, 0, 0x80000000));
	CHECK(!initrd_in_place(0x80001000, 1, 0x80000000));
	CHECK(!initrd_in_place(0x1000, UINT64_MAX, UINT64_MAX));
	CHECK(initrd_in_place(0x1000, UINT64_MAX - 0x1000, UINT64_MAX));
}

TEST(initrd_page_shift_puts_the_offset_on_a_page)
{
	CHECK_EQ(initrd_page_shift(0x23d92018, 0x1000), 0xfe8);
	CHECK_EQ(initrd_page_shift(0x23d92018, 0xe00), 0x1e8);
	CHECK_EQ(initrd_page_shift(0x23d92000, 0x3000), 0);
	CHECK_EQ(initrd_page_shift(0x23d92fff, 0x1), 0);
	CHECK_EQ(initrd_page_shift(UINTPTR_MAX, 0x10), 0xff1);
}
