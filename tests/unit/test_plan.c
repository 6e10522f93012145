/* Scheme choice and kernel layout. */
#include "test.h"
#include "fake_image.h"
#include "core/plan.h"
#include <stdlib.h>

static void bz_image(struct image_info *img, const struct fake_bz *f, uint8_t **buf)
{
	size_t len;

	*buf = fake_bz_build(f, &len);
	memset(img, 0, sizeof(*img));
	img->is_bz = bz_parse(*buf, len, "k", &img->bz) == EFI_SUCCESS;
}

TEST(plan_auto_prefers_stub_then_handover_then_legacy)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	bz_image(&img, &f, &buf);
	img.is_pe = true;
	img.pe.machine = PE_MACHINE_X64;
	img.pe.subsystem = PE_SUBSYSTEM_EFI_APPLICATION;
	img.pe.entry_point = 0x4000;
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_STUB);
	img.is_pe = false;
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_HANDOVER);
	img.bz.xloadflags &= (uint16_t)~XLF_EFI_HANDOVER_64;
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_LEGACY);
	img.bz.xloadflags &= (uint16_t)~XLF_KERNEL_64;
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_UNSUPPORTED);
	free(buf);
}

TEST(plan_explicit_scheme_checks_requirements)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	f.version = 0x020a;
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_scheme(&img, SCHEME_HANDOVER, "vmlinuz", &s), EFI_UNSUPPORTED);
	CHECK_LOG("boot protocol older than 2.11");
	CHECK_EQ(plan_scheme(&img, SCHEME_STUB, "vmlinuz", &s), EFI_UNSUPPORTED);
	CHECK_LOG("not an x86-64 EFI application");
	CHECK_EQ(plan_scheme(&img, SCHEME_LEGACY, "vmlinuz", &s), EFI_UNSUPPORTED);
	free(buf);

	f = fake_bz_default();
	f.xloadflags = XLF_KERNEL_64; /* no handover flag: never enter on a guess */
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_scheme(&img, SCHEME_HANDOVER, "vmlinuz", &s), EFI_UNSUPPORTED);
	CHECK_LOG("XLF_EFI_HANDOVER_64");
	CHECK_EQ(plan_scheme(&img, SCHEME_LEGACY, "vmlinuz", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_LEGACY);
	free(buf);
}

TEST(plan_secure_boot_keeps_every_scheme)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	/* The scheme choice no longer depends on Secure Boot (trust.c verifies). */
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_scheme(&img, SCHEME_LEGACY, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_LEGACY);
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_HANDOVER);
	free(buf);
}

TEST(plan_kernel_layout_uses_init_size_and_alignment)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	struct kernel_layout l;

	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.alloc_size, 0x2000000);
	CHECK_EQ(l.copy_size, 0x4000);
	CHECK_EQ(l.zero_size, 0);
	CHECK_EQ(l.alignment, 0x200000);
	CHECK_EQ(l.pref_address, 0x1000000);
	CHECK(l.relocatable);
	/* PE footprint beyond the file and beyond init_size: reserved and zeroed. */
	img.is_pe = true;
	img.pe.size_of_image = (uint32_t)(img.bz.setup_size + 0x3000000);
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.alloc_size, 0x3000000);
	CHECK_EQ(l.zero_size, 0x3000000 - 0x4000);
	free(buf);
}

TEST(plan_initrd_limit_and_cmdline_size)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;

	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_initrd_max(&img.bz, FW_X64), UINT64_MAX);
	/* issue 21: on 32-bit firmware the initrd placed "anywhere" stays below 4 GiB */
	CHECK_EQ(plan_initrd_max(&img.bz, FW_IA32), 0x100000000ull);
	img.bz.xloadflags &= (uint16_t)~XLF_CAN_BE_LOADED_ABOVE_4G;
	CHECK_EQ(plan_initrd_max(&img.bz, FW_X64), 0x80000000ull);
	CHECK_EQ(plan_initrd_max(&img.bz, FW_IA32), 0x80000000ull);
	CHECK_EQ(plan_check_cmdline(&img.bz, 2047, "k"), EFI_SUCCESS);
	CHECK_EQ(plan_check_cmdline(&img.bz, 2048, "k"), EFI_INVALID_PARAMETER);
	CHECK_LOG("cmdline_size");
	free(buf);
}

TEST(scheme_names_round_trip)
{
	enum boot_scheme s;

	CHECK(scheme_from_string("handover", &s));
	CHECK_EQ(s, SCHEME_HANDOVER);
	CHECK(scheme_from_string("auto", &s));
	CHECK_EQ(s, SCHEME_AUTO);
	CHECK(!scheme_from_string("Legacy", &s));
	CHECK_STR(scheme_name(SCHEME_LEGACY), "legacy");
}

/* issue 12: handover_offset + 512 was computed in 32 bits, so an offset near
 * 4 GiB wrapped to a small number, passed the check, and the jump left the kernel. */
TEST(plan_handover_offset_near_4g_is_outside)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	f.handover_offset = 0xffffff00u;
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_scheme(&img, SCHEME_HANDOVER, "k", &s), EFI_UNSUPPORTED);
	CHECK_LOG("handover_offset outside the kernel");
	CHECK_EQ(plan_scheme(&img, SCHEME_AUTO, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_LEGACY); /* the next scheme, never a jump outside */
	free(buf);
	/* The last byte that still holds the +512 entry, and the first that does not. */
	f.handover_offset = (uint32_t)(f.kernel_size - 0x200 - 1);
	bz_image(&img, &f, &buf);
	CHECK(scheme_supported(&img, SCHEME_HANDOVER, NULL));
	free(buf);
	f.handover_offset = (uint32_t)(f.kernel_size - 0x200);
	bz_image(&img, &f, &buf);
	CHECK(!scheme_supported(&img, SCHEME_HANDOVER, NULL));
	free(buf);
}

TEST(plan_legacy_entry_must_be_inside_the_kernel)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	const char *why;

	f.kernel_size = 0x200;
	bz_image(&img, &f, &buf);
	CHECK(!scheme_supported(&img, SCHEME_LEGACY, &why));
	CHECK_STR(why, "the 64-bit entry (load address + 0x200) is past the end of the kernel");
	free(buf);
}

/* issue 12: pref_address + alloc_size wrapped for a non-relocatable kernel. */
TEST(plan_non_relocatable_pref_address_wrap_is_refused)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	struct kernel_layout l;

	f.relocatable = 0;
	f.pref_address = 0xffffffffffe00000ull; /* aligned; + 32 MiB wraps to 0x1e00000 */
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_LOAD_ERROR);
	CHECK_LOG("not relocatable and pref_address 0xffffffffffe00000 is unusable");
	img.bz.pref_address = 0x100000000ull - 0x2000000; /* ends exactly at 4 GiB: fits */
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	img.bz.pref_address += 0x200000;                   /* one alignment step more: does not */
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_LOAD_ERROR);
	free(buf);
}

/* issue 21: a relocatable kernel's pref_address was tried as it came, so
 * the kernel could land above 4 GiB (or at a wrapped address) when the
 * firmware had memory there: the plan keeps it only when the whole
 * allocation fits below max_address. */
TEST(plan_relocatable_pref_address_only_below_4g)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	struct kernel_layout l;

	f.pref_address = 0x100000000ull;              /* at 4 GiB */
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.pref_address, 0);                  /* anywhere below max_address instead */
	CHECK_EQ(l.max_address, 0x100000000ull);
	img.bz.pref_address = 0xffffffffffe00000ull;  /* + alloc_size wraps */
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.pref_address, 0);
	img.bz.pref_address = 0x1000100;              /* not aligned */
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.pref_address, 0);
	img.bz.pref_address = 0x100000000ull - 0x2000000; /* ends exactly at 4 GiB: kept */
	CHECK_EQ(plan_kernel_layout(&img, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.pref_address, 0x100000000ull - 0x2000000);
	free(buf);
}

/* A file up to 15 bytes shorter than syssize paragraphs boots (the rest is
 * cleared); 16 bytes short is truncation. */
TEST(plan_syssize_shortfall_is_cleared)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	size_t len;
	struct kernel_layout l;

	f.init_size = 0; /* so the cleared tail shows in alloc_size */
	buf = fake_bz_build(&f, &len);
	memset(&img, 0, sizeof(img));
	img.is_bz = true;
	CHECK_EQ(bz_parse(buf, len - 15, "short", &img.bz), EFI_SUCCESS);
	CHECK_EQ(img.bz.kernel_size, 0x4000 - 15);
	CHECK_EQ(img.bz.syssize_bytes, 0x4000);
	CHECK_EQ(plan_kernel_layout(&img, "short", &l), EFI_SUCCESS);
	CHECK_EQ(l.copy_size, 0x4000 - 15);
	CHECK_EQ(l.zero_size, 15);
	CHECK_EQ(l.alloc_size, 0x4000);
	CHECK_EQ(bz_parse(buf, len - 16, "cut", &img.bz), EFI_LOAD_ERROR);
	CHECK_LOG("cut: truncated: syssize says 16384 bytes of kernel, file has 16368");
	free(buf);
}

TEST(plan_never_offers_initrds_to_a_uki)
{
	struct image_info img = { .is_pe = true };
	const char *why = "x";

	CHECK(plan_initrds_allowed(&img, &why));
	CHECK(why == NULL);
	img.is_uki = true;
	CHECK(!plan_initrds_allowed(&img, &why));
	CHECK_STR(why, "a unified kernel image takes no initrd from the loader");
}

/* issue 12: a signed UKI with .initrd or .cmdline took a loader's unsigned
 * initrd under Secure Boot, and that cpio's /init won. */
TEST(plan_sealed_uki_takes_no_outside_initrd)
{
	CHECK(plan_stub_takes_outside_initrds(false, true, true));    /* Secure Boot off: as before */
	CHECK(plan_stub_takes_outside_initrds(true, false, false));   /* a wrapped kernel: like a Type #1 entry */
	CHECK(!plan_stub_takes_outside_initrds(true, true, false));
	CHECK(!plan_stub_takes_outside_initrds(true, false, true));
	CHECK(!plan_stub_takes_outside_initrds(true, true, true));
}
