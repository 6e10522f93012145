/* The branch filter of the packed AArch64 loader (aa64_filter.h). Instructions
 * are 32-bit little-endian words at multiples of 4 (Arm ARM C1.1); a site is a
 * word whose opcode bits say BL (bits 31:26 100101, imm26 the offset in words:
 * Arm ARM C6.2.34) or ADRP (bit 31 1, bits 28:24 10000, imm21 = immhi 23:5 :
 * immlo 30:29 the offset in 4 KiB pages from the instruction's own page:
 * C6.2.13). The filter adds the word's own position to the field, or takes it
 * away, modulo the field's width: a bijection of the field that leaves the
 * opcode bits as they are, so encoding and decoding find the same sites, and
 * any bytes (data, false sites) come back. */
#include "aa64_filter.h"

#define BL_MASK 0xfc000000u
#define BL_OP 0x94000000u
#define ADRP_MASK 0x9f000000u
#define ADRP_OP 0x90000000u

static uint32_t rewrite(uint32_t w, uint32_t at, bool decode)
{
	uint32_t imm;

	if ((w & BL_MASK) == BL_OP) {
		imm = decode ? w - (at >> 2) : w + (at >> 2);
		return (w & BL_MASK) | (imm & ~BL_MASK);
	}
	if ((w & ADRP_MASK) != ADRP_OP)
		return w;
	imm = ((w >> 29) & 3) | ((w >> 3) & 0x1ffffc);
	imm = decode ? imm - (at >> 12) : imm + (at >> 12);
	return (w & 0x9f00001fu) | (imm & 3) << 29 | (imm & 0x1ffffc) << 3;
}

static void filter(uint8_t *p, size_t len, bool decode)
{
	for (size_t i = 0; i + 4 <= len; i += 4)
		put_le32(p + i, rewrite(get_le32(p + i), (uint32_t)i, decode));
}

void aa64_filter_encode(uint8_t *buf, size_t len)
{
	filter(buf, len, false);
}

void aa64_filter_decode(uint8_t *buf, size_t len)
{
	filter(buf, len, true);
}
