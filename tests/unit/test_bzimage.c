/* bz_parse() on synthetic images, damaged images and (when the boot tests have
 * fetched it) Debian's real kernel. */
#include "test.h"
#include "fake_image.h"
#include "core/bzimage.h"
#include <stdlib.h>

TEST(bz_parses_default_image)
{
	struct fake_bz f = fake_bz_default();
	size_t len;
	uint8_t *img = fake_bz_build(&f, &len);
	struct bz_info bz;

	CHECK_EQ(bz_parse(img, len, "vmlinuz", &bz), EFI_SUCCESS);
	CHECK_EQ(bz.version, 0x020f);
	CHECK_EQ(bz.setup_sects, 31);
	CHECK_EQ(bz.setup_size, 32 * 512);
	CHECK_EQ(bz.hdr_end, 0x26c);
	CHECK_EQ(bz.kernel_size, 0x4000);
	CHECK_EQ(bz.kernel - img, 32 * 512);
	CHECK_EQ(bz.xloadflags, f.xloadflags);
	CHECK_EQ(bz.kernel_alignment, 0x200000);
	CHECK(bz.relocatable);
	CHECK_EQ(bz.pref_address, 0x1000000);
	CHECK_EQ(bz.init_size, 0x2000000);
	CHECK_EQ(bz.handover_offset, 0x190);
	CHECK_EQ(bz.cmdline_size, 2047);
	CHECK_EQ(bz.initrd_addr_max, 0x7fffffff);
	CHECK_STR(bz.kernel_version, "6.1.0-test (builder@test) #1 SMP");
	free(img);
}

TEST(bz_setup_sects_zero_means_four)
{
	struct fake_bz f = fake_bz_default();
	size_t len;
	uint8_t *img;
	struct bz_info bz;

	f.setup_sects = 0;
	img = fake_bz_build(&f, &len);
	CHECK_EQ(bz_parse(img, len, "k", &bz), EFI_SUCCESS);
	CHECK_EQ(bz.setup_sects, 4);
	CHECK_EQ(bz.setup_size, 5 * 512);
	free(img);
}

TEST(bz_old_protocol_fields_read_as_defaults)
{
	struct fake_bz f = fake_bz_default();
	size_t len;
	uint8_t *img;
	struct bz_info bz;

	f.version = 0x0209;
	img = fake_bz_build(&f, &len);
	CHECK_EQ(bz_parse(img, len, "k", &bz), EFI_SUCCESS);
	CHECK_EQ(bz.xloadflags, 0);
	CHECK_EQ(bz.handover_offset, 0);
	CHECK_EQ(bz.init_size, 0);
	CHECK_EQ(bz.pref_address, 0x100000);
	free(img);
}

struct damage {
	const char *what;
	size_t offset;     /* byte to change, or SIZE_MAX to truncate */
	uint8_t value;
	size_t truncate_to;
	const char *message;
};

TEST(bz_rejects_damaged_images)
{
	static const struct damage cases[] = {
		{ "no boot flag", 0x1fe, 0x00, 0, "boot_flag" },
		{ "no HdrS", 0x203, 'x', 0, "HdrS" },
		{ "setup_sects past end", 0x1f1, 0xff, 0, "past the end" },
		{ "kernel_alignment not power of 2", 0x231, 0x03, 0, "power of two" },
		{ "truncated kernel", SIZE_MAX, 0, 32 * 512 + 0x100, "truncated" },
		{ "truncated header", SIZE_MAX, 0, 0x100, "too short" },
		{ "empty", SIZE_MAX, 0, 0, "too short" },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fake_bz f = fake_bz_default();
		size_t len;
		uint8_t *img = fake_bz_build(&f, &len);
		struct bz_info bz;

		if (cases[i].offset == SIZE_MAX)
			len = cases[i].truncate_to;
		else
			img[cases[i].offset] = cases[i].value;
		test_log_reset();
		if (bz_parse(img, len, "vmlinuz", &bz) != EFI_LOAD_ERROR)
			test_fail(__FILE__, __LINE__, "case \"%s\" was accepted", cases[i].what);
		else if (!test_log_contains(cases[i].message) || !test_log_contains("vmlinuz"))
			test_fail(__FILE__, __LINE__, "case \"%s\": message lacks \"%s\"", cases[i].what,
				  cases[i].message);
		free(img);
	}
}

/* The real kernel, checked against header bytes read here independently. */
TEST(bz_debian_kernel)
{
	const char *path = getenv("HANDOFF_TEST_KERNEL");
	size_t len;
	uint8_t *img;
	struct bz_info bz;

	if (!path)
		path = "build/boot-cache/vmlinuz";
	img = test_read_file(path, &len);
	if (!img) {
		test_fail(__FILE__, __LINE__, "cannot read %s (run tests/boot/prepare.sh)", path);
		return;
	}
	CHECK_EQ(bz_parse(img, len, path, &bz), EFI_SUCCESS);
	CHECK(bz.version >= 0x020f);
	CHECK_EQ(bz.setup_sects, img[0x1f1]);
	CHECK_EQ(bz.xloadflags, img[0x236] | img[0x237] << 8);
	CHECK(bz.xloadflags & XLF_KERNEL_64);
	CHECK(bz.xloadflags & XLF_EFI_HANDOVER_64);
	CHECK(bz.has_mz);
	CHECK(strncmp(bz.kernel_version, "6.", 2) == 0);
	free(img);
}
