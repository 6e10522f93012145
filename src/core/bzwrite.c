/* bzImage writer (boot.rst "The real-mode kernel header", protocol 2.15).
 * The setup area is BZW_SETUP_SECTS + 1 sectors: the header at 0x1f1, the
 * jump at 0x200 over it, a few bytes of real-mode code (the image cannot run
 * in real mode: it says so on COM1), the kernel_version string, then the
 * protected-mode payload padded to 16 bytes (syssize counts paragraphs). */
#include "bzwrite.h"
#include "log.h"
#include <bootproto/bootparam.h>

#define CODE32_START 0x100000u  /* boot.rst: the default for bzImage */
#define VID_MODE_NORMAL 0xffffu /* "normal" VGA, ask for no mode change */

/* cli; ds = cs; print msg (after this code) on port 0x3f8; outb 1 -> 0xf4
 * (QEMU isa-debug-exit); hlt loop. 16-bit code, position independent. */
static const uint8_t realmode_code[] = {
	0xfa, 0x0e, 0x1f, 0xe8, 0x00, 0x00, 0x5e, 0x83, 0xc6,
	0x16, /* cli; push cs; pop ds; call 1f; 1: pop si; add $0x16,si */
	0xba, 0xf8, 0x03, 0xac, 0x84, 0xc0, 0x74, 0x03, 0xee, /* mov $0x3f8,dx; 2: lodsb; test al; jz 3f; out al,dx */
	0xeb, 0xf8, 0xb0, 0x01, 0xe6, 0xf4, 0xf4, 0xeb, 0xfd, /* jmp 2b; 3: mov $1,al; out al,$0xf4; 4: hlt; jmp 4b */
};
static const char realmode_msg[] = "\r\nHANDOFF-PROBE {\"entry\":\"real\",\"errors\":[\"real_mode_entry\"]}\r\n";

_Static_assert(BZW_REALMODE_OFFSET + sizeof(realmode_code) + sizeof(realmode_msg) <= BZW_VERSION_OFFSET,
	       "real-mode code and message end before the version string");

static EFI_STATUS check_params(size_t payload_len, const struct bz_params *p)
{
	if (payload_len <= KERNEL_ENTRY64_OFFSET)
		return log_error_status(EFI_INVALID_PARAMETER,
					"bzwrite: payload of %zu bytes has no 64-bit entry at 0x200", payload_len);
	if (payload_len > UINT32_MAX - 15 || p->init_size < ALIGN_UP(payload_len, 16))
		return log_error_status(EFI_INVALID_PARAMETER,
					"bzwrite: init_size %#x is smaller than the payload (%zu bytes)", p->init_size,
					payload_len);
	if (!IS_POWER_OF_2(p->kernel_alignment))
		return log_error_status(EFI_INVALID_PARAMETER, "bzwrite: kernel_alignment %#x is not a power of two",
					p->kernel_alignment);
	if (p->handover_offset && (uint64_t)p->handover_offset + HANDOVER_ENTRY64_EXTRA >= payload_len)
		return log_error_status(EFI_INVALID_PARAMETER,
					"bzwrite: handover entry %#x + 0x200 is past the payload (%zu bytes)",
					p->handover_offset, payload_len);
	if (p->kernel_version && strlen(p->kernel_version) > BZW_VERSION_MAX)
		return log_error_status(EFI_INVALID_PARAMETER, "bzwrite: kernel_version is %zu bytes, at most %u fit",
					strlen(p->kernel_version), BZW_VERSION_MAX);
	return EFI_SUCCESS;
}

static uint8_t log2_u32(uint32_t v)
{
	uint8_t n = 0;

	while (v >>= 1)
		n++;
	return n;
}

static void write_header(uint8_t *img, size_t payload_padded, const struct bz_params *p)
{
	img[0x1f1] = BZW_SETUP_SECTS;
	put_le32(img + 0x1f4, (uint32_t)(payload_padded / 16));
	put_le16(img + 0x1fa, VID_MODE_NORMAL);
	put_le16(img + 0x1fe, BOOT_FLAG_MAGIC);
	img[0x200] = 0xeb; /* jmp short over the header to BZW_REALMODE_OFFSET */
	img[0x201] = BZW_REALMODE_OFFSET - 0x202;
	put_le32(img + 0x202, SETUP_HDRS_MAGIC);
	put_le16(img + 0x206, BOOT_PROTO(2, 15));
	if (p->kernel_version)
		put_le16(img + 0x20e, BZW_VERSION_OFFSET - 0x200);
	img[0x211] = LOADED_HIGH;
	put_le32(img + 0x214, CODE32_START);
	put_le32(img + 0x22c, p->initrd_addr_max);
	put_le32(img + 0x230, p->kernel_alignment);
	img[0x234] = !p->fixed; /* relocatable_kernel */
	img[0x235] = log2_u32(p->kernel_alignment);
	put_le16(img + 0x236, p->xloadflags);
	put_le32(img + 0x238, p->cmdline_size);
	put_le64(img + 0x258, p->pref_address);
	put_le32(img + 0x260, p->init_size);
	put_le32(img + 0x264, p->handover_offset);
}

EFI_STATUS bz_write(const uint8_t *payload, size_t payload_len, const struct bz_params *p, uint8_t **ret,
		    size_t *ret_len)
{
	size_t setup_size = (BZW_SETUP_SECTS + 1) * BOOT_SECTOR_SIZE, padded;
	uint8_t *img;
	EFI_STATUS err = check_params(payload_len, p);

	if (EFI_ERROR(err))
		return err;
	padded = ALIGN_UP(payload_len, 16);
	img = mem_zalloc(setup_size + padded);
	if (!img)
		return log_error_status(EFI_OUT_OF_RESOURCES, "bzwrite: no memory for a %zu-byte image",
					setup_size + padded);
	write_header(img, padded, p);
	memcpy(img + BZW_REALMODE_OFFSET, realmode_code, sizeof(realmode_code));
	memcpy(img + BZW_REALMODE_OFFSET + sizeof(realmode_code), realmode_msg, sizeof(realmode_msg));
	if (p->kernel_version)
		memcpy(img + BZW_VERSION_OFFSET, p->kernel_version, strlen(p->kernel_version) + 1);
	memcpy(img + setup_size, payload, payload_len);
	*ret = img;
	*ret_len = setup_size + padded;
	return EFI_SUCCESS;
}
