/* libFuzzer: the packed loaders' branch filter (src/core/x86_filter.c). Any
 * bytes: encoding then decoding gives them back, and so does decoding then
 * encoding; and the encoding agrees with a reference written here from
 * docs/image-formats.md, which finds the sites on the unchanged input and
 * writes the result to a separate buffer. */
#include "core/x86_filter.h"
#include <stdlib.h>

static void reference_encode(const uint8_t *in, size_t len, uint8_t *out)
{
	memcpy(out, in, len);
	for (size_t i = 0; i < len;) {
		bool call = in[i] == 0xe8 || in[i] == 0xe9; /* CALL, JMP rel32 */
		bool jcc = i + 2 <= len && in[i] == 0x0f && in[i + 1] >= 0x80 && in[i + 1] <= 0x8f;
		bool rip = i + 7 <= len && (in[i] & 0xfb) == 0x48 && (in[i + 1] == 0x8b || in[i + 1] == 0x8d) &&
			   (in[i + 2] >> 6) == 0 && (in[i + 2] & 7) == 5;
		size_t op = i + (call ? 1 : jcc ? 2 : 3);
		int64_t disp, target;

		if (!call && !jcc && !rip) {
			i++;
			continue;
		}
		if (op + 4 > len)
			break;
		disp = (int32_t)get_le32(in + op);
		if (disp >= -(1 << 24) && disp < (1 << 24)) {
			target = (disp + (int64_t)op + 4) & ((1 << 25) - 1); /* the RVA modulo 32 MiB */
			put_le32(out + op, (uint32_t)(target >= (1 << 24) ? target - (1 << 25) : target));
		}
		i = op + 4;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *p = malloc(size ? size : 1), *ref = malloc(size ? size : 1);

	if (!p || !ref)
		abort();
	memcpy(p, data, size);
	x86_filter_encode(p, size);
	reference_encode(data, size, ref);
	if (memcmp(p, ref, size) != 0)
		abort();
	x86_filter_decode(p, size);
	if (memcmp(p, data, size) != 0)
		abort();
	x86_filter_decode(p, size);
	x86_filter_encode(p, size);
	if (memcmp(p, data, size) != 0)
		abort();
	free(p);
	free(ref);
	return 0;
}
