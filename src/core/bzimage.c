/* bzImage setup header parsing. Offsets and rules from boot.rst: header at
 * 0x1f1, "HdrS" at 0x202, its length from byte 0x201, protected-mode code at
 * (setup_sects + 1) * 512, kernel_version string at value + 0x200. */
#include "bzimage.h"
#include "log.h"

#define HDR_MIN_END 0x206u /* through the "HdrS" magic */
#define HDR_JUMP_LEN_OFFSET 0x201u
#define SYSSIZE_UNIT 16u /* boot.rst: syssize is "the size of the protected-mode code in units of 16-byte paragraphs" */

static EFI_STATUS bz_check_magic(const uint8_t *buf, size_t len, const char *name)
{
	if (len < HDR_MIN_END + 2)
		return log_error_status(EFI_LOAD_ERROR, "%s: %zu bytes, too short for a bzImage header", name, len);
	if (get_le16(buf + 0x1fe) != BOOT_FLAG_MAGIC)
		return log_error_status(EFI_LOAD_ERROR, "%s: boot_flag at 0x1fe is %#x, not 0xaa55: not a bzImage",
					name, get_le16(buf + 0x1fe));
	if (!bz_has_magic(buf, len))
		return log_error_status(EFI_LOAD_ERROR,
					"%s: no \"HdrS\" at 0x202: not a bzImage (or boot protocol < 2.00)", name);
	return EFI_SUCCESS;
}

static void bz_read_version_string(struct bz_info *bz)
{
	uint16_t off = get_le16(bz->image + 0x20e);
	size_t start = (size_t)off + 0x200, n = 0;

	bz->kernel_version[0] = '\0';
	if (off == 0 || start >= bz->setup_size)
		return;
	while (start + n < bz->setup_size && n + 1 < sizeof(bz->kernel_version) && bz->image[start + n])
		n++;
	memcpy(bz->kernel_version, bz->image + start, n);
	bz->kernel_version[n] = '\0';
}

/* Fields that only exist from a given protocol version are read as 0 before it. */
static void bz_read_fields(struct bz_info *bz)
{
	const uint8_t *b = bz->image;
	uint16_t v = bz->version;

	bz->loadflags = b[0x211];
	bz->initrd_addr_max = v >= BOOT_PROTO(2, 3) ? get_le32(b + 0x22c) : 0x37ffffffu;
	bz->kernel_alignment = v >= BOOT_PROTO(2, 5) ? get_le32(b + 0x230) : 0;
	bz->relocatable = v >= BOOT_PROTO(2, 5) && b[0x234];
	bz->xloadflags = v >= BOOT_PROTO(2, 12) ? get_le16(b + 0x236) : 0;
	bz->cmdline_size = v >= BOOT_PROTO(2, 6) ? get_le32(b + 0x238) : 255;
	bz->pref_address = v >= BOOT_PROTO(2, 10) ? get_le64(b + 0x258) : 0x100000;
	bz->init_size = v >= BOOT_PROTO(2, 10) ? get_le32(b + 0x260) : 0;
	bz->handover_offset = v >= BOOT_PROTO(2, 11) ? get_le32(b + 0x264) : 0;
}

EFI_STATUS bz_parse(const uint8_t *buf, size_t len, const char *name, struct bz_info *ret)
{
	struct bz_info bz = { .image = buf, .image_size = len };
	EFI_STATUS err;

	err = bz_check_magic(buf, len, name);
	if (EFI_ERROR(err))
		return err;
	bz.version = get_le16(buf + 0x206);
	bz.setup_sects = buf[0x1f1] ? buf[0x1f1] : SETUP_SECTS_DEFAULT;
	bz.setup_size = ((size_t)bz.setup_sects + 1) * BOOT_SECTOR_SIZE;
	/* At most 0x301: always inside the (at least 2-sector) setup area. */
	bz.hdr_end = 0x202u + buf[HDR_JUMP_LEN_OFFSET];
	if (bz.setup_size >= len)
		return log_error_status(
			EFI_LOAD_ERROR,
			"%s: setup_sects %u puts the kernel at %#zx, past the end of the file (%zu bytes)", name,
			bz.setup_sects, bz.setup_size, len);
	bz_read_fields(&bz);
	if (bz.kernel_alignment && !IS_POWER_OF_2(bz.kernel_alignment))
		return log_error_status(EFI_LOAD_ERROR, "%s: kernel_alignment %#x is not a power of two", name,
					bz.kernel_alignment);
	bz.kernel = buf + bz.setup_size;
	bz.kernel_size = len - bz.setup_size;
	bz.syssize_bytes = bz.kernel_size;
	if (bz.version >= BOOT_PROTO(2, 4)) {
		uint64_t sys = (uint64_t)get_le32(buf + 0x1f4) * SYSSIZE_UNIT;
		/* syssize counts 16-byte paragraphs, rounded up: an unpadded file may
		 * end up to 15 bytes short of it, and those bytes read as zero (the
		 * loader clears them, plan_kernel_layout). More is truncation. */
		if (sys >= bz.kernel_size + SYSSIZE_UNIT)
			return log_error_status(EFI_LOAD_ERROR,
						"%s: truncated: syssize says %llu bytes of kernel, file has %zu", name,
						(unsigned long long)sys, bz.kernel_size);
		bz.syssize_bytes = MAX(sys, (uint64_t)bz.kernel_size);
	}
	bz.has_mz = buf[0] == 'M' && buf[1] == 'Z';
	bz_read_version_string(&bz);
	*ret = bz;
	return EFI_SUCCESS;
}

EFI_STATUS bz_parse_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			 struct bz_info *ret)
{
	/* bz_parse() reads below setup_size only, and setup_size <= BZ_HEAD_MAX */
	if (head_len < MIN(file_size, (uint64_t)BZ_HEAD_MAX) || file_size > SIZE_MAX)
		return log_error_status(EFI_INVALID_PARAMETER,
					"%s: %zu byte head of a %llu byte file: too short to parse", name, head_len,
					(unsigned long long)file_size);
	return bz_parse(head, (size_t)file_size, name, ret);
}
