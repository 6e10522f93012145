#define _GNU_SOURCE
/* bz_write(): bz_parse() reads back every field as set, the raw bytes sit at
 * the offsets boot.rst gives, and inconsistent parameters are refused. */
#include "test.h"
#include "core/bzwrite.h"
#include "core/bzimage.h"
#include <stdlib.h>

static struct bz_params probe_like(void)
{
	return (struct bz_params){
		.init_size = 0x30000, .handover_offset = 0x200, .cmdline_size = 4095, .kernel_alignment = 0x200000,
		.pref_address = 0x1000000, .initrd_addr_max = 0x7fffffff,
		.xloadflags = XLF_KERNEL_64 | XLF_EFI_HANDOVER_64 | XLF_CAN_BE_LOADED_ABOVE_4G,
		.kernel_version = "handoff-probe 0.1 (test)",
	};
}

static uint8_t *payload_of(size_t len)
{
	uint8_t *p = malloc(len);

	for (size_t i = 0; i < len; i++)
		p[i] = (uint8_t)(i ^ (i >> 8));
	return p;
}

TEST(bzwrite_roundtrip_through_bz_parse)
{
	struct bz_params p = probe_like();
	size_t plen = 0x1234, len = 0;
	uint8_t *payload = payload_of(plen), *img = NULL;
	struct bz_info bz;

	CHECK_EQ(bz_write(payload, plen, &p, &img, &len), EFI_SUCCESS);
	CHECK_EQ(len, 8 * 512 + 0x1240);
	CHECK_EQ(bz_parse(img, len, "probe", &bz), EFI_SUCCESS);
	CHECK_EQ(bz.version, 0x020f);
	CHECK_EQ(bz.setup_sects, 7);
	CHECK_EQ(bz.setup_size, 0x1000);
	CHECK_EQ(bz.hdr_end, 0x26c);
	CHECK_EQ(bz.kernel_size, 0x1240);
	CHECK_MEM(bz.kernel, payload, plen);
	CHECK_EQ(bz.loadflags, LOADED_HIGH);
	CHECK_EQ(bz.xloadflags, XLF_KERNEL_64 | XLF_EFI_HANDOVER_64 | XLF_CAN_BE_LOADED_ABOVE_4G);
	CHECK_EQ(bz.kernel_alignment, 0x200000);
	CHECK(bz.relocatable);
	CHECK_EQ(bz.pref_address, 0x1000000);
	CHECK_EQ(bz.init_size, 0x30000);
	CHECK_EQ(bz.handover_offset, 0x200);
	CHECK_EQ(bz.cmdline_size, 4095);
	CHECK_EQ(bz.initrd_addr_max, 0x7fffffff);
	CHECK(!bz.has_mz);
	CHECK_STR(bz.kernel_version, "handoff-probe 0.1 (test)");
	free(img);
	free(payload);
}

/* The same facts read as raw bytes at boot.rst's offsets, not through bz_parse. */
TEST(bzwrite_raw_header_bytes)
{
	struct bz_params p = probe_like();
	size_t len = 0;
	uint8_t *payload = payload_of(0x800), *img = NULL;

	CHECK_EQ(bz_write(payload, 0x800, &p, &img, &len), EFI_SUCCESS);
	if (!img)
		return;
	CHECK_EQ(img[0x1f1], 7);
	CHECK_EQ(get_le32(img + 0x1f4), 0x80);          /* syssize in paragraphs */
	CHECK_EQ(get_le16(img + 0x1fe), 0xaa55);
	CHECK_EQ(img[0x200], 0xeb);
	CHECK_EQ(img[0x201], 0x6a);
	CHECK_MEM(img + 0x202, "HdrS", 4);
	CHECK_EQ(get_le16(img + 0x206), 0x020f);
	CHECK_EQ(get_le16(img + 0x20e), 0x100);        /* string at 0x100 + 0x200 */
	CHECK_EQ(img[0x211], 0x01);
	CHECK_EQ(get_le32(img + 0x214), 0x100000);
	CHECK_EQ(img[0x234], 1);
	CHECK_EQ(img[0x235], 21);
	CHECK_EQ(get_le16(img + 0x236), 0x0b);
	CHECK_EQ(get_le32(img + 0x238), 4095);
	CHECK_EQ(get_le64(img + 0x258), 0x1000000);
	CHECK_EQ(get_le32(img + 0x260), 0x30000);
	CHECK_EQ(get_le32(img + 0x264), 0x200);
	CHECK_EQ(get_le32(img + 0x268), 0);
	CHECK_EQ(img[0x26c], 0xfa);                    /* real-mode code: cli */
	CHECK(memmem(img + 0x26c, 0x100, "real_mode_entry", 15) != NULL);
	free(img);
	free(payload);
}

TEST(bzwrite_rejects_bad_parameters)
{
	uint8_t *payload = payload_of(0x1000), *img = NULL;
	size_t len = 0;
	struct bz_params p;

	p = probe_like();
	p.init_size = 0xff0;
	CHECK_EQ(bz_write(payload, 0x1000, &p, &img, &len), EFI_INVALID_PARAMETER);
	CHECK_LOG("init_size 0xff0");
	p = probe_like();
	p.kernel_alignment = 0x30000;
	CHECK_EQ(bz_write(payload, 0x1000, &p, &img, &len), EFI_INVALID_PARAMETER);
	CHECK_LOG("kernel_alignment 0x30000");
	p = probe_like();
	p.handover_offset = 0xe00;
	CHECK_EQ(bz_write(payload, 0x1000, &p, &img, &len), EFI_INVALID_PARAMETER);
	CHECK_LOG("handover entry 0xe00");
	p = probe_like();
	CHECK_EQ(bz_write(payload, 0x200, &p, &img, &len), EFI_INVALID_PARAMETER);
	CHECK_LOG("no 64-bit entry");
	p.kernel_version = "0123456789012345678901234567890123456789012345678901234567890123456789"
			   "0123456789012345678901234567890123456789012345678901234567890123456789";
	CHECK_EQ(bz_write(payload, 0x1000, &p, &img, &len), EFI_INVALID_PARAMETER);
	CHECK_LOG("kernel_version is 140 bytes");
	CHECK(img == NULL);
	free(payload);
}
