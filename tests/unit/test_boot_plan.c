/* plan_boot(): every decision made from what is known before an allocation. */
#include "test.h"
#include "fake_image.h"
#include "core/boot_plan.h"
#include <stdlib.h>

static uint8_t *image(struct image_info *img, const struct fake_bz *f, size_t *len)
{
	uint8_t *buf = fake_bz_build(f, len);

	CHECK_EQ(image_identify(buf, *len, "k", img), EFI_SUCCESS);
	return buf;
}

/* The fake bzImage as if it carried a PE header: an x86-64 EFI application
 * with an entry point (the kernel's own EFI stub). */
static uint8_t *efi_stub_image(struct image_info *img, size_t *len)
{
	struct fake_bz f = fake_bz_default();
	uint8_t *buf = image(img, &f, len);

	img->is_pe = true;
	img->pe.machine = PE_MACHINE_X64;
	img->pe.subsystem = PE_SUBSYSTEM_EFI_APPLICATION;
	img->pe.entry_point = 0x4000;
	return buf;
}

TEST(plan_boot_handover_is_complete_before_loading)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	size_t len;
	uint8_t *buf = image(&img, &f, &len);
	struct boot_request r = { .img = &img, .image_size = len, .requested = SCHEME_HANDOVER, .cmdline_len = 20,
				  .initrd_size = 1000 };
	struct boot_plan p;

	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_HANDOVER);
	CHECK(p.place_kernel);
	CHECK_EQ(p.kernel.alloc_size, 0x2000000);
	CHECK_EQ(p.kernel.alignment, 0x200000);
	CHECK_EQ(p.initrd_max, UINT64_MAX);
	CHECK_EQ(p.trust.verify, VERIFY_NONE);
	free(buf);
}

/* issue 15: a command line too long for cmdline_size was found only after the
 * kernel had been allocated and copied. */
TEST(plan_boot_refuses_a_long_cmdline_and_a_high_initrd_up_front)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	size_t len;
	uint8_t *buf;
	struct boot_request r;
	struct boot_plan p;

	f.xloadflags &= (uint16_t)~XLF_CAN_BE_LOADED_ABOVE_4G;
	buf = image(&img, &f, &len);
	r = (struct boot_request){ .img = &img, .image_size = len, .requested = SCHEME_LEGACY, .cmdline_len = 2048 };
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_INVALID_PARAMETER);
	CHECK_LOG("k: command line is 2048 bytes, the kernel takes at most 2047 (cmdline_size)");
	r.cmdline_len = 2047;
	r.initrd_size = 0x80000001ull; /* initrd_addr_max 0x7fffffff: the initrd must end below 2 GiB */
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_BAD_BUFFER_SIZE);
	CHECK_LOG("k: 2048 MiB of initrds cannot lie below initrd_addr_max 0x7fffffff");
	r.initrd_size = 0x80000000ull;
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	free(buf);
}

TEST(plan_boot_stub_places_nothing_and_no_stub_skips_it)
{
	struct image_info img;
	size_t len;
	uint8_t *buf = efi_stub_image(&img, &len);
	struct boot_request r = { .img = &img, .image_size = len, .requested = SCHEME_AUTO, .cmdline_len = 9000 };
	struct boot_plan p;

	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS); /* the kernel's own stub checks its command line */
	CHECK_EQ(p.scheme, SCHEME_STUB);
	CHECK(!p.place_kernel);
	r.no_stub = true;
	r.cmdline_len = 10;
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_HANDOVER);
	CHECK(p.place_kernel);
	free(buf);
}

TEST(plan_boot_secure_boot_refuses_a_bzimage_without_pe)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	size_t len;
	uint8_t *buf = image(&img, &f, &len);
	struct boot_request r = { .img = &img, .image_size = len, .requested = SCHEME_AUTO, .secure_boot = true };
	struct boot_plan p;

	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SECURITY_VIOLATION);
	CHECK_LOG("k: refused: Secure Boot is on and this is a bzImage without a PE/COFF header");
	free(buf);
}

/* The loader plans from the file's head; the head gives what the whole does. */
TEST(image_identify_head_matches_the_whole)
{
	struct fake_bz f = fake_bz_default();
	struct image_info head, whole;
	size_t len;
	uint8_t *buf;

	f.kernel_size = BZ_HEAD_MAX * 2;
	buf = fake_bz_build(&f, &len);
	CHECK_EQ(image_identify(buf, len, "k", &whole), EFI_SUCCESS);
	CHECK_EQ(image_identify_head(buf, BZ_HEAD_MAX, len, "k", &head), EFI_SUCCESS);
	CHECK_EQ(head.bz.kernel_size, whole.bz.kernel_size);
	CHECK_EQ(head.bz.syssize_bytes, whole.bz.syssize_bytes);
	CHECK_EQ(head.bz.init_size, whole.bz.init_size);
	CHECK_STR(head.bz.kernel_version, whole.bz.kernel_version);
	CHECK_EQ(image_identify_head(buf, 100, len, "k", &head), EFI_INVALID_PARAMETER); /* too short a head */
	free(buf);
}

/* Issue 22: a kernel that is not relocatable is moved to pref_address after
 * ExitBootServices on the legacy scheme only; on handover its own EFI code
 * moves it, on 32-bit firmware too. A relocatable one never moves. */
TEST(plan_boot_moves_only_a_fixed_kernel_on_legacy)
{
	static const struct { uint8_t relocatable; enum boot_scheme s; enum fw_arch fw; bool move; } t[] = {
		{ 0, SCHEME_LEGACY, FW_X64, true },    { 0, SCHEME_LEGACY, FW_IA32, true },
		{ 0, SCHEME_HANDOVER, FW_X64, false }, { 0, SCHEME_HANDOVER, FW_IA32, false },
		{ 1, SCHEME_LEGACY, FW_X64, false },   { 1, SCHEME_HANDOVER, FW_X64, false },
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct fake_bz f = fake_bz_default();
		struct image_info img;
		size_t len;
		uint8_t *buf;
		struct boot_request r;
		struct boot_plan p;

		f.relocatable = t[i].relocatable;
		f.pref_address = 0x100000;
		f.kernel_alignment = 0x100000;
		f.xloadflags |= XLF_EFI_HANDOVER_32;
		buf = image(&img, &f, &len);
		r = (struct boot_request){ .img = &img, .image_size = len, .requested = t[i].s, .fw = t[i].fw };
		CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
		CHECK_EQ(p.kernel.pref_address, 0x100000);
		CHECK_EQ(p.kernel.relocatable, t[i].relocatable);
		if (p.kernel.move_after_exit != t[i].move)
			test_fail(__FILE__, __LINE__, "case %zu: move_after_exit %d", i, p.kernel.move_after_exit);
		free(buf);
	}
}

/* issue 24: a UKI's .initrd in the loader's buffer goes to the kernel where it
 * is, by handover; a kernel without the handover entry still boots by its stub. */
TEST(plan_boot_initrd_in_memory_prefers_handover)
{
	struct image_info img;
	size_t len;
	uint8_t *buf = efi_stub_image(&img, &len);
	struct boot_request r = { .img = &img, .image_size = len, .requested = SCHEME_AUTO, .initrd_size = 4096 };
	struct boot_plan p;

	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_STUB);
	r.initrd_in_memory = true;
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_HANDOVER);
	CHECK(p.place_kernel);
	r.requested = SCHEME_STUB; /* asked for: kept */
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_STUB);
	r.requested = SCHEME_AUTO;
	img.bz.xloadflags &= (uint16_t)~XLF_EFI_HANDOVER_64;
	CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_STUB);
	free(buf);
}
