/* The packed loaders' payload (src/core/pack.c), on the real loaders the build
 * links (build/efi/handoff-image.efi, build/efi32/handoffia32-image.efi):
 * packed, then unpacked at the preferred base (the layout must be what
 * fake_pe_load() lays out) and elsewhere (exactly the base relocations must
 * move, by a walker written here from PE/COFF §6.6); then damaged payloads. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/pack.h"
#include "pack/lzma_enc.h"
#include "core/platform.h"
#include <stdlib.h>

#define LOADER_IMAGE "build/efi/handoff-image.efi"
#define LOADER32_IMAGE "build/efi32/handoffia32-image.efi"
#define LOADERAA64_IMAGE "build/efiaa64/handoffaa64-image.efi"

struct ref_pe {
	uint16_t machine;
	uint64_t image_base;
	uint32_t reloc_rva, reloc_size, entry, n_sections;
};

static struct ref_pe ref_pe(const uint8_t *f)
{
	uint32_t opt = ref_opt(f);
	bool plus = get_le16(f + opt) == 0x20b;
	uint32_t dirs = opt + (plus ? 112 : 96);
	uint64_t base = plus ? get_le64(f + opt + 24) : get_le32(f + opt + 28);

	return (struct ref_pe){ get_le16(f + ref_pe_offset(f) + 4), base, get_le32(f + dirs + 5 * 8),
				get_le32(f + dirs + 5 * 8 + 4), get_le32(f + opt + 16),
				get_le16(f + ref_pe_offset(f) + 6) };
}

/* IMAGE_REL_BASED_HIGHLOW (3) and DIR64 (10); ABSOLUTE (0) pads a block. */
static void ref_relocate(uint8_t *m, const struct ref_pe *r, uint64_t delta)
{
	for (uint32_t b = r->reloc_rva; b < r->reloc_rva + r->reloc_size;) {
		uint32_t page = get_le32(m + b), size = get_le32(m + b + 4);

		for (uint32_t e = b + 8; e < b + size; e += 2) {
			uint16_t v = get_le16(m + e);
			uint8_t *site = m + page + (v & 0xfff);

			if (v >> 12 == 10)
				put_le64(site, get_le64(site) + delta);
			else if (v >> 12 == 3)
				put_le32(site, get_le32(site) + (uint32_t)delta);
		}
		b += size;
	}
}

/* The header's sections are the file's (PE/COFF §4: VirtualSize at 8,
 * VirtualAddress at 12, Characteristics at 36 of each 40-byte header). */
static void check_sections(const uint8_t *f, const struct pe_info *pe)
{
	uint32_t pe_off = ref_pe_offset(f), table = pe_off + 24 + get_le16(f + pe_off + 20);

	for (uint32_t i = 0; i < pe->n_sections; i++) {
		const uint8_t *h = f + table + 40 * i;

		CHECK_EQ(pe->sections[i].virtual_size, get_le32(h + 8));
		CHECK_EQ(pe->sections[i].virtual_address, get_le32(h + 12));
		CHECK_EQ(pe->sections[i].characteristics, get_le32(h + 36));
	}
}

static void check_round_trip(const char *env, const char *path, uint64_t elsewhere)
{
	size_t len, plen, want_size;
	uint8_t *file = fixture_read(env, path, &len), *payload = NULL, *want, *image;
	struct pe_info pe;
	struct ref_pe r;
	uint32_t size = 0;

	if (!file)
		return;
	r = ref_pe(file);
	CHECK_EQ(pack_build(file, len, path, lzma_enc_raw, &payload, &plen), EFI_SUCCESS);
	CHECK(plen < len); /* it compresses */
	CHECK_EQ(pack_image_size(payload, plen, r.machine, &size), EFI_SUCCESS);
	want = fake_pe_load(file, len, &want_size);
	CHECK_EQ(size, want_size);
	image = malloc(size);
	CHECK_EQ(pack_unpack(payload, r.machine, image, size, r.image_base, &pe), EFI_SUCCESS);
	CHECK_MEM(image, want, size);
	CHECK(r.reloc_size > 0);
	CHECK_EQ(pack_unpack(payload, r.machine, image, size, elsewhere, &pe), EFI_SUCCESS);
	ref_relocate(want, &r, elsewhere - r.image_base);
	CHECK_MEM(image, want, size);
	CHECK_EQ(pe.machine, r.machine);
	CHECK_EQ(pe.image_base, r.image_base);
	CHECK_EQ(pe.entry_point, r.entry);
	CHECK_EQ(pe.reloc_rva, r.reloc_rva);
	CHECK_EQ(pe.reloc_size, r.reloc_size);
	CHECK_EQ(pe.n_sections, r.n_sections);
	check_sections(file, &pe);
	free(file);
	free(payload);
	free(want);
	free(image);
}

TEST(pack_loader_x64_round_trip_and_relocation)
{
	check_round_trip("HANDOFF_TEST_LOADER_IMAGE", LOADER_IMAGE, 0x7e5f3000);
}

TEST(pack_loader_ia32_round_trip_and_relocation)
{
	check_round_trip("HANDOFF_TEST_LOADER32_IMAGE", LOADER32_IMAGE, 0x3e5f3000);
}

/* The AArch64 image goes through AArch64's branch filter both ways (the
 * payload's machine chooses it): x86's would not give its bytes back. */
TEST(pack_loader_aa64_round_trip_and_relocation)
{
	check_round_trip("HANDOFF_TEST_LOADERAA64_IMAGE", LOADERAA64_IMAGE, 0x87e5f3000);
}

/* pack_image_size() and pack_unpack() as the unpacker calls them: refused by either. */
static bool unpacks(const uint8_t *p, size_t plen, uint16_t machine, uint8_t *image, uint32_t want)
{
	struct pe_info pe;
	uint32_t size;

	return !EFI_ERROR(pack_image_size(p, plen, machine, &size)) && size == want &&
	       !EFI_ERROR(pack_unpack(p, machine, image, size, 0x1000000, &pe));
}

/* A payload's CRC-32 (pack.h: of all but the field at 40) as zlib computes it, written here. */
static uint32_t ref_crc(const uint8_t *p, size_t len)
{
	uint32_t crc = 0xffffffff;

	for (size_t i = 0; i < len; i++) {
		if (i >= PACK_CRC_OFFSET && i < PACK_CRC_OFFSET + 4)
			continue;
		crc ^= p[i];
		for (int b = 0; b < 8; b++)
			crc = crc >> 1 ^ (crc & 1 ? 0xedb88320 : 0);
	}
	return ~crc;
}

/* Each damage on its own copy of a good payload is refused before the image
 * is used: by the CRC, and, with the CRC made right again, by the check of
 * that field itself. */
TEST(pack_damaged_payloads_are_refused)
{
	size_t len, plen;
	uint8_t *file = fixture_read("HANDOFF_TEST_LOADER_IMAGE", LOADER_IMAGE, &len), *good = NULL, *p, *image;
	uint32_t size = 0;
	size_t stream;
	static const struct {
		const char *what;
		size_t at;
		uint8_t value;
	} damage[] = {
		{ "magic", 0, 'X' }, { "version 1 (LZ4)", 4, 1 }, { "version 2 (no filter)", 4, 2 },
		{ "version 4 (relocations as linked)", 4, 4 }, { "version 5 (no entry point and sections)", 4, 5 },
		{ "machine", 6, 0x4c }, { "size 0", 8, 0 }, { "size over the limit", 11, 0x10 },
		{ "block past the payload", 15, 0x7f }, { "entry point past the image", 19, 0x7f },
		{ "over PE_MAX_SECTIONS sections", 29, 0x7f }, { "a section's RVA past the image", 47, 0x7f },
		{ "a section's VirtualSize past the image", 51, 0x7f },
	};

	if (!file)
		return;
	CHECK_EQ(pack_build(file, len, "loader", lzma_enc_raw, &good, &plen), EFI_SUCCESS);
	stream = PACK_HEADER_FIXED + get_le16(good + 28) * PACK_SECTION_SIZE;
	CHECK_EQ(get_le32(good + PACK_CRC_OFFSET), ref_crc(good, plen));
	CHECK_EQ(pack_image_size(good, plen, PE_MACHINE_X64, &size), EFI_SUCCESS);
	image = malloc(size);
	p = malloc(plen);
	CHECK(unpacks(good, plen, PE_MACHINE_X64, image, size));
	for (size_t i = 0; i < ARRAY_SIZE(damage); i++)
		for (int fix_crc = 0; fix_crc < 2; fix_crc++) {
			memcpy(p, good, plen);
			if (damage[i].at == 8)
				memset(p + 8, 0, 4);
			else
				p[damage[i].at] = damage[i].value;
			if (fix_crc)
				put_le32(p + PACK_CRC_OFFSET, ref_crc(p, plen));
			if (unpacks(p, plen, PE_MACHINE_X64, image, size))
				test_fail(__FILE__, __LINE__, "not refused: %s%s", damage[i].what,
					  fix_crc ? " (CRC made right)" : "");
		}
	/* what only the CRC sees: a section's characteristics, a byte deep in the stream */
	for (size_t at = 0; at < 2; at++) {
		memcpy(p, good, plen);
		p[at ? stream + (plen - stream) / 2 : PACK_HEADER_FIXED + 8] ^= 0x20;
		CHECK(EFI_ERROR(pack_image_size(p, plen, PE_MACHINE_X64, &size)));
	}
	memcpy(p, good, plen);
	p[stream] = 0x07; /* the stream's first block type */
	put_le32(p + PACK_CRC_OFFSET, ref_crc(p, plen));
	CHECK(!unpacks(p, plen, PE_MACHINE_X64, image, size));
	CHECK(!unpacks(good, plen - 1, PE_MACHINE_X64, image, size)); /* cut short */
	CHECK(!unpacks(good, plen, PE_MACHINE_I386, image, size));
	CHECK(!unpacks(good, 3, PE_MACHINE_X64, image, size));
	CHECK_LOG("packed image");
	CHECK(EFI_ERROR(pack_build((const uint8_t *)"not a PE", 8, "text", lzma_enc_raw, &p, &plen)));
	free(file);
	free(good);
	free(p);
	free(image);
}
