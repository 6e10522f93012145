/* Flattened devicetree blobs (Devicetree Specification v0.4 §5 "Flattened
 * Devicetree (DTB) Format"): the header a loader checks before it hands a
 * blob to the firmware and to Linux, which read the rest. */
#ifndef CORE_FDT_H
#define CORE_FDT_H

#include "platform.h"
#include <efi/efi.h>

#define FDT_MAGIC 0xd00dfeedu   /* §5.2: big-endian, as every header field */
#define FDT_HEADER_SIZE 40u     /* §5.2: ten 32-bit fields (version 17) */
#define FDT_VERSION 17u         /* §5.2: the version this reader knows */
#define FDT_FILE_MAX (64u << 20) /* a devicetree file: real ones are well under 1 MiB */

/* The header fields the loader uses (host byte order). */
struct fdt_header_info {
	uint32_t totalsize;   /* the blob's size: the file may be longer */
	uint32_t version;
	uint32_t last_comp_version;
};

/**
 * fdt_check_header() - check the header of the devicetree blob @buf
 * (@len bytes, the file): magic 0xd00dfeed; a version 17 reader can read it
 * (version >= 17, last_comp_version <= 17); totalsize at least the header
 * and at most @len (§5.2). A refusal is logged naming @name and the fields
 * (version/last_comp_version).
 * Return: EFI_SUCCESS with *@ret filled, or EFI_LOAD_ERROR.
 */
EFI_STATUS fdt_check_header(const uint8_t *buf, size_t len, const char *name, struct fdt_header_info *ret);

#endif
