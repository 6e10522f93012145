/* Packed loaders (docs/image-formats.md "Packed loaders"): handoff.efi,
 * handoffia32.efi and handoffaa64.efi are a small unpacker (src/pack/unpack.c)
 * carrying the loader's own PE image, laid out as a firmware loads it (headers
 * and sections at their RVAs, SizeOfImage bytes, the rest zero), its calls and
 * RIP-relative operands made absolute (x86_filter.h; AArch64's BL and ADRP:
 * aa64_filter.h) and its base relocations' offsets differences (pack.c), as a
 * raw LZMA stream (lzma.h: fixed properties per machine, no end marker),
 * behind a header, all little-endian:
 *    0  "HOPK"
 *    4  u16 format version, 7 (1 was an LZ4 block, 2 DEFLATE, 3 DEFLATE after the filter,
 *       4 LZMA with the relocations as linked, 5 without the fields from 16 on,
 *       6 with x86's filter taking calls only, not JMP and Jcc)
 *    6  u16 machine (PE_MACHINE_X64, PE_MACHINE_I386 or PE_MACHINE_AA64): it
 *       chooses the branch filter and the stream's literal properties (lzma.h)
 *    8  u32 SizeOfImage: what the stream decompresses to
 *   12  u32 the stream's size, which follows the header
 *   16  u32 AddressOfEntryPoint
 *   20  u32 the base relocation directory's RVA, 24 u32 its size
 *   28  u16 the number of sections, 30 u16 zero
 *   32  u64 ImageBase
 *   40  u32 CRC-32 (crc32.h) of the header's other bytes and the stream
 *   44  per section: u32 RVA, u32 VirtualSize, u32 Characteristics
 * The build takes these from the image's PE headers (pe_parse()), so the
 * unpacker needs no PE parser: it checks each against SizeOfImage, and the
 * CRC first, so that a damaged file is said, not run. */
#ifndef CORE_PACK_H
#define CORE_PACK_H

#include "pe.h"

#define PACK_HEADER_FIXED 44u
#define PACK_CRC_OFFSET 40u
#define PACK_SECTION_SIZE 12u
#define PACK_VERSION 7u
#define PACK_IMAGE_MAX (16u << 20) /* a loader is far below; keeps a damaged header from allocating much */

/*
 * pack_compress_fn - write @len bytes of @src as a raw LZMA stream (lzma.h;
 * properties @lc, @lp, LZMA_PB) into @dst (@cap bytes); return its size, or 0 when it does not fit or fails.
 * Host side only (the build uses liblzma: src/pack/lzma_enc.c).
 */
typedef size_t (*pack_compress_fn)(const uint8_t *src, size_t len, uint8_t *dst, size_t cap, unsigned lc,
				   unsigned lp);

/**
 * pack_build() - the payload for the PE file @pe (@len bytes, named @name in
 * messages): its memory image, filtered (x86_filter_encode()) and compressed
 * by @compress, behind the header.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len; EFI_LOAD_ERROR /
 * EFI_UNSUPPORTED for an unusable PE, EFI_OUT_OF_RESOURCES; logged.
 */
EFI_STATUS pack_build(const uint8_t *pe, size_t len, const char *name, pack_compress_fn compress, uint8_t **ret,
		      size_t *ret_len);

/**
 * pack_image_size() - check the header of @payload (@len bytes) and the size
 * the image needs: the format version, @machine, a size up to PACK_IMAGE_MAX,
 * at most PE_MAX_SECTIONS sections, the header and block inside @len, and
 * the CRC-32 of them.
 * Return: EFI_SUCCESS with *@ret, or EFI_COMPROMISED_DATA (logged).
 */
EFI_STATUS pack_image_size(const uint8_t *payload, size_t len, uint16_t machine, uint32_t *ret);

/**
 * pack_unpack() - decompress @payload, one pack_image_size() accepted for
 * @machine, into @image (the @image_size bytes it gave), undo @machine's
 * branch filter, check the
 * header's entry point and sections against that size, and apply the base
 * relocations for running at @load_address.
 * Return: EFI_SUCCESS with *@ret holding the header's machine, size, entry
 * point, ImageBase, relocation directory and sections (RVA, VirtualSize,
 * Characteristics; nothing else of a PE parse); otherwise the image is for
 * discarding: EFI_COMPROMISED_DATA, EFI_LOAD_ERROR, EFI_UNSUPPORTED (logged).
 */
EFI_STATUS pack_unpack(const uint8_t *payload, uint16_t machine, uint8_t *image, uint32_t image_size,
		       uint64_t load_address, struct pe_info *ret);

#endif
