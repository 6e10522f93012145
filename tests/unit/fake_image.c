#include "fake_image.h"
#include "core/platform.h"
#include <stdlib.h>

struct fake_bz fake_bz_default(void)
{
	return (struct fake_bz){
		.version = 0x020f,
		.setup_sects = 31,
		.xloadflags = 0x7f & ~0x04 & ~0x60, /* KERNEL_64 | ABOVE_4G | HANDOVER_64 | KEXEC */
		.kernel_alignment = 0x200000,
		.relocatable = 1,
		.pref_address = 0x1000000,
		.init_size = 0x2000000,
		.handover_offset = 0x190,
		.cmdline_size = 2047,
		.initrd_addr_max = 0x7fffffff,
		.kernel_size = 0x4000,
		.version_string = "6.1.0-test (builder@test) #1 SMP",
	};
}

uint8_t *fake_bz_build(const struct fake_bz *f, size_t *ret_len)
{
	size_t setup = ((size_t)(f->setup_sects ? f->setup_sects : 4) + 1) * 512;
	size_t len = setup + f->kernel_size;
	uint8_t *b = calloc(1, len);

	b[0x1f1] = f->setup_sects;
	put_le32(b + 0x1f4, (uint32_t)(f->kernel_size / 16));
	put_le16(b + 0x1fe, 0xaa55);
	b[0x200] = 0xeb;
	b[0x201] = 0x6a; /* header runs to 0x26c */
	put_le32(b + 0x202, 0x53726448);
	put_le16(b + 0x206, f->version);
	if (f->version_string) {
		put_le16(b + 0x20e, 0x300 - 0x200);
		memcpy(b + 0x300, f->version_string, strlen(f->version_string) + 1);
	}
	b[0x211] = 0x01;
	put_le32(b + 0x214, 0x100000);
	put_le32(b + 0x22c, f->initrd_addr_max);
	put_le32(b + 0x230, f->kernel_alignment);
	b[0x234] = f->relocatable;
	b[0x235] = 21;
	put_le16(b + 0x236, f->xloadflags);
	put_le32(b + 0x238, f->cmdline_size);
	put_le64(b + 0x258, f->pref_address);
	put_le32(b + 0x260, f->init_size);
	put_le32(b + 0x264, f->handover_offset);
	for (size_t i = 0; i < f->kernel_size; i++)
		b[setup + i] = (uint8_t)(i * 7 + 3);
	*ret_len = len;
	return b;
}
