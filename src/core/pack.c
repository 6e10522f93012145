/* The payload of the packed loaders (pack.h): written by the build, read by
 * the unpacker before anything else of the loader runs. The payload is part
 * of the signed loader file, and is still checked as if it were not: sizes
 * before allocation, the stream against both buffers (lzma_decode), the
 * header's entry point and sections against the image, its relocations as
 * any image's (pe_relocate). */
#include "pack.h"
#include "crc32.h"
#include "lzma.h"
#include "aa64_filter.h"
#include "x86_filter.h"
#include "log.h"

static const char pack_magic[4] = { 'H', 'O', 'P', 'K' };

/* The base relocation blocks (PE/COFF §6.6: u32 page RVA, u32 block size,
 * u16 entries of type << 12 | offset) with each entry's offset made its
 * difference from the previous one of the block (modulo 4096), or back:
 * sorted offsets become small numbers the compressor finds again (the IA-32
 * loader's 1,400 relocations: 780 bytes less stream). ABSOLUTE entries (type
 * 0, padding) stay. Only the offsets change, so both directions walk the same
 * blocks; the walk stops where pe_relocate() would refuse the directory. */
static void reloc_delta(uint8_t *image, size_t size, const struct pe_info *pe, bool decode)
{
	uint8_t *dir = image + pe->reloc_rva;

	if (!range_ok(pe->reloc_rva, pe->reloc_size, size))
		return;
	for (uint32_t b = 0, block; b + 8 <= pe->reloc_size; b += block) {
		uint16_t prev = 0; /* its low 12 bits: the previous offset */

		block = get_le32(dir + b + 4);
		if (block < 8 || block > pe->reloc_size - b)
			return;
		for (uint32_t e = b + 8; e + 2 <= b + block; e += 2) {
			uint16_t v = get_le16(dir + e), d = (uint16_t)(decode ? v + prev : v - prev);

			if (v >> 12 == 0)
				continue;
			prev = decode ? d : v;
			put_le16(dir + e, (uint16_t)((v & 0xf000) | (d & 0xfff)));
		}
	}
}

/* The branch filter of @machine: AArch64's (aa64_filter.h) or x86's (x86_filter.h). */
static void branch_filter(uint16_t machine, uint8_t *image, size_t size, bool decode)
{
	if (machine == PE_MACHINE_AA64)
		(decode ? aa64_filter_decode : aa64_filter_encode)(image, size);
	else
		(decode ? x86_filter_decode : x86_filter_encode)(image, size);
}

/* The image as a firmware lays it out: SizeOfHeaders bytes of headers, each
 * section's initialized bytes at its RVA, zeros elsewhere. */
static uint8_t *layout(const uint8_t *pe_file, size_t len, const struct pe_info *pe)
{
	uint8_t *image = pe->size_of_image <= PACK_IMAGE_MAX ? mem_zalloc(pe->size_of_image) : NULL;

	if (!image)
		return NULL;
	memcpy(image, pe_file, MIN((size_t)pe->size_of_headers, len));
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const struct pe_section *s = &pe->sections[i];
		size_t n;
		const uint8_t *data = pe_section_data(s, pe_file, len, PE_LAYOUT_FILE, &n);

		if (data) /* pe_parse() put every section inside SizeOfImage */
			memcpy(image + s->virtual_address, data,
			       MIN(n, (size_t)pe->size_of_image - s->virtual_address));
	}
	return image;
}

/* The CRC-32 of the first @len bytes of @payload but its CRC field. */
static uint32_t payload_crc(const uint8_t *payload, size_t len)
{
	return crc32(crc32(0, payload, PACK_CRC_OFFSET), payload + PACK_HEADER_FIXED, len - PACK_HEADER_FIXED);
}

/* The header (pack.h) of the image @pe, @block bytes of stream; its CRC once the stream is in. */
static void put_header(uint8_t *out, const struct pe_info *pe, size_t block)
{
	memcpy(out, pack_magic, sizeof(pack_magic));
	put_le16(out + 4, PACK_VERSION);
	put_le16(out + 6, pe->machine);
	put_le32(out + 8, pe->size_of_image);
	put_le32(out + 12, (uint32_t)block);
	put_le32(out + 16, pe->entry_point);
	put_le32(out + 20, pe->reloc_rva);
	put_le32(out + 24, pe->reloc_size);
	put_le16(out + 28, (uint16_t)pe->n_sections);
	put_le16(out + 30, 0);
	put_le64(out + 32, pe->image_base);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		uint8_t *h = out + PACK_HEADER_FIXED + i * PACK_SECTION_SIZE;

		put_le32(h, pe->sections[i].virtual_address);
		put_le32(h + 4, pe->sections[i].virtual_size);
		put_le32(h + 8, pe->sections[i].characteristics);
	}
}

EFI_STATUS pack_build(const uint8_t *pe_file, size_t len, const char *name, pack_compress_fn compress,
		      uint8_t **ret, size_t *ret_len)
{
	struct pe_info pe;
	uint8_t *image, *out;
	size_t block, cap, head;
	bool aa64;
	EFI_STATUS err = pe_parse(pe_file, len, name, &pe);

	if (EFI_ERROR(err))
		return err;
	if (pe.size_of_image > PACK_IMAGE_MAX)
		return log_error_status(EFI_UNSUPPORTED, "%s: SizeOfImage %#x is over %#x", name, pe.size_of_image,
					PACK_IMAGE_MAX);
	image = layout(pe_file, len, &pe);
	if (image) {
		reloc_delta(image, pe.size_of_image, &pe, false);
		branch_filter(pe.machine, image, pe.size_of_image, false);
	}
	head = PACK_HEADER_FIXED + (size_t)pe.n_sections * PACK_SECTION_SIZE;
	cap = pe.size_of_image + pe.size_of_image / 8 + 64; /* more than incompressible bytes take */
	out = image ? mem_alloc(head + cap) : NULL;
	aa64 = pe.machine == PE_MACHINE_AA64; /* AArch64's literal properties (lzma.h) */
	block = out ? compress(image, pe.size_of_image, out + head, cap, aa64 ? LZMA_AA64_LC : LZMA_LC,
			       aa64 ? LZMA_AA64_LP : LZMA_LP) :
		      0;
	mem_free(image);
	if (!block || block > cap) {
		mem_free(out);
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: cannot compress it", name);
	}
	put_header(out, &pe, block);
	put_le32(out + PACK_CRC_OFFSET, payload_crc(out, head + block));
	*ret = out;
	*ret_len = head + block;
	return EFI_SUCCESS;
}

/* The header's size, once pack_image_size() has checked it fits. */
static size_t header_size(const uint8_t *payload)
{
	return PACK_HEADER_FIXED + (size_t)get_le16(payload + 28) * PACK_SECTION_SIZE;
}

EFI_STATUS pack_image_size(const uint8_t *payload, size_t len, uint16_t machine, uint32_t *ret)
{
	uint32_t size;

	if (len < PACK_HEADER_FIXED || memcmp(payload, pack_magic, sizeof(pack_magic)) != 0 ||
	    get_le16(payload + 4) != PACK_VERSION || get_le16(payload + 6) != machine)
		return log_error_status(EFI_COMPROMISED_DATA, "packed image: not a version %u payload for machine %#x",
					PACK_VERSION, machine);
	size = get_le32(payload + 8);
	if (size == 0 || size > PACK_IMAGE_MAX || get_le16(payload + 28) > PE_MAX_SECTIONS ||
	    header_size(payload) > len || get_le32(payload + 12) > len - header_size(payload))
		return log_error_status(EFI_COMPROMISED_DATA, "packed image: size %#x, sections or block out of range",
					size);
	if (payload_crc(payload, header_size(payload) + get_le32(payload + 12)) != get_le32(payload + PACK_CRC_OFFSET))
		return log_error_status(EFI_CRC_ERROR, "packed image: CRC-32 mismatch");
	*ret = size;
	return EFI_SUCCESS;
}

/* The image's description from the header: every section inside the image,
 * the entry point too. */
static EFI_STATUS read_header(const uint8_t *payload, uint32_t size, struct pe_info *pe)
{
	memset(pe, 0, sizeof(*pe));
	pe->machine = get_le16(payload + 6);
	pe->size_of_image = size;
	pe->entry_point = get_le32(payload + 16);
	pe->reloc_rva = get_le32(payload + 20);
	pe->reloc_size = get_le32(payload + 24);
	pe->n_sections = get_le16(payload + 28);
	pe->image_base = get_le64(payload + 32);
	if (pe->entry_point >= size)
		return log_error_status(EFI_LOAD_ERROR, "packed image: entry point %#x past %#x", pe->entry_point,
					size);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *h = payload + PACK_HEADER_FIXED + i * PACK_SECTION_SIZE;
		struct pe_section *s = &pe->sections[i];

		s->virtual_address = get_le32(h);
		s->virtual_size = get_le32(h + 4);
		s->characteristics = get_le32(h + 8);
		if (!range_ok(s->virtual_address, s->virtual_size, size))
			return log_error_status(EFI_LOAD_ERROR, "packed image: section %u outside the image", i);
	}
	return EFI_SUCCESS;
}

EFI_STATUS pack_unpack(const uint8_t *payload, uint16_t machine, uint8_t *image, uint32_t image_size,
		       uint64_t load_address, struct pe_info *ret)
{
	const uint8_t *stream = payload + header_size(payload);
	EFI_STATUS err;

	if (lzma_decode_arch(stream, get_le32(payload + 12), image, image_size,
			     machine == PE_MACHINE_AA64 ? FW_AA64 : FW_X64) != EFI_SUCCESS)
		return log_error_status(EFI_COMPROMISED_DATA,
					"packed image: the block does not decompress to %#x bytes", image_size);
	branch_filter(machine, image, image_size, true);
	err = read_header(payload, image_size, ret);
	if (EFI_ERROR(err))
		return err;
	reloc_delta(image, image_size, ret, true);
	return pe_relocate(image, image_size, ret, load_address - ret->image_base, "packed image");
}
