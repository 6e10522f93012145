/* pe_trim_headers() (src/core/pe_trim.c): what mkpack --trim does to the
 * packed loaders. Synthetic PE files (pe_fixtures.c) with headers bigger than
 * they need: trimmed to the MS-DOS header, the PE headers and FileAlignment,
 * the sections moved down and the same in memory; files with no room to win
 * come back as they were; what would leave a file offset behind is refused. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/pe_write.h"
#include "core/platform.h"
#include <stdlib.h>

TEST(pe_trim_headers_gives_back_the_spare_room)
{
	struct fake_pe f = fake_pe_default(); /* e_lfanew 0x80, SizeOfHeaders 0x400, 4 sections */
	size_t len, out_len, size, out_size;
	uint8_t *img, *out = NULL, *mem, *out_mem, want[0x200];
	uint32_t opt_len = 112 + 8 * 16, head_len = 4 + 20 + opt_len + 4 * 40;
	struct pe_info pe;

	img = fake_pe_build(&f, &len);
	put_le32(img + ref_opt(img) + 64, ref_checksum(img, len)); /* a CheckSum: recomputed */
	CHECK_EQ(pe_trim_headers(img, len, "loader", &out, &out_len), EFI_SUCCESS);
	CHECK_EQ(out_len, len - 0x200);
	CHECK_EQ(ref_pe_offset(out), 0x40);
	CHECK_MEM(out, img, 0x3c);                       /* the MS-DOS header */
	/* the PE headers as they were, but SizeOfHeaders (0x40 + 0x1e8, rounded), CheckSum and
	 * PointerToRawData, 0x200 less */
	memcpy(want, img + 0x80, head_len);
	put_le32(want + 24 + 60, 0x200);
	put_le32(want + 24 + 64, ref_checksum(out, out_len));
	for (unsigned i = 0; i < 4; i++)
		put_le32(want + 24 + opt_len + 40 * i + 20, get_le32(img + ref_sec(img, i) + 20) - 0x200);
	CHECK_MEM(out + 0x40, want, head_len);
	CHECK_MEM(out + 0x200, img + 0x400, len - 0x400); /* the sections' bytes */
	for (size_t i = 0x40 + head_len; i < 0x200; i++)
		CHECK_EQ(out[i], 0);
	CHECK_EQ(pe_parse(out, out_len, "trimmed", &pe), EFI_SUCCESS);
	CHECK_EQ(pe.size_of_headers, 0x200);
	mem = fake_pe_load(img, len, &size);
	out_mem = fake_pe_load(out, out_len, &out_size);
	CHECK_EQ(out_size, size);
	CHECK_MEM(out_mem + 0x1000, mem + 0x1000, size - 0x1000); /* in memory, the same but the headers */
	free(mem);
	free(out_mem);
	free(out);
	free(img);
}

TEST(pe_trim_headers_leaves_headers_that_need_their_room)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;

	/* five sections: 0x40 + 0x108 + 5 * 40 = 0x210, over 0x200: SizeOfHeaders stays 0x400 */
	f.n_sections = 5;
	f.s[4] = (struct fake_pe_section){ ".sbat", 0x8c, 0x200, 0x40000040 };
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_trim_headers(img, len, "loader", &out, &out_len), EFI_SUCCESS);
	CHECK_EQ(out_len, len);
	CHECK_MEM(out, img, len);
	free(out);
	free(img);
}

TEST(pe_trim_headers_refuses_what_it_cannot_move)
{
	struct fake_pe f = fake_pe_default();
	size_t len, out_len;
	uint8_t *img, *out = NULL;

	f.cert_size = 0x80; /* a signed file: its certificate table is a file offset */
	img = fake_pe_build(&f, &len);
	CHECK_EQ(pe_trim_headers(img, len, "signed", &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("signed: a certificate table");
	free(img);
	f.cert_size = 0;
	img = fake_pe_build(&f, &len);
	img[0x3ff] = 1; /* something after the section table */
	CHECK_EQ(pe_trim_headers(img, len, "stuffed", &out, &out_len), EFI_UNSUPPORTED);
	CHECK_LOG("stuffed: byte 0x3ff after the section table is not 0");
	img[0x3ff] = 0;
	put_le32(img + ref_pe_offset(img) + 4 + 8, 0x1000); /* a COFF symbol table */
	CHECK_EQ(pe_trim_headers(img, len, "symbols", &out, &out_len), EFI_UNSUPPORTED);
	free(img);
}
