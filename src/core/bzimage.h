/* bzImage reader: validates the real-mode setup header of a Linux x86 image
 * (boot.rst "The real-mode kernel header") and describes it in struct bz_info. */
#ifndef CORE_BZIMAGE_H
#define CORE_BZIMAGE_H

#include "platform.h"
#include <bootproto/bootparam.h>
#include <efi/efi.h>

struct bz_info {
	const uint8_t *image;       /* the whole file */
	size_t image_size;
	uint16_t version;           /* boot protocol, e.g. 0x020f */
	uint8_t setup_sects;        /* effective: 0 read as 4 */
	size_t setup_size;          /* (setup_sects + 1) * 512: file offset of the kernel */
	size_t hdr_end;             /* 0x202 + byte[0x201]: end of the setup header copy */
	const uint8_t *kernel;      /* protected-mode part */
	size_t kernel_size;         /* bytes of it in the file */
	uint64_t syssize_bytes;     /* syssize * 16 (2.04+), else kernel_size; may pass the file by < 16 */
	uint8_t loadflags;
	uint16_t xloadflags;
	uint32_t kernel_alignment;
	bool relocatable;
	uint64_t pref_address;
	uint32_t init_size;
	uint32_t handover_offset;
	uint32_t cmdline_size;
	uint32_t initrd_addr_max;
	bool has_mz;                /* PE/COFF masquerade ("MZ" at 0) */
	char kernel_version[128];   /* "" when the image has none */
};

/* The setup area is at most (255 + 1) * 512 bytes: a head this long holds
 * every byte bz_parse() reads. */
#define BZ_HEAD_MAX (256u * 512u)

/** bz_has_magic() - "HdrS" at 0x202 in a file of @len bytes: a bzImage (boot protocol 2.00+). */
static inline bool bz_has_magic(const uint8_t *buf, size_t len)
{
	return len >= 0x206 && get_le32(buf + 0x202) == SETUP_HDRS_MAGIC;
}

/**
 * bz_parse() - check a bzImage and describe it.
 * @buf, @len: the file; @name: used in messages.
 * Return: EFI_SUCCESS, or EFI_LOAD_ERROR (not a bzImage / truncated /
 * inconsistent), with the reason logged once.
 */
EFI_STATUS bz_parse(const uint8_t *buf, size_t len, const char *name, struct bz_info *ret);

/**
 * bz_parse_head() - bz_parse() of a file of @file_size bytes from its first
 * @head_len bytes (at least min(@file_size, BZ_HEAD_MAX)): every field is
 * read from the head, so a loader can plan before it reads the kernel.
 * ret->image and ret->kernel point into @head and are valid only as far as
 * the head goes.
 */
EFI_STATUS bz_parse_head(const uint8_t *head, size_t head_len, uint64_t file_size, const char *name,
			 struct bz_info *ret);

/** bz_header() - the setup header inside the image (packed, may be unaligned). */
static inline const struct setup_header *bz_header(const struct bz_info *bz)
{
	return (const struct setup_header *)(bz->image + SETUP_HEADER_OFFSET);
}

#endif
