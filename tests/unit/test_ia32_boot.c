/* IA-32 firmware, 64-bit kernel (issue 14): which schemes fit and why not,
 * where the ".compat" entry's image goes, and the zero page a 32-bit
 * firmware's loader hands over ("EL32" efi_info with 32-bit pointers, e820
 * from the map as IA-32 OVMF reports it), checked on raw bytes at the offsets
 * of boot.rst / zero-page.rst and UEFI 2.10 §7.2 written out here. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/boot_plan.h"
#include "core/bootparams.h"
#include "core/plan.h"
#include "core/trust.h"
#include <stdlib.h>

static uint32_t at32(const void *p, size_t off) { return get_le32((const uint8_t *)p + off); }
static uint64_t at64(const void *p, size_t off) { return get_le64((const uint8_t *)p + off); }

static void bz_image(struct image_info *img, const struct fake_bz *f, uint8_t **buf)
{
	size_t len;

	*buf = fake_bz_build(f, &len);
	memset(img, 0, sizeof(*img));
	img->is_bz = bz_parse(*buf, len, "k", &img->bz) == EFI_SUCCESS;
}

static const char *why(const struct image_info *img, enum boot_scheme s)
{
	const char *w = NULL;

	scheme_supported_on(img, s, FW_IA32, &w);
	return w ? w : "";
}

TEST(ia32_schemes_need_the_32bit_entries)
{
	struct fake_bz f = fake_bz_default();   /* XLF_EFI_HANDOVER_64 only */
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	bz_image(&img, &f, &buf);
	CHECK(scheme_supported_on(&img, SCHEME_HANDOVER, FW_X64, NULL));
	CHECK(!scheme_supported_on(&img, SCHEME_HANDOVER, FW_IA32, NULL));
	CHECK(strstr(why(&img, SCHEME_HANDOVER), "XLF_EFI_HANDOVER_32") != NULL);
	CHECK(scheme_supported_on(&img, SCHEME_LEGACY, FW_IA32, NULL));   /* 32-bit boot protocol */
	CHECK(strstr(why(&img, SCHEME_STUB), "not an EFI application") != NULL);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_IA32, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_LEGACY);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_HANDOVER, FW_IA32, "vmlinuz", &s), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz: cannot boot by handover: XLF_EFI_HANDOVER_32 not set in xloadflags");
	free(buf);

	f.xloadflags |= XLF_EFI_HANDOVER_32;
	bz_image(&img, &f, &buf);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_IA32, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_HANDOVER);
	/* the 32-bit handover entry is handover_offset itself: no +512 to fit */
	img.bz.handover_offset = (uint32_t)img.bz.kernel_size - 0x100;
	CHECK(scheme_supported_on(&img, SCHEME_HANDOVER, FW_IA32, NULL));
	CHECK(!scheme_supported_on(&img, SCHEME_HANDOVER, FW_X64, NULL));
	img.bz.handover_offset = (uint32_t)img.bz.kernel_size;
	CHECK(strstr(why(&img, SCHEME_HANDOVER), "outside the kernel") != NULL);
	free(buf);
}

TEST(ia32_32bit_kernel_refused_by_name)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	enum boot_scheme s;

	f.xloadflags = XLF_EFI_HANDOVER_32;     /* what a 32-bit kernel carries */
	bz_image(&img, &f, &buf);
	CHECK(strstr(why(&img, SCHEME_HANDOVER), "XLF_KERNEL_64 not set") != NULL);
	CHECK(strstr(why(&img, SCHEME_LEGACY), "XLF_KERNEL_64 not set") != NULL);
	CHECK(strstr(why(&img, SCHEME_STUB), "XLF_KERNEL_64 not set") != NULL);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_IA32, "vmlinuz-686", &s), EFI_UNSUPPORTED);
	CHECK_LOG("vmlinuz-686: no boot scheme fits on 32-bit firmware: XLF_KERNEL_64 not set");
	free(buf);
}

TEST(ia32_stub_needs_compat_entry)
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
	CHECK(scheme_supported_on(&img, SCHEME_STUB, FW_X64, NULL));
	CHECK(strstr(why(&img, SCHEME_STUB), "CONFIG_EFI_MIXED") != NULL);
	img.pe.compat_entry_ia32 = 0x3000;
	img.pe.size_of_image = 0x3000;
	CHECK(strstr(why(&img, SCHEME_STUB), "outside SizeOfImage") != NULL);
	img.pe.size_of_image = 0x8000;
	CHECK(scheme_supported_on(&img, SCHEME_STUB, FW_IA32, NULL));
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_IA32, "k", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_STUB);
	/* a native IA-32 application (an "efi" entry) starts by the stub scheme */
	memset(&img, 0, sizeof(img));
	img.is_pe = true;
	img.pe.machine = PE_MACHINE_I386;
	img.pe.subsystem = PE_SUBSYSTEM_EFI_APPLICATION;
	img.pe.entry_point = 0x1000;
	CHECK_EQ(plan_scheme_on(&img, SCHEME_STUB, FW_IA32, "shell.efi", &s), EFI_SUCCESS);
	CHECK_EQ(plan_scheme_on(&img, SCHEME_STUB, FW_X64, "shell.efi", &s), EFI_UNSUPPORTED);
	free(buf);
}

/* 32-bit firmware's LoadImage takes IA-32 images only: under Secure Boot a
 * 64-bit kernel needs shim, and the .compat entry never waits for LoadImage
 * (it is loaded, when a TPM asks, only to be measured). */
TEST(ia32_trust_for_images_the_firmware_cannot_load)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	uint8_t *buf;
	struct trust_plan p;
	struct trust_request r = { .img = &img, .scheme = SCHEME_STUB, .fw = FW_IA32 };

	bz_image(&img, &f, &buf);
	img.is_pe = true;
	img.pe.machine = PE_MACHINE_X64;
	img.pe.subsystem = PE_SUBSYSTEM_EFI_APPLICATION;
	img.pe.entry_point = 0x4000;
	img.pe.compat_entry_ia32 = 0x3000;
	img.pe.size_of_image = 0x8000;
	r.secure_boot = true;
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SECURITY_VIOLATION);
	CHECK_LOG("vmlinuz: refused: Secure Boot is on and 32-bit firmware cannot verify a 64-bit kernel");
	r.scheme = SCHEME_LEGACY;
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SECURITY_VIOLATION);
	r.shim = true;
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SUCCESS);
	CHECK_EQ(p.verify, VERIFY_SHIM);
	CHECK(!p.load_image);
	CHECK(p.shim_verify_first);         /* nothing else verifies it */
	r.scheme = SCHEME_STUB;             /* .compat: the firmware cannot load it, so shim's Verify() does */
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SUCCESS);
	CHECK(!p.load_image);
	CHECK(p.shim_verify_first);
	CHECK_EQ(p.pcr4, PCR4_NONE);        /* no TPM */
	r.tpm = true;
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SUCCESS);
	CHECK_EQ(p.pcr4, PCR4_SHIM);        /* shim's Verify() measures it */
	/* issue 21: LoadImage of another machine's image may fail, unmeasured:
	 * handoff measures it itself, the digest LoadImage would log, on every scheme */
	for (enum boot_scheme s = SCHEME_STUB; s <= SCHEME_LEGACY; s++) {
		r = (struct trust_request){ .img = &img, .scheme = s, .fw = FW_IA32, .tpm = true };
		CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SUCCESS);
		CHECK_EQ(p.verify, VERIFY_NONE);
		CHECK(!p.load_image);
		CHECK_EQ(p.pcr4, PCR4_HANDOFF_PE);
	}
	r.scheme = SCHEME_STUB;
	r.fw = FW_X64;
	CHECK_EQ(plan_trust(&r, "vmlinuz", &p), EFI_SUCCESS);
	CHECK(p.load_image_must_pass);      /* on 64-bit firmware the stub scheme starts what LoadImage loaded */
	CHECK_EQ(p.pcr4, PCR4_LOAD_IMAGE);
	/* a native IA-32 application: the firmware verifies it */
	img.is_bz = false;
	img.pe.machine = PE_MACHINE_I386;
	r = (struct trust_request){ .img = &img, .scheme = SCHEME_STUB, .fw = FW_IA32, .secure_boot = true };
	CHECK_EQ(plan_trust(&r, "shell.efi", &p), EFI_SUCCESS);
	CHECK_EQ(p.verify, VERIFY_FIRMWARE);
	CHECK(p.load_image && p.load_image_must_pass);
	free(buf);
}

/* Debian's 6.1 kernel has all three 32-bit entries; the stub scheme's image
 * goes where startup_32 of a pre-6.2 kernel will not write outside it. */
TEST(ia32_debian_kernel_schemes_and_compat_layout)
{
	size_t len;
	uint8_t *buf = fixture_kernel(&len);
	struct image_info img;
	struct kernel_layout l;
	enum boot_scheme s;

	if (!buf)
		return;
	CHECK_EQ(image_identify(buf, len, "vmlinuz", &img), EFI_SUCCESS);
	CHECK(scheme_supported_on(&img, SCHEME_STUB, FW_IA32, NULL));
	CHECK(scheme_supported_on(&img, SCHEME_HANDOVER, FW_IA32, NULL));
	CHECK(scheme_supported_on(&img, SCHEME_LEGACY, FW_IA32, NULL));
	CHECK_EQ(plan_scheme_on(&img, SCHEME_AUTO, FW_IA32, "vmlinuz", &s), EFI_SUCCESS);
	CHECK_EQ(s, SCHEME_STUB);
	CHECK_EQ(plan_compat_layout(&img, len, "vmlinuz", &l), EFI_SUCCESS);
	CHECK_EQ(l.copy_size, get_le32(buf + ref_opt(buf) + 60));                       /* SizeOfHeaders */
	CHECK_EQ(l.alignment, get_le32(buf + 0x230));                                    /* kernel_alignment */
	CHECK_EQ(l.pref_address, get_le64(buf + 0x258));
	CHECK(l.alloc_size >= get_le32(buf + 0x260));                                    /* init_size */
	CHECK(l.alloc_size >= get_le32(buf + ref_opt(buf) + 56));                        /* SizeOfImage */
	CHECK_EQ(l.alloc_size % 4096, 0);
	CHECK_EQ(l.max_address, 0x100000000ull);
	/* an entry outside the image, or real relocations, are refused */
	img.pe.compat_entry_ia32 = img.pe.size_of_image;
	CHECK_EQ(plan_compat_layout(&img, len, "vmlinuz", &l), EFI_LOAD_ERROR);
	CHECK_LOG(".compat entry");
	img.is_bz = false;
	CHECK_EQ(plan_compat_layout(&img, len, "vmlinuz", &l), EFI_LOAD_ERROR);
	free(buf);
}

/* issue 21: on 32-bit firmware everything the kernel addresses is allocated
 * below 4 GiB by the plan's limits, not by the firmware's habits: the
 * kernel (pref_address too), the initrd of a kernel that could take one
 * anywhere, and the .compat image, whose pref_address + size may not wrap. */
TEST(ia32_plan_keeps_everything_below_4g)
{
	struct fake_bz f = fake_bz_default();
	struct image_info img;
	struct boot_plan p;
	struct kernel_layout l;
	uint8_t *buf;
	size_t len;

	f.xloadflags |= XLF_EFI_HANDOVER_32;
	f.pref_address = 0x1fffe00000ull;   /* 128 GiB: fine for a 64-bit loader's wish, not here */
	buf = fake_bz_build(&f, &len);
	CHECK_EQ(image_identify(buf, len, "k", &img), EFI_SUCCESS);
	for (enum boot_scheme s = SCHEME_HANDOVER; s <= SCHEME_LEGACY; s++) {
		struct boot_request r = { .img = &img, .image_size = len, .requested = s, .fw = FW_IA32,
					  .initrd_size = 4096 };

		CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
		CHECK_EQ(p.initrd_max, 0x100000000ull);
		CHECK_EQ(p.kernel.max_address, 0x100000000ull);
		CHECK_EQ(p.kernel.pref_address, 0);
	}
	/* .compat: pref_address + alloc_size wrapped past 2^64 and passed the check */
	img.is_pe = true;
	img.pe.size_of_image = 0x1000000;
	img.pe.size_of_headers = 0x400;
	img.pe.section_alignment = 0x1000;
	img.pe.compat_entry_ia32 = 0x3000;
	img.bz.pref_address = 0xffffffffffe00000ull;
	CHECK_EQ(plan_compat_layout(&img, len, "k", &l), EFI_SUCCESS);
	CHECK_EQ(l.pref_address, 0);
	img.bz.relocatable = false;
	CHECK_EQ(plan_compat_layout(&img, len, "k", &l), EFI_LOAD_ERROR);
	CHECK_LOG("not relocatable and pref_address 0xffffffffffe00000 is unusable");
	free(buf);
}

TEST(ia32_efi_info_el32)
{
	struct fake_bz f = fake_bz_default();
	struct boot_params *bp = calloc(1, sizeof(*bp));
	uint8_t *img;
	size_t len;
	struct bz_info bz;
	/* 32-bit firmware: every pointer below 4 GiB */
	struct efi_memmap_info map = { .addr = 0x1e9c4018, .size = 48 * 37, .desc_size = 48, .desc_version = 1,
				       .fw = FW_IA32 };

	img = fake_bz_build(&f, &len);
	CHECK_EQ(bz_parse(img, len, "k", &bz), EFI_SUCCESS);
	bp_init_from_image(bp, &bz);
	bp_set_efi_info(bp, 0x1fb7c0c8, &map);
	CHECK_MEM((uint8_t *)bp + 0x1c0, "EL32", 4);   /* efi_loader_signature */
	CHECK_EQ(at32(bp, 0x1c4), 0x1fb7c0c8);          /* efi_systab */
	CHECK_EQ(at32(bp, 0x1c8), 48);                  /* efi_memdesc_size */
	CHECK_EQ(at32(bp, 0x1cc), 1);                   /* efi_memdesc_version */
	CHECK_EQ(at32(bp, 0x1d0), 0x1e9c4018);          /* efi_memmap */
	CHECK_EQ(at32(bp, 0x1d4), 48 * 37);             /* efi_memmap_size */
	CHECK_EQ(at32(bp, 0x1d8), 0);                   /* efi_systab_hi */
	CHECK_EQ(at32(bp, 0x1dc), 0);                   /* efi_memmap_hi */
	map.fw = FW_X64;
	bp_set_efi_info(bp, 0x1fb7c0c8, &map);
	CHECK_MEM((uint8_t *)bp + 0x1c0, "EL64", 4);
	free(bp);
	free(img);
}

/* One descriptor at the offsets of UEFI 2.10 §7.2 (Type @0, PhysicalStart @8,
 * VirtualStart @16, NumberOfPages @24, Attribute @32), in a 48-byte slot as
 * IA-32 OVMF reports them. */
static void put_desc(uint8_t *slot, uint32_t type, uint64_t start, uint64_t pages, uint64_t attr)
{
	memset(slot, 0xee, 48);
	put_le32(slot, type);
	put_le64(slot + 8, start);
	put_le64(slot + 16, 0);
	put_le64(slot + 24, pages);
	put_le64(slot + 32, attr);
}

TEST(ia32_memmap_to_e820_and_zero_page)
{
	struct fake_bz f = fake_bz_default();
	struct boot_params *bp = calloc(1, sizeof(*bp));
	uint8_t map[6 * 48];
	struct boot_e820_entry scratch[6];
	struct bz_info bz;
	size_t len;
	uint8_t *img = fake_bz_build(&f, &len);
	struct bp_memmap m = { .map = map, .size = sizeof(map), .desc_size = 48, .desc_version = 1,
			       .scratch = scratch, .cap = 6, .fw = FW_IA32 };

	put_desc(map + 0 * 48, 7, 0x0, 0xa0, 0xf);               /* conventional */
	put_desc(map + 1 * 48, 4, 0x100000, 0x700, 0xf);         /* boot services data */
	put_desc(map + 2 * 48, 2, 0x800000, 0x100, 0xf);         /* loader data: touches, merges */
	put_desc(map + 3 * 48, 10, 0x1fb00000, 0x80, 0xf);       /* ACPI NVS */
	put_desc(map + 4 * 48, 6, 0x1fb80000, 0x10, 0x800000000000000full); /* runtime data */
	put_desc(map + 5 * 48, 11, 0xffc00000, 0x400, 0x8000000000000001ull); /* flash MMIO */
	CHECK_EQ(bz_parse(img, len, "k", &bz), EFI_SUCCESS);
	bp_init_from_image(bp, &bz);
	CHECK_EQ(bp_setup_memmap(bp, 0x1fb7c0c8, &m), EFI_SUCCESS);
	CHECK_MEM((uint8_t *)bp + 0x1c0, "EL32", 4);
	CHECK_EQ(at32(bp, 0x1c8), 48);
	CHECK_EQ(at32(bp, 0x1d4), sizeof(map));
	CHECK_EQ(((uint8_t *)bp)[0x1e8], 5);                     /* e820_entries */
	CHECK_EQ(at64(bp, 0x2d0 + 0 * 20), 0x0);
	CHECK_EQ(at64(bp, 0x2d0 + 0 * 20 + 8), 0xa0000);
	CHECK_EQ(at32(bp, 0x2d0 + 0 * 20 + 16), 1);              /* RAM */
	CHECK_EQ(at64(bp, 0x2d0 + 1 * 20), 0x100000);
	CHECK_EQ(at64(bp, 0x2d0 + 1 * 20 + 8), 0x800000);        /* 0x700 + 0x100 pages */
	CHECK_EQ(at32(bp, 0x2d0 + 1 * 20 + 16), 1);
	CHECK_EQ(at32(bp, 0x2d0 + 2 * 20 + 16), 4);              /* NVS */
	CHECK_EQ(at32(bp, 0x2d0 + 3 * 20 + 16), 2);              /* reserved */
	CHECK_EQ(at64(bp, 0x2d0 + 4 * 20), 0xffc00000);
	CHECK_EQ(at64(bp, 0x2d0 + 4 * 20 + 8), 0x400000);
	CHECK_EQ(at32(bp, 0x2d0 + 4 * 20 + 16), 2);
	free(bp);
	free(img);
}
