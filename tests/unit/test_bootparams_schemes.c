/* The zero page each scheme hands over, built by the same core calls the
 * firmware layer makes (bp_setup_header, then for legacy boot bp_set_screen,
 * a SETUP_PCI node and bp_setup_memmap), checked on its raw bytes. */
#include "test.h"
#include "fake_fw.h"
#include "fake_image.h"
#include "core/boot_plan.h"
#include "core/bootparams.h"
#include <stdlib.h>

static uint32_t at32(const void *p, size_t off) { return get_le32((const uint8_t *)p + off); }
static uint64_t at64(const void *p, size_t off) { return get_le64((const uint8_t *)p + off); }
static uint8_t at8(const void *p, size_t off) { return ((const uint8_t *)p)[off]; }

static const struct bp_load LOAD = {
	.kernel_addr = 0x1000000, .cmdline_addr = 0x7ffe000, .initrd_addr = 0x17f000000ull, .initrd_size = 0x500123,
};

static struct boot_params *handover_page(uint8_t **img)
{
	struct fake_bz f = fake_bz_default();
	struct boot_params *bp = malloc(sizeof(*bp));
	struct bz_info bz;
	size_t len;

	*img = fake_bz_build(&f, &len);
	memset(bp, 0xa5, sizeof(*bp));
	CHECK_EQ(bz_parse(*img, len, "k", &bz), EFI_SUCCESS);
	bp_setup_header(bp, &bz, &LOAD);
	return bp;
}

TEST(scheme_handover_zero_page)
{
	uint8_t *img;
	struct boot_params *bp = handover_page(&img);
	const uint8_t *raw = (const uint8_t *)bp;

	for (size_t i = 0x1f1; i < 0x26c; i++) {
		bool loader_field = i == 0x210 || i == 0x211 || (i >= 0x214 && i < 0x220) ||
				    (i >= 0x228 && i < 0x22c) || (i >= 0x250 && i < 0x258);
		if (!loader_field && raw[i] != img[i])
			test_fail(__FILE__, __LINE__, "header byte %#zx = %#x, image has %#x", i, raw[i], img[i]);
	}
	CHECK_EQ(at8(bp, 0x210), 0xff);                 /* type_of_loader */
	CHECK_EQ(at32(bp, 0x214), 0x1000000);            /* code32_start */
	CHECK_EQ(at32(bp, 0x228), 0x7ffe000);            /* cmd_line_ptr */
	CHECK_EQ(at32(bp, 0x0c8), 0);                    /* ext_cmd_line_ptr */
	CHECK_EQ(at32(bp, 0x218), 0x7f000000);           /* ramdisk_image */
	CHECK_EQ(at32(bp, 0x0c0), 1);                    /* ext_ramdisk_image */
	CHECK_EQ(at32(bp, 0x21c), 0x500123);             /* ramdisk_size */
	CHECK_EQ(at32(bp, 0x0c4), 0);
	CHECK_EQ(at64(bp, 0x250), 0);                    /* setup_data: none */
	/* The kernel's handover code fills the rest: nothing else may be set. */
	for (size_t i = 0; i < 4096; i++) {
		bool written = (i >= 0x1f1 && i < 0x26c) || (i >= 0x0c0 && i < 0x0cc);
		if (!written && raw[i]) {
			test_fail(__FILE__, __LINE__, "byte %#zx outside the header is %#x", i, raw[i]);
			break;
		}
	}
	free(bp);
	free(img);
}

/* A map of @n alternating RAM/ACPI ranges (nothing merges). */
static uint8_t *alternating_map(size_t n, size_t *ret_size)
{
	uint8_t *map = calloc(n, FAKE_DESC_SIZE);

	for (size_t i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR d = { .Type = i % 2 ? EfiACPIReclaimMemory : EfiConventionalMemory,
					    .PhysicalStart = i * 0x2000, .NumberOfPages = 2 };
		memcpy(map + i * FAKE_DESC_SIZE, &d, sizeof(d));
	}
	*ret_size = n * FAKE_DESC_SIZE;
	return map;
}

TEST(scheme_legacy_zero_page_and_retry)
{
	uint8_t *img;
	struct boot_params *bp = handover_page(&img);
	struct fb_info fb = { .base = 0x80000000, .size = 0x300000, .width = 1024, .height = 768,
			      .pixels_per_scan_line = 1024, .format = FB_BGRX8 };
	struct setup_data *pci = calloc(1, sizeof(struct pci_setup_rom) + 16);
	size_t cap = 200, map_size;
	struct bp_memmap m = { .scratch = calloc(cap, sizeof(struct boot_e820_entry)),
			       .ext = calloc(1, bp_e820_ext_size(cap)), .cap = cap,
			       .desc_size = FAKE_DESC_SIZE, .desc_version = 1 };

	bp_set_screen(bp, &fb);
	pci->type = SETUP_PCI;
	bp_append_setup_data(bp, pci, (uintptr_t)pci);
	m.chain_tail = bp_setup_data_tail(bp);
	CHECK(m.chain_tail == pci);

	m.map = alternating_map(150, &map_size);
	m.size = map_size;
	CHECK_EQ(bp_setup_memmap(bp, 0x7fe8e018, &m), EFI_SUCCESS);
	CHECK_MEM((uint8_t *)bp + 0x1c0, "EL64", 4);
	CHECK_EQ(at32(bp, 0x1c4), 0x7fe8e018);
	CHECK_EQ(at32(bp, 0x1c8), FAKE_DESC_SIZE);
	CHECK_EQ(at32(bp, 0x1d0), (uint32_t)(uintptr_t)m.map);
	CHECK_EQ(at32(bp, 0x1dc), (uint32_t)((uintptr_t)m.map >> 32));
	CHECK_EQ(at32(bp, 0x1d4), 150 * FAKE_DESC_SIZE);
	CHECK_EQ(at8(bp, 0x1e8), 128);
	CHECK_EQ(at64(bp, 0x2d0 + 127 * 20), 127 * 0x2000);
	CHECK_EQ(at64(bp, 0x250), (uintptr_t)pci);       /* PCI ROM first ... */
	CHECK_EQ(pci->next, (uintptr_t)m.ext);           /* ... then the e820 overflow */
	CHECK_EQ(m.ext->type, SETUP_E820_EXT);
	CHECK_EQ(m.ext->len, 22 * 20);
	CHECK_EQ(m.ext->next, 0);
	CHECK_EQ(at8(bp, 0x0f), 0x70);                  /* screen_info kept */
	free((void *)m.map);

	/* Stale map key: the map grew; the retry rebuilds without looping the chain. */
	m.map = alternating_map(151, &map_size);
	m.size = map_size;
	CHECK_EQ(bp_setup_memmap(bp, 0x7fe8e018, &m), EFI_SUCCESS);
	CHECK_EQ(pci->next, (uintptr_t)m.ext);
	CHECK_EQ(m.ext->next, 0);
	CHECK_EQ(m.ext->len, 23 * 20);
	CHECK_EQ(at32(bp, 0x1d4), 151 * FAKE_DESC_SIZE);

	/* Without other nodes the e820 node becomes the head. */
	bp->hdr.setup_data = 0;
	m.chain_tail = NULL;
	CHECK_EQ(bp_setup_memmap(bp, 0x7fe8e018, &m), EFI_SUCCESS);
	CHECK_EQ(at64(bp, 0x250), (uintptr_t)m.ext);
	free((void *)m.map);
	free(m.scratch);
	free(m.ext);
	free(pci);
	free(bp);
	free(img);
}

/* issue 21: boot_params.secure_boot (0x1ec) was never set, so a kernel booted
 * by legacy (64- or 32-bit boot protocol) ran unlocked under Secure Boot. The
 * mode goes from the plan (plan_boot: sb_mode) to the zero page as
 * src/efi/linux_load.c hands it over, on 64-bit and 32-bit firmware alike. */
TEST(scheme_zero_page_says_secure_boot_on_every_scheme_and_firmware)
{
	struct fake_bz f = fake_bz_default();
	struct boot_params *bp = malloc(sizeof(*bp));
	struct image_info img = { 0 };
	struct boot_plan p;
	size_t len;
	uint8_t *buf;

	f.xloadflags |= XLF_EFI_HANDOVER_32;
	buf = fake_bz_build(&f, &len);
	CHECK_EQ(image_identify(buf, len, "k", &img), EFI_SUCCESS);
	for (enum fw_arch fw = FW_X64; fw <= FW_IA32; fw++)
		for (enum boot_scheme s = SCHEME_HANDOVER; s <= SCHEME_LEGACY; s++)
			for (enum sb_mode m = SB_MODE_UNKNOWN; m <= SB_MODE_ENABLED; m++) {
				struct boot_request r = { .img = &img, .image_size = len, .requested = s, .fw = fw,
							  .sb_mode = m };
				struct bp_load ld = LOAD;

				CHECK_EQ(plan_boot(&r, "k", &p), EFI_SUCCESS);
				ld.secure_boot = (uint8_t)p.trust.bp_secure_boot; /* as linux_load() */
				memset(bp, 0xa5, sizeof(*bp));
				bp_setup_header(bp, &img.bz, &ld);
				CHECK_EQ(at8(bp, 0x1ec), m);
			}
	free(bp);
	free(buf);
}
