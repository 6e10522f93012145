/* The packed AArch64 loader's branch filter (src/core/aa64_filter.c): words
 * assembled by llvm-mc (their encodings in the comments), the ones it must
 * rewrite and those it must leave; then round trips over the real AArch64
 * loader image and over noise, where most "sites" are false ones. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/aa64_filter.h"
#include "core/platform.h"
#include <stdlib.h>

#define AA64_IMAGE "build/efiaa64/handoffaa64-image.efi"

TEST(aa64_filter_rewrites_bl_and_adrp)
{
	size_t len = 0x300f;
	uint8_t *buf = calloc(1, len), *want = malloc(len);

	put_le32(buf + 0x10, 0x94000100);   /* bl #1024: target 0x410, word 0x104 */
	put_le32(buf + 0x20, 0x97fffff8);   /* bl #-32: target 0, word 0 (the field wraps) */
	memcpy(buf + 0x41, "\x00\x01\x00\x94", 4); /* a BL's bytes off the word grid: left */
	put_le32(buf + 0x2ffc, 0xd0000001); /* adrp x1, #8192 in page 2: page 4 */
	put_le32(buf + 0x3000, 0xf0fffffe); /* adrp x30, #-4096 in page 3: page 2 */
	put_le32(buf + 0x3004, 0x10000082); /* adr x2, #16: not ADRP, left */
	put_le32(buf + 0x3008, 0x14000010); /* b #64: not BL, left */
	memcpy(buf + 0x300c, "\x00\x01\x00", 3); /* a word cut short by the end: left */
	memcpy(want, buf, len);
	put_le32(want + 0x10, 0x94000104);
	put_le32(want + 0x20, 0x94000000);
	put_le32(want + 0x2ffc, 0x90000021); /* imm21 4: immhi 1, immlo 0, Rd x1 */
	put_le32(want + 0x3000, 0xd000001e); /* imm21 2: immhi 0, immlo 2, Rd x30 */

	aa64_filter_encode(buf, len);
	CHECK_MEM(buf, want, len);
	aa64_filter_decode(buf, len);
	put_le32(want + 0x10, 0x94000100);
	put_le32(want + 0x20, 0x97fffff8);
	put_le32(want + 0x2ffc, 0xd0000001);
	put_le32(want + 0x3000, 0xf0fffffe);
	CHECK_MEM(buf, want, len);
	free(buf);
	free(want);
}

static void round_trip(const char *what, const uint8_t *src, size_t len)
{
	fixture_filter_round_trip(what, src, len, aa64_filter_encode, aa64_filter_decode);
}

TEST(aa64_filter_round_trips)
{
	size_t big = 200001, len;
	uint8_t *noise = malloc(big), *sites = malloc(big);
	uint8_t *image = fixture_read("HANDOFF_TEST_LOADERAA64_IMAGE", AA64_IMAGE, &len);

	srand(12);
	for (size_t i = 0; i < big; i++) {
		noise[i] = (uint8_t)rand();
		/* every other word a BL or an ADRP, with any field */
		sites[i] = (uint8_t)(i % 8 == 3 ? 0x94 : i % 8 == 7 ? 0x90 | (rand() & 0x60) : rand());
	}
	round_trip("empty", noise, 0);
	round_trip("noise", noise, big);
	round_trip("sites", sites, big);
	if (image)
		round_trip(AA64_IMAGE, image, len);
	free(noise);
	free(sites);
	free(image);
}
