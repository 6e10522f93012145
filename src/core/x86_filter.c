/* The branch filter of the packed loaders (x86_filter.h). A site is an E8
 * (CALL rel32, Intel SDM vol. 2A "CALL"), an E9 (JMP rel32, "JMP"), a 0F 80
 * to 0F 8F (Jcc rel32, "Jcc") or a REX.W prefix 48/4C before 8B/8D
 * (MOV/LEA) with ModRM mod 00, r/m 101, which in 64-bit mode is [RIP+disp32]
 * (SDM vol. 2A §2.2.1.6). After a site the scan goes on past its operand,
 * whether it was rewritten or not, so a rewrite never touches bytes that
 * another decision read: the opcode bytes stay as they are, and whether an
 * operand is in range is the same before and after (the range maps onto
 * itself), so encoding and decoding take the same sites. */
#include "x86_filter.h"

#define WINDOW (1u << 25) /* displacements in [-16 MiB, 16 MiB): any inside a packed image (PACK_IMAGE_MAX) */

static void filter(uint8_t *p, size_t len, bool decode)
{
	size_t i = 0;

	while (i < len) {
		size_t op;
		uint32_t v, at;

		if (p[i] == 0xe8 || p[i] == 0xe9)
			op = i + 1;
		else if (p[i] == 0x0f && len - i >= 2 && (p[i + 1] & 0xf0) == 0x80)
			op = i + 2;
		else if (len - i >= 7 && (p[i] == 0x48 || p[i] == 0x4c) && (p[i + 1] == 0x8b || p[i + 1] == 0x8d) &&
			 (p[i + 2] & 0xc7) == 0x05)
			op = i + 3;
		else {
			i++;
			continue;
		}
		if (len - op < 4)
			return; /* a site in the last bytes: no site can follow */
		v = get_le32(p + op) + WINDOW / 2; /* in range: v < WINDOW */
		at = (uint32_t)(op + 4);           /* where the displacement counts from */
		if (v < WINDOW)
			put_le32(p + op, ((decode ? v - at : v + at) & (WINDOW - 1)) - WINDOW / 2);
		i = op + 4;
	}
}

void x86_filter_encode(uint8_t *buf, size_t len)
{
	filter(buf, len, false);
}

void x86_filter_decode(uint8_t *buf, size_t len)
{
	filter(buf, len, true);
}
