/* wrap_bzimage(): the output must be a valid bzImage (setup header and kernel
 * bytes unchanged) and a valid PE32+ EFI application running the stub (its
 * sections, RVAs and relocations unchanged), and wrap_find() must give back
 * the bzImage from the file and from a loaded image. */
#include "test.h"
#include "fake_image.h"
#include "pe_fixtures.h"
#include "core/pe_write.h"
#include "core/uki.h"
#include "core/wrap.h"
#include <stdlib.h>

/* Both views of @out, against the inputs. */
static void check_wrapped(const uint8_t *stub, size_t stub_len, const uint8_t *k, size_t k_len, const uint8_t *out,
			  size_t out_len)
{
	struct pe_info sp, wp;
	struct bz_info kb, wb;
	struct wrap_view v;
	size_t kernel_end = ((size_t)(k[0x1f1] ? k[0x1f1] : 4) + 1) * 512 + (size_t)get_le32(k + 0x1f4) * 16;
	const struct pe_section *bs;

	CHECK_EQ(pe_parse(stub, stub_len, "stub", &sp), EFI_SUCCESS);
	CHECK_EQ(bz_parse(k, k_len, "kernel", &kb), EFI_SUCCESS);
	/* the bzImage view */
	CHECK_EQ(bz_parse(out, out_len, "wrapped", &wb), EFI_SUCCESS);
	CHECK(out_len >= kernel_end);
	CHECK_MEM(out + 0x1f1, k + 0x1f1, kernel_end - 0x1f1);
	CHECK_EQ(wb.setup_size, kb.setup_size);
	CHECK_EQ(wb.version, kb.version);
	CHECK_STR(wb.kernel_version, kb.kernel_version);
	/* the PE view: headers end before the setup header */
	CHECK_EQ(pe_parse(out, out_len, "wrapped", &wp), EFI_SUCCESS);
	CHECK(pe_is_efi_app_x64(&wp));
	CHECK(ref_sec(out, wp.n_sections) <= 0x1f1);
	CHECK_EQ(wp.n_sections, sp.n_sections + 1);
	CHECK_EQ(wp.entry_point, sp.entry_point);
	CHECK_EQ(wp.image_base, sp.image_base);
	CHECK_EQ(wp.reloc_rva, sp.reloc_rva);
	CHECK_EQ(wp.reloc_size, sp.reloc_size);
	CHECK_EQ(wp.cert_size, 0);
	CHECK_EQ(wp.size_of_headers % wp.file_alignment, 0);
	for (uint32_t i = 0; i < sp.n_sections; i++) {
		const struct pe_section *a = &sp.sections[i], *b = &wp.sections[i];
		CHECK_STR(b->name, a->name);
		CHECK_EQ(b->virtual_address, a->virtual_address);
		CHECK_EQ(b->virtual_size, a->virtual_size);
		CHECK_EQ(b->characteristics, a->characteristics);
		CHECK(b->raw_size == 0 || b->raw_offset >= kernel_end);
		CHECK_EQ(b->raw_offset % wp.file_alignment, 0);
		CHECK_MEM(out + b->raw_offset, stub + a->raw_offset, a->raw_size);
	}
	bs = &wp.sections[sp.n_sections];
	CHECK_STR(bs->name, WRAP_SECTION);
	CHECK_EQ(bs->raw_offset, wp.size_of_headers);
	CHECK_EQ(bs->virtual_size, kernel_end - wp.size_of_headers);
	CHECK_EQ(bs->raw_size, ALIGN_UP(kernel_end, (size_t)wp.file_alignment) - wp.size_of_headers);
	/* no two sections share file bytes */
	for (uint32_t i = 0; i < wp.n_sections; i++)
		for (uint32_t j = i + 1; j < wp.n_sections; j++) {
			const struct pe_section *a = &wp.sections[i], *b = &wp.sections[j];
			if (a->raw_size && b->raw_size && a->raw_offset < b->raw_offset + b->raw_size &&
			    b->raw_offset < a->raw_offset + a->raw_size)
				test_fail(__FILE__, __LINE__, "sections %s and %s overlap in the file", a->name,
					  b->name);
		}
	CHECK_EQ(bs->virtual_address, ALIGN_UP(sp.size_of_image, sp.section_alignment));
	CHECK_EQ(wp.size_of_image, ALIGN_UP(bs->virtual_address + bs->raw_size, sp.section_alignment));
	CHECK_EQ(wp.checksum, ref_checksum(out, out_len));
	/* wrap_find on the file and on the loaded image */
	CHECK_EQ(wrap_find(&wp, out, out_len, PE_LAYOUT_FILE, "wrapped", &v), EFI_SUCCESS);
	CHECK_EQ(v.head_size + v.body_size, kernel_end);
	CHECK(v.head == out && v.body == out + v.head_size);
	{
		size_t size;
		uint8_t *mem = fake_pe_load(out, out_len, &size);
		struct pe_info lp;

		CHECK_EQ(pe_parse_loaded(mem, size, "loaded", &lp), EFI_SUCCESS);
		CHECK_EQ(wrap_find(&lp, mem, size, PE_LAYOUT_MEMORY, "loaded", &v), EFI_SUCCESS);
		CHECK_EQ(v.head_size + v.body_size, kernel_end);
		CHECK_MEM(v.head + 0x1f1, k + 0x1f1, v.head_size - 0x1f1);
		CHECK_MEM(v.body, k + v.head_size, v.body_size);
		free(mem);
	}
}

TEST(wrap_debian_kernel)
{
	struct fake_pe f = fake_pe_default();
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *k = fixture_kernel(&k_len), *out = NULL;

	if (!k)
		goto out;
	CHECK_EQ(wrap_bzimage(stub, stub_len, k, k_len, "vmlinuz", &out, &out_len), EFI_SUCCESS);
	if (!out)
		goto out;
	check_wrapped(stub, stub_len, k, k_len, out, out_len);
	/* Debian's MZ header is replaced and its signature (past syssize) dropped */
	CHECK(k[0] == 'M' && out[0] == 'M' && get_le32(out + 0x3c) == WRAP_PE_OFFSET);
	CHECK_EQ(get_le16(out + ref_opt(out) + 0), 0x20b);
	CHECK_EQ(get_le32(out + ref_opt(out) + 108), WRAP_MIN_DATA_DIRS);
out:
	mem_free(out);
	free(stub);
	free(k);
}

TEST(wrap_plain_bzimage_and_five_sections)
{
	struct fake_pe f = fake_pe_default();
	struct fake_bz fb = fake_bz_default();
	size_t stub_len, k_len, out_len;
	uint8_t *stub, *k, *out = NULL;

	/* 5 stub sections + .bzimage = 6, the most that fits below 0x1f1 */
	f.s[f.n_sections++] = (struct fake_pe_section){ ".pdata", 0x30, 0x200, 0x40000040 };
	f.n_dirs = 6;
	stub = fake_pe_build(&f, &stub_len);
	fb.kernel_size = 0x4010; /* not a multiple of FileAlignment */
	k = fake_bz_build(&fb, &k_len);
	CHECK_EQ(wrap_bzimage(stub, stub_len, k, k_len, "bzImage", &out, &out_len), EFI_SUCCESS);
	if (out)
		check_wrapped(stub, stub_len, k, k_len, out, out_len);
	mem_free(out);
	out = NULL;
	free(stub);

	/* one more does not fit */
	f.s[f.n_sections++] = (struct fake_pe_section){ ".extra", 0x30, 0x200, 0x40000040 };
	stub = fake_pe_build(&f, &stub_len);
	CHECK_EQ(wrap_bzimage(stub, stub_len, k, k_len, "bzImage", &out, &out_len), EFI_BUFFER_TOO_SMALL);
	CHECK_LOG("past the setup header at 0x1f1");
	CHECK(out == NULL);
	free(stub);
	free(k);
}

TEST(wrap_rejects_wrong_inputs)
{
	struct fake_pe f = fake_pe_default();
	struct fake_bz fb = fake_bz_default();
	size_t stub_len, k_len, out_len, sd_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *k, *out = NULL, *sd = fixture_stub(&sd_len);

	fb.version = 0x020a;
	k = fake_bz_build(&fb, &k_len);
	CHECK_EQ(wrap_bzimage(stub, stub_len, k, k_len, "old", &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("old: boot protocol 2.10 is too old");
	free(k);
	fb = fake_bz_default();
	k = fake_bz_build(&fb, &k_len);
	CHECK_EQ(wrap_bzimage(k, k_len, k, k_len, "k", &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("stub: not a PE/COFF image");
	/* systemd's stub has 8 sections: too many for the boot sector */
	if (sd) {
		CHECK_EQ(wrap_bzimage(sd, sd_len, k, k_len, "k", &out, &out_len), EFI_BUFFER_TOO_SMALL);
		CHECK_LOG("the stub's 8 sections");
	}
	/* syssize of 0 */
	put_le32(k + 0x1f4, 0);
	CHECK_EQ(wrap_bzimage(stub, stub_len, k, k_len, "k0", &out, &out_len), EFI_LOAD_ERROR);
	CHECK_LOG("k0: syssize 0");
	CHECK(out == NULL);
	free(sd);
	free(k);
	free(stub);
}

TEST(wrap_find_on_non_wrapped)
{
	struct fake_pe f = fake_pe_default();
	size_t len;
	uint8_t *img = fake_pe_build(&f, &len);
	struct pe_info pe;
	struct wrap_view v;

	CHECK_EQ(pe_parse(img, len, "plain", &pe), EFI_SUCCESS);
	CHECK_EQ(wrap_find(&pe, img, len, PE_LAYOUT_FILE, "plain", &v), EFI_NOT_FOUND);
	CHECK_EQ(test_log_count(), 0);
	/* a .bzimage that does not continue the headers */
	memcpy(img + ref_sec(img, 1), ".bzimage", 8);
	CHECK_EQ(pe_parse(img, len, "odd", &pe), EFI_SUCCESS);
	CHECK_EQ(wrap_find(&pe, img, len, PE_LAYOUT_FILE, "odd", &v), EFI_LOAD_ERROR);
	CHECK_LOG("odd: .bzimage starts at file offset");
	free(img);
}

/* wrap_bzimage_compat(): a .compat section after .bzimage naming the IA-32
 * entry (Linux's record: type 1, size 8, machine 0x14c, RVA; then a zero
 * record), and .bzimage stretched over init_size, since that entry runs the
 * kernel where the image was loaded. Read back with offsets written here. */
TEST(wrap_compat_entry_for_32bit_firmware)
{
	struct fake_pe f = fake_pe_default();
	struct fake_bz fb = fake_bz_default();
	size_t stub_len, k_len, out_len;
	uint8_t *stub = fake_pe_build(&f, &stub_len), *k, *out = NULL;
	const struct pe_section *bz, *cs;
	struct pe_info wp;
	struct bz_info kb;
	uint32_t raw;

	k = fake_bz_build(&fb, &k_len);
	CHECK_EQ(bz_parse(k, k_len, "k", &kb), EFI_SUCCESS);
	CHECK_EQ(wrap_bzimage_compat(stub, stub_len, k, k_len, "probe.img", 0x800, &out, &out_len), EFI_SUCCESS);
	if (!out)
		return;
	CHECK_EQ(pe_parse(out, out_len, "probe.img", &wp), EFI_SUCCESS);
	CHECK_EQ(wp.n_sections, f.n_sections + 2);
	CHECK(ref_sec(out, wp.n_sections) <= 0x1f1);
	bz = &wp.sections[f.n_sections];
	cs = &wp.sections[f.n_sections + 1];
	CHECK_STR(bz->name, ".bzimage");
	CHECK_STR(cs->name, ".compat");
	CHECK_EQ(bz->virtual_size, kb.setup_size - wp.size_of_headers + kb.init_size);
	CHECK(cs->virtual_address >= bz->virtual_address + bz->virtual_size);
	CHECK_EQ(cs->virtual_address % wp.section_alignment, 0);
	CHECK(wp.size_of_image >= cs->virtual_address + cs->virtual_size);
	raw = get_le32(out + ref_sec(out, f.n_sections + 1) + 20);
	CHECK_EQ(out[raw], 1);
	CHECK_EQ(out[raw + 1], 8);
	CHECK_EQ(get_le16(out + raw + 2), 0x14c);
	CHECK_EQ(get_le32(out + raw + 4), bz->virtual_address + kb.setup_size - wp.size_of_headers + 0x800);
	CHECK_EQ(out[raw + 8], 0);
	CHECK_EQ(wp.compat_entry_ia32, get_le32(out + raw + 4));
	/* the bzImage view is untouched */
	CHECK_MEM(out + 0x1f1, k + 0x1f1, kb.setup_size + kb.kernel_size - 0x1f1);
	CHECK_EQ(get_le32(out + ref_opt(out) + 64), ref_checksum(out, out_len));
	mem_free(out);
	out = NULL;
	/* an entry past the kernel is refused */
	CHECK_EQ(wrap_bzimage_compat(stub, stub_len, k, k_len, "probe.img", (uint32_t)kb.kernel_size, &out, &out_len),
		 EFI_INVALID_PARAMETER);
	CHECK_LOG("IA-32 entry");
	CHECK(out == NULL);
	free(stub);
	free(k);
}
