/* libFuzzer: the packed AArch64 loader's branch filter
 * (src/core/aa64_filter.c). Any bytes: encoding then decoding gives them
 * back, and so does decoding then encoding; and the encoding agrees with a
 * reference written here from docs/image-formats.md, which computes each
 * target from the instruction's signed offset (Arm ARM C6.2.34 BL, C6.2.13
 * ADRP) and writes the result to a separate buffer. */
#include "core/aa64_filter.h"
#include <stdlib.h>

static uint32_t sign_extend(uint32_t v, unsigned bits)
{
	return (uint32_t)((int32_t)(v << (32 - bits)) >> (32 - bits));
}

static void reference_encode(const uint8_t *in, size_t len, uint8_t *out)
{
	memcpy(out, in, len);
	for (size_t at = 0; at + 4 <= len; at += 4) {
		uint32_t w = get_le32(in + at), target;

		if (w >> 26 == 0x25) { /* BL: target = PC + imm26 * 4, as a word index */
			target = (uint32_t)at + sign_extend(w & 0x3ffffff, 26) * 4;
			put_le32(out + at, 0x94000000 | ((target >> 2) & 0x3ffffff));
		} else if ((w >> 31) == 1 && ((w >> 24) & 0x1f) == 0x10) {
			/* ADRP: target = (PC & ~0xfff) + imm21 * 4096, as a page number */
			uint32_t imm = ((w >> 5) & 0x7ffff) << 2 | ((w >> 29) & 3);

			target = ((uint32_t)at >> 12) + sign_extend(imm, 21);
			put_le32(out + at, (w & 0x9f00001f) | (target & 3) << 29 | ((target >> 2) & 0x7ffff) << 5);
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1), *ref = malloc(size ? size : 1);

	if (!p || !ref)
		abort();
	memcpy(p, data, size);
	aa64_filter_encode(p, size);
	reference_encode(data, size, ref);
	if (memcmp(p, ref, size) != 0)
		abort();
	aa64_filter_decode(p, size);
	if (memcmp(p, data, size) != 0)
		abort();
	aa64_filter_decode(p, size);
	aa64_filter_encode(p, size);
	if (memcmp(p, data, size) != 0)
		abort();
	free(p);
	free(ref);
	return 0;
}
