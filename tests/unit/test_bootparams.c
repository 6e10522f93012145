/* The boot_params builder, checked on the raw bytes of the zero page at the
 * offsets boot.rst and zero-page.rst give (not through the struct). */
#include "test.h"
#include "fake_image.h"
#include "core/bootparams.h"
#include <stdlib.h>

static uint32_t at32(const void *bp, size_t off) { return get_le32((const uint8_t *)bp + off); }
static uint16_t at16(const void *bp, size_t off) { return get_le16((const uint8_t *)bp + off); }
static uint64_t at64(const void *bp, size_t off) { return get_le64((const uint8_t *)bp + off); }
static uint8_t at8(const void *bp, size_t off) { return ((const uint8_t *)bp)[off]; }

static struct boot_params *fresh(struct bz_info *bz, uint8_t **img)
{
	struct fake_bz f = fake_bz_default();
	size_t len;
	struct boot_params *bp = malloc(sizeof(*bp));

	*img = fake_bz_build(&f, &len);
	memset(bp, 0xcc, sizeof(*bp)); /* the builder must clear it */
	bz_parse(*img, len, "k", bz);
	bp_init_from_image(bp, bz);
	return bp;
}

TEST(bp_init_copies_header_and_zeroes_rest)
{
	struct bz_info bz;
	uint8_t *img;
	struct boot_params *bp = fresh(&bz, &img);
	const uint8_t *raw = (const uint8_t *)bp;

	for (size_t i = 0; i < 0x1f1; i++)
		if (raw[i]) {
			test_fail(__FILE__, __LINE__, "byte %#zx before the header is %#x", i, raw[i]);
			break;
		}
	for (size_t i = 0x26c; i < 4096; i++)
		if (raw[i]) {
			test_fail(__FILE__, __LINE__, "byte %#zx after the header is %#x", i, raw[i]);
			break;
		}
	/* Header bytes equal the image except the fields a loader writes. */
	for (size_t i = 0x1f1; i < 0x26c; i++) {
		bool loader_field = i == 0x210 || i == 0x211 || (i >= 0x218 && i < 0x220) ||
				    (i >= 0x228 && i < 0x22c) || (i >= 0x250 && i < 0x258);
		if (!loader_field && raw[i] != img[i])
			test_fail(__FILE__, __LINE__, "header byte %#zx: %#x != image %#x", i, raw[i], img[i]);
	}
	CHECK_EQ(at8(bp, 0x210), 0xff);           /* type_of_loader */
	CHECK_EQ(at8(bp, 0x211) & 0x01, 0x01);    /* LOADED_HIGH */
	CHECK_EQ(at8(bp, 0x211) & 0x80, 0);       /* CAN_USE_HEAP off */
	CHECK_EQ(at8(bp, 0x1ef), 0);              /* sentinel */
	CHECK_EQ(at32(bp, 0x202), 0x53726448);
	CHECK_EQ(at32(bp, 0x264), 0x190);         /* handover_offset copied */
	free(bp);
	free(img);
}

TEST(bp_cmdline_and_initrd_split_high_halves)
{
	struct bz_info bz;
	uint8_t *img;
	struct boot_params *bp = fresh(&bz, &img);

	bp_set_cmdline(bp, 0x123456789aull);
	CHECK_EQ(at32(bp, 0x228), 0x3456789a);
	CHECK_EQ(at32(bp, 0x0c8), 0x12);
	bp_set_initrd(bp, 0x2fedc0000ull, 0x100000001ull);
	CHECK_EQ(at32(bp, 0x218), 0xfedc0000);
	CHECK_EQ(at32(bp, 0x0c0), 0x2);
	CHECK_EQ(at32(bp, 0x21c), 0x1);
	CHECK_EQ(at32(bp, 0x0c4), 0x1);
	bp_set_kernel(bp, 0x1000000);
	CHECK_EQ(at32(bp, 0x214), 0x1000000);
	free(bp);
	free(img);
}

TEST(bp_efi_info_el64)
{
	struct bz_info bz;
	uint8_t *img;
	struct boot_params *bp = fresh(&bz, &img);
	struct efi_memmap_info map = { .addr = 0x1bf00e000ull, .size = 48 * 40, .desc_size = 48, .desc_version = 1 };

	bp_set_efi_info(bp, 0x7fe8ef18ull | (3ull << 32), &map);
	CHECK_MEM((uint8_t *)bp + 0x1c0, "EL64", 4);
	CHECK_EQ(at32(bp, 0x1c4), 0x7fe8ef18);
	CHECK_EQ(at32(bp, 0x1d8), 3);
	CHECK_EQ(at32(bp, 0x1c8), 48);
	CHECK_EQ(at32(bp, 0x1cc), 1);
	CHECK_EQ(at32(bp, 0x1d0), 0xbf00e000);
	CHECK_EQ(at32(bp, 0x1dc), 1);
	CHECK_EQ(at32(bp, 0x1d4), 48 * 40);
	free(bp);
	free(img);
}

TEST(bp_screen_info_formats)
{
	struct bz_info bz;
	uint8_t *img;
	struct boot_params *bp = fresh(&bz, &img);
	struct fb_info fb = { .base = 0x80000000, .size = 1280 * 800 * 4, .width = 1280, .height = 800,
			      .pixels_per_scan_line = 1280, .format = FB_BGRX8 };

	bp_set_screen(bp, &fb);
	CHECK_EQ(at8(bp, 0x0f), 0x70);            /* VIDEO_TYPE_EFI */
	CHECK_EQ(at16(bp, 0x12), 1280);
	CHECK_EQ(at16(bp, 0x14), 800);
	CHECK_EQ(at16(bp, 0x16), 32);
	CHECK_EQ(at32(bp, 0x18), 0x80000000);
	CHECK_EQ(at32(bp, 0x1c), 1280 * 800 * 4);
	CHECK_EQ(at16(bp, 0x24), 1280 * 4);
	CHECK_EQ(at8(bp, 0x26), 8); CHECK_EQ(at8(bp, 0x27), 16); /* red */
	CHECK_EQ(at8(bp, 0x28), 8); CHECK_EQ(at8(bp, 0x29), 8);  /* green */
	CHECK_EQ(at8(bp, 0x2a), 8); CHECK_EQ(at8(bp, 0x2b), 0);  /* blue */
	CHECK_EQ(at8(bp, 0x2c), 8); CHECK_EQ(at8(bp, 0x2d), 24); /* rsvd */
	CHECK_EQ(at32(bp, 0x36) & 2, 0);          /* 32-bit base */
	CHECK_EQ(at32(bp, 0x3a), 0);

	fb.format = FB_RGBX8;
	fb.base = 0x380000000ull;
	fb.pixels_per_scan_line = 1312;
	bp_set_screen(bp, &fb);
	CHECK_EQ(at8(bp, 0x27), 0);
	CHECK_EQ(at8(bp, 0x2b), 16);
	CHECK_EQ(at16(bp, 0x24), 1312 * 4);
	CHECK_EQ(at32(bp, 0x18), 0x80000000);
	CHECK_EQ(at32(bp, 0x3a), 3);
	CHECK_EQ(at32(bp, 0x36) & 2, 2);          /* VIDEO_CAPABILITY_64BIT_BASE */

	fb.format = FB_BITMASK;
	fb.mask_red = 0xf800; fb.mask_green = 0x07e0; fb.mask_blue = 0x001f; fb.mask_reserved = 0;
	fb.pixels_per_scan_line = 1024;
	bp_set_screen(bp, &fb);
	CHECK_EQ(at16(bp, 0x16), 16);
	CHECK_EQ(at8(bp, 0x26), 5); CHECK_EQ(at8(bp, 0x27), 11);
	CHECK_EQ(at8(bp, 0x28), 6); CHECK_EQ(at8(bp, 0x29), 5);
	CHECK_EQ(at8(bp, 0x2a), 5); CHECK_EQ(at8(bp, 0x2b), 0);
	CHECK_EQ(at8(bp, 0x2c), 0);
	CHECK_EQ(at16(bp, 0x24), 2048);
	free(bp);
	free(img);
}

TEST(bp_e820_fits_zero_page_and_spills_to_ext)
{
	struct bz_info bz;
	uint8_t *img;
	struct boot_params *bp = fresh(&bz, &img);
	struct boot_e820_entry e[200];
	size_t ext_cap = 72;
	struct setup_data *ext = malloc(bp_e820_ext_size(ext_cap));
	struct setup_data other = { .type = SETUP_PCI };

	for (size_t i = 0; i < 200; i++)
		e[i] = (struct boot_e820_entry){ .addr = i * 0x10000, .size = 0x8000, .type = 1 + (i % 2) };
	bp_append_setup_data(bp, &other, (uintptr_t)&other);
	CHECK_EQ(bp_set_e820(bp, e, 100, ext, ext_cap, (uintptr_t)ext), EFI_SUCCESS);
	CHECK_EQ(at8(bp, 0x1e8), 100);
	CHECK_EQ(at64(bp, 0x2d0 + 99 * 20), 99 * 0x10000);
	CHECK_EQ(at32(bp, 0x2d0 + 99 * 20 + 16), 2);
	CHECK_EQ(other.next, 0);

	CHECK_EQ(bp_set_e820(bp, e, 200, ext, ext_cap, (uintptr_t)ext), EFI_SUCCESS);
	CHECK_EQ(at8(bp, 0x1e8), 128);
	CHECK_EQ(at64(bp, 0x250), (uintptr_t)&other);    /* chain head unchanged */
	CHECK_EQ(other.next, (uintptr_t)ext);            /* ext appended at the tail */
	CHECK_EQ(ext->next, 0);
	CHECK_EQ(ext->type, 1);
	CHECK_EQ(ext->len, 72 * 20);
	CHECK_EQ(get_le64(ext->data), 128 * 0x10000);
	CHECK_EQ(get_le64(ext->data + 71 * 20), 199 * 0x10000);

	CHECK_EQ(bp_set_e820(bp, e, 200, ext, 71, (uintptr_t)ext), EFI_BUFFER_TOO_SMALL);
	free(ext);
	free(bp);
	free(img);
}
