/* pe_parse() on real images (Debian's kernel, systemd's stub) against header
 * bytes read here independently, on damaged images, on loaded images; the
 * checksum; and pe_add_sections() round trips. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/pe_write.h"
#include <stdlib.h>

static void check_against_bytes(const uint8_t *img, size_t len, const struct pe_info *pe)
{
	uint32_t opt = ref_opt(img);

	CHECK_EQ(pe->pe_offset, get_le32(img + 0x3c));
	CHECK_EQ(pe->machine, get_le16(img + pe->pe_offset + 4));
	CHECK_EQ(pe->n_sections, get_le16(img + pe->pe_offset + 6));
	CHECK_EQ(pe->entry_point, get_le32(img + opt + 16));
	CHECK_EQ(pe->section_alignment, get_le32(img + opt + 32));
	CHECK_EQ(pe->file_alignment, get_le32(img + opt + 36));
	CHECK_EQ(pe->size_of_image, get_le32(img + opt + 56));
	CHECK_EQ(pe->size_of_headers, get_le32(img + opt + 60));
	CHECK_EQ(pe->subsystem, get_le16(img + opt + 68));
	CHECK_EQ(pe->cert_offset, ref_dir_rva(img, 4));
	CHECK_EQ(pe->cert_size, ref_dir_size(img, 4));
	CHECK_EQ(pe->reloc_rva, ref_dir_rva(img, 5));
	for (unsigned i = 0; i < pe->n_sections && i < PE_MAX_SECTIONS; i++) {
		const uint8_t *h = img + ref_sec(img, i);
		CHECK(strncmp(pe->sections[i].name, (const char *)h, 8) == 0);
		CHECK_EQ(pe->sections[i].virtual_size, get_le32(h + 8));
		CHECK_EQ(pe->sections[i].virtual_address, get_le32(h + 12));
		CHECK_EQ(pe->sections[i].raw_size, get_le32(h + 16));
		CHECK_EQ(pe->sections[i].raw_offset, get_le32(h + 20));
		CHECK_EQ(pe->sections[i].characteristics, get_le32(h + 36));
		CHECK((uint64_t)get_le32(h + 20) + get_le32(h + 16) <= len);
	}
}

TEST(pe_debian_kernel)
{
	size_t len;
	uint8_t *img = fixture_kernel(&len);
	struct pe_info pe;

	if (!img)
		return;
	CHECK_EQ(pe_parse(img, len, "vmlinuz", &pe), EFI_SUCCESS);
	check_against_bytes(img, len, &pe);
	CHECK(pe_is_efi_app_x64(&pe));
	CHECK(pe_find_section(&pe, ".text") != NULL);
	CHECK(pe_find_section(&pe, ".linux") == NULL);
	CHECK(pe_find_section(&pe, ".text\x01") == NULL);
	/* Debian signs its kernels: the certificate table sits past the sections */
	CHECK(pe.cert_size > 0);
	free(img);
}

TEST(pe_systemd_stub)
{
	size_t len;
	uint8_t *img = fixture_stub(&len);
	struct pe_info pe;

	if (!img)
		return;
	CHECK_EQ(pe_parse(img, len, "stub", &pe), EFI_SUCCESS);
	check_against_bytes(img, len, &pe);
	CHECK(pe_is_efi_app_x64(&pe));
	CHECK_EQ(pe.section_table_offset, ref_sec(img, 0));
	CHECK(pe_find_section(&pe, ".sbat") != NULL);
	free(img);
}

TEST(pe_not_a_pe_is_quiet)
{
	uint8_t buf[256] = { 'M', 'Z' };
	struct pe_info pe;

	CHECK_EQ(pe_parse(buf, sizeof(buf), "x", &pe), EFI_UNSUPPORTED);
	buf[0] = 0;
	CHECK_EQ(pe_parse(buf, sizeof(buf), "x", &pe), EFI_UNSUPPORTED);
	CHECK_EQ(pe_parse(buf, 10, "x", &pe), EFI_UNSUPPORTED);
	CHECK_EQ(test_log_count(), 0);
}

struct pe_damage {
	const char *what;
	int field;      /* which field to set */
	uint32_t value;
	const char *message;
};

enum {
	D_N_SECTIONS,
	D_OPT_SIZE,
	D_MAGIC,
	D_N_DIRS,
	D_RAW_OFFSET,
	D_RAW_SIZE,
	D_VSIZE,
	D_FILE_ALIGN,
	D_CERT,
	D_TRUNCATE
};

static void apply_damage(uint8_t *img, size_t *len, const struct pe_damage *d)
{
	uint32_t coff = ref_pe_offset(img) + 4, opt = ref_opt(img), sec = ref_sec(img, 1);

	switch (d->field) {
	case D_N_SECTIONS: put_le16(img + coff + 2, (uint16_t)d->value); break;
	case D_OPT_SIZE: put_le16(img + coff + 16, (uint16_t)d->value); break;
	case D_MAGIC: put_le16(img + opt, (uint16_t)d->value); break;
	case D_N_DIRS: put_le32(img + opt + 108, d->value); break;
	case D_RAW_OFFSET: put_le32(img + sec + 20, d->value); break;
	case D_RAW_SIZE: put_le32(img + sec + 16, d->value); break;
	case D_VSIZE: put_le32(img + sec + 8, d->value); break;
	case D_FILE_ALIGN: put_le32(img + opt + 36, d->value); break;
	case D_CERT: put_le32(img + opt + 112 + 32, d->value); put_le32(img + opt + 112 + 36, 0x100); break;
	case D_TRUNCATE: *len = d->value; break;
	}
}

TEST(pe_rejects_damaged_headers)
{
	static const struct pe_damage cases[] = {
		{ "absurd section count", D_N_SECTIONS, 65535, "at most" },
		{ "optional header too short", D_OPT_SIZE, 100, "too short" },
		{ "optional header past the end", D_OPT_SIZE, 0xfff0, "optional header" },
		{ "neither PE32 nor PE32+", D_MAGIC, 0x30b, "neither PE32+" },
		{ "too many data directories", D_N_DIRS, 17, "data directories" },
		{ "section raw data outside", D_RAW_OFFSET, 0x7fff0000, "outside the file" },
		{ "section raw size outside", D_RAW_SIZE, 0xfffffe00, "outside the file" },
		{ "section past SizeOfImage", D_VSIZE, 0x10000000, "SizeOfImage" },
		{ "FileAlignment not a power of 2", D_FILE_ALIGN, 0x300, "power of two" },
		{ "certificate table outside", D_CERT, 0xffffff00, "certificate table" },
		{ "truncated in the section table", D_TRUNCATE, 0x1a0, "section table" },
	};
	struct fake_pe f = fake_pe_default();

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		size_t len;
		uint8_t *img = fake_pe_build(&f, &len);
		struct pe_info pe;

		test_log_reset();
		CHECK_EQ(pe_parse(img, len, "damaged.efi", &pe), EFI_SUCCESS);
		apply_damage(img, &len, &cases[i]);
		if (pe_parse(img, len, "damaged.efi", &pe) != EFI_LOAD_ERROR)
			test_fail(__FILE__, __LINE__, "case \"%s\" was accepted", cases[i].what);
		else if (!test_log_contains(cases[i].message) || !test_log_contains("damaged.efi"))
			test_fail(__FILE__, __LINE__, "case \"%s\": message lacks \"%s\"", cases[i].what,
				  cases[i].message);
		free(img);
	}
}

TEST(pe_loaded_image)
{
	struct fake_pe f = fake_pe_default();
	size_t len, size, n;
	uint8_t *img, *mem;
	struct pe_info pe;
	const uint8_t *data;

	f.cert_size = 0x80;
	img = fake_pe_build(&f, &len);
	mem = fake_pe_load(img, len, &size);
	CHECK_EQ(pe_parse_loaded(mem, size, "loaded", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.n_sections, 4);
	/* .text: VirtualSize 0x1234 < raw 0x1400; in memory at its RVA */
	data = pe_section_data(&pe.sections[0], mem, size, PE_LAYOUT_MEMORY, &n);
	CHECK(data == mem + 0x1000);
	CHECK_EQ(n, 0x1234);
	CHECK_MEM(data, img + 0x400, 0x1234);
	/* the file layout view of the same section */
	CHECK_EQ(pe_parse(img, len, "file", &pe), EFI_SUCCESS);
	data = pe_section_data(&pe.sections[0], img, len, PE_LAYOUT_FILE, &n);
	CHECK(data == img + 0x400);
	/* .data: 0x2000 virtual, 0x200 raw: only the initialized part */
	data = pe_section_data(&pe.sections[2], img, len, PE_LAYOUT_FILE, &n);
	CHECK_EQ(n, 0x200);
	/* U-Boot's ImageSize ends with the last section (.reloc: 0x6000 + VirtualSize 0x20), short of
	 * SizeOfImage (0x7000): every section is there, so it is a whole loaded image */
	CHECK_EQ(size, 0x7000);
	CHECK_EQ(pe_parse_loaded(mem, 0x6020, "u-boot", &pe), EFI_SUCCESS);
	data = pe_section_data(&pe.sections[3], mem, 0x6020, PE_LAYOUT_MEMORY, &n);
	CHECK(data == mem + 0x6000);
	CHECK_EQ(n, 0x20);
	/* one byte less cuts into .reloc: refused, naming the section */
	CHECK_EQ(pe_parse_loaded(mem, 0x601f, "short", &pe), EFI_LOAD_ERROR);
	CHECK_LOG("short: section 3 (.reloc) 0x6000+0x20 lies outside the loaded image (24607 bytes)");
	free(mem);
	free(img);
}

TEST(pe_checksum_known_values)
{
	static const uint8_t three[] = { 0x01, 0x02, 0x03 };
	uint8_t ff[4] = { 0xff, 0xff, 0x01, 0x00 };

	/* 0x0201 + 0x0003 = 0x0204, plus the length 3 */
	CHECK_EQ(pe_checksum(three, 3, 100), 0x0207);
	/* the field (bytes 0..3) counts as zero */
	CHECK_EQ(pe_checksum(three, 3, 0), 3);
	/* 0xffff + 0x0001 = 0x10000 -> end-around carry -> 0x0001, plus 4 */
	CHECK_EQ(pe_checksum(ff, 4, 100), 5);
}

TEST(pe_checksum_matches_reference)
{
	size_t len;
	uint8_t *img = fixture_stub(&len);

	if (!img)
		return;
	CHECK_EQ(pe_checksum(img, len, ref_opt(img) + 64), ref_checksum(img, len));
	CHECK_EQ(pe_checksum(img, len - 1, ref_opt(img) + 64), ref_checksum(img, len - 1));
	for (size_t i = 0; i < len; i++)
		img[i] = (uint8_t)(i * 2654435761u >> 13);
	put_le32(img + 0x3c, 0x80);
	CHECK_EQ(pe_checksum(img, len, 0x80 + 24 + 64), ref_checksum(img, len));
	free(img);
}

static void new_section(struct pe_new_section *s, const char *name, const uint8_t *data, size_t size)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->name, name);
	s->data = data;
	s->size = size;
	s->characteristics = PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ;
}

/* Everything the writer promises, checked on @out against @in. */
static void check_added(const uint8_t *in, size_t in_len, const uint8_t *out, size_t out_len,
			const struct pe_new_section *secs, size_t n)
{
	struct pe_info a, b;
	uint32_t va_min, raw_min;

	CHECK_EQ(pe_parse(in, in_len, "in", &a), EFI_SUCCESS);
	CHECK_EQ(pe_parse(out, out_len, "out", &b), EFI_SUCCESS);
	CHECK_EQ(b.n_sections, a.n_sections + n);
	CHECK_EQ(get_le16(out + ref_pe_offset(out) + 6), a.n_sections + n);
	va_min = a.size_of_image;
	raw_min = 0;
	for (unsigned i = 0; i < a.n_sections; i++) {
		/* the old section headers are unchanged but for a moved PointerToRawData */
		CHECK_MEM(out + ref_sec(out, i), in + ref_sec(in, i), 20);
		CHECK_MEM(out + ref_sec(out, i) + 24, in + ref_sec(in, i) + 24, 16);
		CHECK_EQ(b.sections[i].raw_offset % a.file_alignment, a.sections[i].raw_offset % a.file_alignment);
		CHECK(b.sections[i].raw_offset >= b.size_of_headers || !b.sections[i].raw_size);
		CHECK_MEM(out + b.sections[i].raw_offset, in + a.sections[i].raw_offset, a.sections[i].raw_size);
		raw_min = MAX(raw_min, b.sections[i].raw_offset + b.sections[i].raw_size);
	}
	for (size_t i = 0; i < n; i++) {
		const struct pe_section *s = &b.sections[a.n_sections + i];
		CHECK_STR(s->name, secs[i].name);
		CHECK_EQ(s->virtual_size, secs[i].size);
		CHECK_EQ(s->virtual_address % a.section_alignment, 0);
		CHECK(s->virtual_address >= va_min);
		CHECK_EQ(s->raw_offset % a.file_alignment, 0);
		CHECK(s->raw_offset >= raw_min);
		CHECK(s->raw_offset >= b.size_of_headers);
		CHECK_EQ(s->raw_size, (secs[i].size + a.file_alignment - 1) / a.file_alignment * a.file_alignment);
		CHECK_EQ(s->characteristics, secs[i].characteristics);
		CHECK_MEM(out + s->raw_offset, secs[i].data, secs[i].size);
		va_min = s->virtual_address + MAX(s->virtual_size, s->raw_size);
		raw_min = s->raw_offset + s->raw_size;
	}
	CHECK_EQ(b.size_of_image, (va_min + a.section_alignment - 1) / a.section_alignment * a.section_alignment);
	CHECK_EQ(out_len, raw_min);
	CHECK(b.size_of_headers >= ref_sec(out, b.n_sections));
	CHECK_EQ(ref_dir_rva(out, 4), 0);
	CHECK_EQ(ref_dir_size(out, 4), 0);
	CHECK_EQ(b.checksum, ref_checksum(out, out_len));
	CHECK(b.checksum != 0);
	CHECK_EQ(b.entry_point, a.entry_point);
	CHECK_EQ(b.reloc_rva, a.reloc_rva);
}

TEST(pe_add_sections_to_systemd_stub)
{
	size_t len, out_len;
	uint8_t *img = fixture_stub(&len), *out = NULL;
	uint8_t payload[0x1234];
	struct pe_new_section secs[3];

	if (!img)
		return;
	for (size_t i = 0; i < sizeof(payload); i++)
		payload[i] = (uint8_t)(i ^ 0x5a);
	new_section(&secs[0], ".one", payload, 1);
	new_section(&secs[1], ".middle", payload, sizeof(payload));
	new_section(&secs[2], ".exact", payload + 7, 0x200);
	CHECK_EQ(pe_add_sections(img, len, "stub", secs, 3, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, secs, 3);
		/* the COFF symbol table systemd leaves past the sections is gone */
		CHECK_EQ(get_le32(out + ref_pe_offset(out) + 4 + 8), 0);
		CHECK_EQ(get_le32(out + ref_pe_offset(out) + 4 + 12), 0);
	}
	mem_free(out);
	free(img);
}

TEST(pe_add_sections_drops_signature)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;
	struct pe_new_section sec;
	static const uint8_t data[] = "hello";

	f.cert_size = 0x300;
	img = fake_pe_build(&f, &len);
	new_section(&sec, ".linux", data, sizeof(data));
	CHECK_EQ(pe_add_sections(img, len, "signed.efi", &sec, 1, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, &sec, 1);
		CHECK_EQ(out_len, len - 0x300 + 0x200);
		for (size_t i = 0; i < out_len; i++)
			if (out[i] == 0xce && i >= len - 0x300)
				test_fail(__FILE__, __LINE__, "certificate byte copied at %#zx", i);
	}
	mem_free(out);
	free(img);
}

/* Linux's PE header is followed by boot sector code and the setup header at
 * 0x1f1: growing its section table would overwrite them, and must be refused. */
TEST(pe_add_sections_keeps_kernel_setup_header)
{
	size_t len, out_len;
	uint8_t *img = fixture_kernel(&len), *out = NULL;
	static const uint8_t data[] = "console=ttyS0";
	struct pe_new_section sec;

	if (!img)
		return;
	new_section(&sec, ".cmdline", data, sizeof(data) - 1);
	CHECK_EQ(pe_add_sections(img, len, "vmlinuz", &sec, 1, &out, &out_len), EFI_BUFFER_TOO_SMALL);
	CHECK_LOG("vmlinuz: no room for 1 more section headers: header bytes at");
	CHECK(out == NULL);
	free(img);
}

TEST(pe_add_sections_rejects_bad_sections)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img = fake_pe_build(&f, &len), *out = NULL;
	static const uint8_t data[4] = "abc";
	struct pe_new_section s[2];

	new_section(&s[0], ".text", data, 4);
	CHECK_EQ(pe_add_sections(img, len, "stub.efi", s, 1, &out, &out_len), EFI_INVALID_PARAMETER);
	CHECK_LOG("stub.efi: already has a .text section");
	new_section(&s[0], ".a", data, 4);
	new_section(&s[1], ".a", data, 4);
	CHECK_EQ(pe_add_sections(img, len, "stub.efi", s, 2, &out, &out_len), EFI_INVALID_PARAMETER);
	CHECK_LOG("given twice");
	new_section(&s[0], ".empty", data, 0);
	CHECK_EQ(pe_add_sections(img, len, "stub.efi", s, 1, &out, &out_len), EFI_INVALID_PARAMETER);
	CHECK_LOG("size 0");
	new_section(&s[0], "", data, 4);
	CHECK_EQ(pe_add_sections(img, len, "stub.efi", s, 1, &out, &out_len), EFI_INVALID_PARAMETER);
	memcpy(s[0].name, "123456789", 9);
	CHECK_EQ(pe_add_sections(img, len, "stub.efi", s, 1, &out, &out_len), EFI_INVALID_PARAMETER);
	CHECK_LOG("1-8 characters");
	CHECK(out == NULL);
	/* not a PE at all */
	img[0] = 'X';
	new_section(&s[0], ".a", data, 4);
	CHECK_EQ(pe_add_sections(img, len, "notpe", s, 1, &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("notpe: not a PE/COFF image");
	free(img);
}

TEST(pe_add_sections_header_room)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;
	static const uint8_t data[4] = "abc";
	struct pe_new_section s[4];
	struct pe_info pe;

	for (int i = 0; i < 4; i++)
		new_section(&s[i], i == 0 ? ".a" : i == 1 ? ".b" : i == 2 ? ".c" : ".d", data, 4);
	/* table at 0x80+24+240 = 0x188, 4 sections to 0x228; 0x400 leaves room: nothing moves */
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_add_sections(img, len, "roomy", s, 4, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, s, 4);
		CHECK_EQ(pe_parse(out, out_len, "roomy", &pe), EFI_SUCCESS);
		CHECK_EQ(pe.sections[0].raw_offset, 0x400);
		CHECK_EQ(pe.size_of_headers, 0x400);
	}
	mem_free(out);
	out = NULL;
	free(img);
	/* SizeOfHeaders 0x200 = first data, table 0x40+24+160 = 0xf8, 4 sections to 0x198: room for 2 */
	f.pe_offset = 0x40;
	f.size_of_headers = 0x200;
	f.n_dirs = 6;
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_add_sections(img, len, "tight", s, 2, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, s, 2);
		CHECK_EQ(pe_parse(out, out_len, "tight", &pe), EFI_SUCCESS);
		CHECK_EQ(pe.sections[0].raw_offset, 0x200);
	}
	mem_free(out);
	out = NULL;
	/* 3 do not fit: the section data moves up by one FileAlignment, RVAs stay */
	CHECK_EQ(pe_add_sections(img, len, "tight", s, 3, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, s, 3);
		CHECK_EQ(pe_parse(out, out_len, "moved", &pe), EFI_SUCCESS);
		CHECK_EQ(pe.sections[0].raw_offset, 0x400);
		CHECK_EQ(pe.sections[0].virtual_address, 0x1000);
		CHECK_EQ(pe.size_of_headers, 0x400);
	}
	mem_free(out);
	out = NULL;
	/* a debug directory holds file offsets: data cannot move */
	put_le32(img + ref_opt(img) + 108, 7);
	put_le16(img + ref_pe_offset(img) + 4 + 16, 112 + 7 * 8); /* eats 8 bytes of padding */
	memmove(img + ref_sec(img, 0), img + ref_sec(img, 0) - 8, 4 * 40);
	memset(img + ref_sec(img, 0) - 8, 0, 8);
	put_le32(img + ref_opt(img) + 112 + 6 * 8, 0x5000);
	put_le32(img + ref_opt(img) + 112 + 6 * 8 + 4, 0x1c);
	CHECK_EQ(pe_parse(img, len, "debug", &pe), EFI_SUCCESS);
	CHECK_EQ(pe_add_sections(img, len, "debug", s, 1, &out, &out_len), EFI_SUCCESS);
	mem_free(out);
	out = NULL;
	CHECK_EQ(pe_add_sections(img, len, "debug", s, 3, &out, &out_len), EFI_BUFFER_TOO_SMALL);
	CHECK_LOG("debug: no room for 3 more section headers before the data at 0x200, and the debug directory");
	/* AArch64 NOPs are fill (GNU ld's, in systemd-stub for arm64): taken */
	for (uint32_t off = ref_sec(img, 4); off < 0x200; off += 4)
		put_le32(img + off, 0xd503201f);
	CHECK_EQ(pe_add_sections(img, len, "nops", s, 1, &out, &out_len), EFI_SUCCESS);
	if (out) {
		check_added(img, len, out, out_len, s, 1);
		CHECK_EQ(pe_parse(out, out_len, "nops", &pe), EFI_SUCCESS);
	}
	mem_free(out);
	out = NULL;
	memset(img + ref_sec(img, 4), 0, 0x200 - ref_sec(img, 4));
	/* the room must be unused */
	img[ref_sec(img, 4) + 5] = 0x11;
	CHECK_EQ(pe_add_sections(img, len, "busy", s, 1, &out, &out_len), EFI_BUFFER_TOO_SMALL);
	CHECK_LOG("busy: no room for 1 more section headers: header bytes at");
	CHECK(out == NULL);
	free(img);
}

TEST(pe_add_sections_small_alignment)
{
	/* systemd-style SectionAlignment == FileAlignment == 512 */
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;
	uint8_t data[0x801];
	struct pe_new_section s[2];

	f.section_alignment = 0x200;
	memset(data, 0x77, sizeof(data));
	img = fake_pe_build(&f, &len);
	new_section(&s[0], ".big", data, sizeof(data));
	new_section(&s[1], ".small", data, 3);
	CHECK_EQ(pe_add_sections(img, len, "sa512", s, 2, &out, &out_len), EFI_SUCCESS);
	if (out)
		check_added(img, len, out, out_len, s, 2);
	mem_free(out);
	free(img);
}

/* Found by fuzz_uki: inputs the writer must refuse or lay out safely. */
TEST(pe_add_sections_odd_inputs)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;
	static const uint8_t data[4] = "abc";
	struct pe_new_section s[2];

	new_section(&s[0], ".a", data, 4);
	new_section(&s[1], ".b", data, 4);
	/* section data that starts inside the section table */
	img = fake_pe_build(&f, &len);
	put_le32(img + ref_sec(img, 0) + 20, 0x100);
	CHECK_EQ(pe_add_sections(img, len, "odd", s, 1, &out, &out_len), EFI_LOAD_ERROR);
	CHECK_LOG("odd: section data at 0x100 overlaps the section table");
	free(img);
	/* FileAlignment 1, SizeOfHeaders 0 and no section data: new data must
	 * still go after the grown headers */
	f.file_alignment = 1;
	for (unsigned i = 0; i < f.n_sections; i++)
		f.s[i].raw_size = 0;
	img = fake_pe_build(&f, &len);
	put_le32(img + ref_opt(img) + 60, 0); /* SizeOfHeaders 0 */
	CHECK_EQ(pe_add_sections(img, len, "fa1", s, 2, &out, &out_len), EFI_SUCCESS);
	if (out)
		check_added(img, len, out, out_len, s, 2);
	mem_free(out);
	free(img);
}
