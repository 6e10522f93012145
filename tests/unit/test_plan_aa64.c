/* Planning on AArch64 firmware (FW_AA64): an arm64 kernel (a PE/COFF
 * image of machine 0xAA64, as its Image's header makes it) boots by its
 * EFI stub alone; handover and legacy are refused with why, an x86 kernel
 * with what it is not. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/bls.h"
#include "core/boot_plan.h"
#include <stdlib.h>

static uint8_t *arm64_image(struct image_info *img, size_t *len)
{
	struct fake_pe f = fake_pe_default();
	uint8_t *buf;

	f.machine = PE_MACHINE_AA64;
	buf = fake_pe_build(&f, len);
	CHECK_EQ(image_identify(buf, *len, "Image", img), EFI_SUCCESS);
	return buf;
}

TEST(plan_aa64_boots_an_arm64_kernel_by_its_stub_only)
{
	struct image_info img;
	size_t len;
	uint8_t *buf = arm64_image(&img, &len);
	enum boot_scheme s;

	CHECK(img.is_pe && !img.is_bz);
	CHECK_EQ(img.pe.machine, 0xaa64);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_AA64, "Image", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_STUB);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_STUB, FW_AA64, "Image", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_STUB);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_HANDOVER, FW_AA64, "Image", &s), EFI_UNSUPPORTED);
	CHECK_LOG("Image: cannot boot by handover: handover is an x86 boot protocol; "
		  "AArch64 boots by the kernel's EFI stub");
	CHECK_EQ(plan_scheme_on(&img, SCHEME_LEGACY, FW_AA64, "Image", &s), EFI_UNSUPPORTED);
	CHECK_LOG("Image: cannot boot by legacy: legacy is an x86 boot protocol; "
		  "AArch64 boots by the kernel's EFI stub");
	/* and x86 firmware does not start it */
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_X64, "Image", &s), EFI_UNSUPPORTED);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_STUB, FW_IA32, "Image", &s), EFI_UNSUPPORTED);
	free(buf);
}

TEST(plan_aa64_refuses_an_x86_kernel)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	size_t len;
	uint8_t *buf = fake_bz_build(&f, &len);
	enum boot_scheme s;

	CHECK_EQ(image_identify(buf, len, "vmlinuz", &img), EFI_SUCCESS);
	CHECK(img.is_bz);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_X64, "vmlinuz", &s), EFI_SUCCESS);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_AA64, "vmlinuz", &s), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: cannot boot by stub: not an AArch64 EFI application (no arm64 PE/COFF entry point)");
	CHECK_EQ(plan_scheme_no_stub(&img, FW_AA64, "vmlinuz", &s), EFI_UNSUPPORTED);
	free(buf);
}

/* plan_boot(): the handover-first rule of a UKI read whole (initrd_in_memory)
 * does not apply, an explicit legacy is refused before anything is placed. */
TEST(plan_aa64_boot_plan_places_nothing)
{
	struct image_info img;
	size_t len;
	uint8_t *buf = arm64_image(&img, &len);
	struct boot_request r = { .img = &img, .image_size = len, .requested = SCHEME_AUTO, .fw = FW_AA64,
				  .cmdline_len = 20, .initrd_in_memory = true };
	struct boot_plan p;

	CHECK_EQ(plan_boot(&r, "Image", &p), EFI_SUCCESS);
	CHECK_EQ(p.scheme, SCHEME_STUB);
	CHECK(!p.place_kernel);
	r.requested = SCHEME_LEGACY;
	CHECK_EQ(plan_boot(&r, "Image", &p), EFI_UNSUPPORTED);
	CHECK_LOG("legacy is an x86 boot protocol");
	free(buf);
}

TEST(plan_aa64_other_loaders_paths)
{
	CHECK_STR(bls_os_path(BLS_OS_SHELL, FW_AA64), "/shellaa64.efi");
	CHECK_STR(bls_os_path(BLS_OS_DEFAULT, FW_AA64), "/EFI/BOOT/BOOTAA64.EFI");
	CHECK_STR(bls_os_path(BLS_OS_DEFAULT, FW_IA32), "/EFI/BOOT/BOOTIA32.EFI");
	CHECK_STR(bls_os_path(BLS_OS_DEFAULT, FW_X64), "/EFI/BOOT/BOOTX64.EFI");
}
