/* The payload of the packed loaders (pack.h): written by the build, read by
 * the unpacker before anything else of the loader runs. The payload is part
 * of the signed loader file, and is still checked as if it were not: sizes
 * before allocation, the stream against both buffers (lzma_decode), the image,
 * once its branches are back as the linker wrote them (x86_filter_decode), by
 * the same PE checks as any image (pe_parse_loaded, pe_relocate). */
#include "pack.h"
#include "lzma.h"
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

EFI_STATUS pack_build(const uint8_t *pe_file, size_t len, const char *name, pack_compress_fn compress,
		      uint8_t **ret, size_t *ret_len)
{
	struct pe_info pe;
	uint8_t *image, *out;
	size_t block, cap;
	EFI_STATUS err = pe_parse(pe_file, len, name, &pe);

	if (EFI_ERROR(err))
		return err;
	if (pe.size_of_image > PACK_IMAGE_MAX)
		return log_error_status(EFI_UNSUPPORTED, "%s: SizeOfImage %#x is over %#x", name, pe.size_of_image,
					PACK_IMAGE_MAX);
	image = layout(pe_file, len, &pe);
	if (image) {
		reloc_delta(image, pe.size_of_image, &pe, false);
		x86_filter_encode(image, pe.size_of_image);
	}
	cap = pe.size_of_image + pe.size_of_image / 8 + 64; /* more than incompressible bytes take */
	out = image ? mem_alloc(PACK_HEADER_SIZE + cap) : NULL;
	block = out ? compress(image, pe.size_of_image, out + PACK_HEADER_SIZE, cap) : 0;
	mem_free(image);
	if (!block || block > cap) {
		mem_free(out);
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: cannot compress it", name);
	}
	memcpy(out, pack_magic, sizeof(pack_magic));
	put_le16(out + 4, PACK_VERSION);
	put_le16(out + 6, pe.machine);
	put_le32(out + 8, pe.size_of_image);
	put_le32(out + 12, (uint32_t)block);
	*ret = out;
	*ret_len = PACK_HEADER_SIZE + block;
	return EFI_SUCCESS;
}

EFI_STATUS pack_image_size(const uint8_t *payload, size_t len, uint16_t machine, uint32_t *ret)
{
	uint32_t size;

	if (len < PACK_HEADER_SIZE || memcmp(payload, pack_magic, sizeof(pack_magic)) != 0 ||
	    get_le16(payload + 4) != PACK_VERSION || get_le16(payload + 6) != machine)
		return log_error_status(EFI_COMPROMISED_DATA, "packed image: not a version %u payload for machine %#x",
					PACK_VERSION, machine);
	size = get_le32(payload + 8);
	if (size == 0 || size > PACK_IMAGE_MAX || get_le32(payload + 12) > len - PACK_HEADER_SIZE)
		return log_error_status(EFI_COMPROMISED_DATA, "packed image: size %#x or block %#x out of range", size,
					get_le32(payload + 12));
	*ret = size;
	return EFI_SUCCESS;
}

EFI_STATUS pack_unpack(const uint8_t *payload, size_t len, uint16_t machine, uint8_t *image, uint32_t image_size,
		       uint64_t load_address, struct pe_info *ret)
{
	uint32_t size;
	EFI_STATUS err = pack_image_size(payload, len, machine, &size);

	if (EFI_ERROR(err))
		return err;
	if (size != image_size ||
	    lzma_decode(payload + PACK_HEADER_SIZE, get_le32(payload + 12), image, size) != EFI_SUCCESS)
		return log_error_status(EFI_COMPROMISED_DATA,
					"packed image: the block does not decompress to %#x bytes", image_size);
	x86_filter_decode(image, size);
	err = pe_parse_loaded(image, size, "packed image", ret);
	if (EFI_ERROR(err))
		return err;
	reloc_delta(image, size, ret, true);
	if (!pe_is_efi_app(ret, machine) || ret->size_of_image != size || ret->entry_point >= size)
		return log_error_status(EFI_LOAD_ERROR, "packed image: not an EFI application for %#x of %#x bytes",
					machine, size);
	return pe_relocate(image, size, ret, load_address - ret->image_base, "packed image");
}
