/* The packed loaders' branch filter (src/core/x86_filter.c): bytes written
 * here from its description (docs/image-formats.md "Packed loaders"), with the
 * operands it must rewrite and those it must leave; then round trips over the
 * real loader images and over noise, where most "sites" are false ones. */
#include "test.h"
#include "pe_fixtures.h"
#include "core/x86_filter.h"
#include "core/platform.h"
#include <stdlib.h>

TEST(x86_filter_rewrites_calls_and_rip_relative_operands)
{
	uint8_t buf[64] = { 0 }, want[64];

	buf[0x10] = 0xe8; /* call +0x100: target 0x15 + 0x100 */
	put_le32(buf + 0x11, 0x100);
	buf[0x18] = 0x48; /* lea rax, [rip - 0x20]: target 0x1f - 0x20 = -1, 32 MiB - 1 modulo 32 MiB */
	buf[0x19] = 0x8d;
	buf[0x1a] = 0x05;
	put_le32(buf + 0x1b, (uint32_t)-0x20);
	buf[0x20] = 0x4c; /* mov r15, [rip + 0x40]: ModRM 0x3d (r15, mod 00, r/m 101) */
	buf[0x21] = 0x8b;
	buf[0x22] = 0x3d;
	put_le32(buf + 0x23, 0x40);
	buf[0x28] = 0x48; /* lea rax, [rax + disp32]: mod 10, not RIP-relative: left */
	buf[0x29] = 0x8d;
	buf[0x2a] = 0x80;
	put_le32(buf + 0x2b, 0x40);
	buf[0x30] = 0xe8; /* E8 with a displacement out of range; its operand holds an E8, skipped with it */
	put_le32(buf + 0x31, 0x02e80000);
	buf[0x3c] = 0xe8; /* E8 in the last four bytes: no operand */
	memcpy(want, buf, sizeof(buf));
	put_le32(want + 0x11, 0x115);
	put_le32(want + 0x1b, (uint32_t)-1);
	put_le32(want + 0x23, 0x27 + 0x40);

	x86_filter_encode(buf, sizeof(buf));
	CHECK_MEM(buf, want, sizeof(buf));
	x86_filter_decode(buf, sizeof(buf));
	put_le32(want + 0x11, 0x100);
	put_le32(want + 0x1b, (uint32_t)-0x20);
	put_le32(want + 0x23, 0x40);
	CHECK_MEM(buf, want, sizeof(buf));
}

/* Format 7: JMP rel32 (E9) and Jcc rel32 (0F 80..8F), not Jcc rel8 (7x) nor
 * 0F 90 (SETcc). */
TEST(x86_filter_rewrites_jumps)
{
	uint8_t buf[32] = { 0 }, want[32];

	buf[0x00] = 0xe9; /* jmp -0x10: target 5 - 0x10 */
	put_le32(buf + 0x01, (uint32_t)-0x10);
	buf[0x05] = 0x0f; /* je +0x10: target 0xb + 0x10 */
	buf[0x06] = 0x84;
	put_le32(buf + 0x07, 0x10);
	buf[0x0b] = 0x0f; /* jg -1: target 0x11 - 1 */
	buf[0x0c] = 0x8f;
	put_le32(buf + 0x0d, (uint32_t)-1);
	buf[0x11] = 0x0f; /* setcc: left */
	buf[0x12] = 0x90;
	put_le32(buf + 0x13, 0x10);
	buf[0x17] = 0x74; /* je rel8: left */
	buf[0x18] = 0x10;
	buf[0x1e] = 0x0f; /* 0F 80 with no operand before the end */
	buf[0x1f] = 0x80;
	memcpy(want, buf, sizeof(buf));
	put_le32(want + 0x01, (uint32_t)(5 - 0x10));
	put_le32(want + 0x07, 0x1b);
	put_le32(want + 0x0d, 0x10);

	x86_filter_encode(buf, sizeof(buf));
	CHECK_MEM(buf, want, sizeof(buf));
	x86_filter_decode(buf, sizeof(buf));
	put_le32(want + 0x01, (uint32_t)-0x10);
	put_le32(want + 0x07, 0x10);
	put_le32(want + 0x0d, (uint32_t)-1);
	CHECK_MEM(buf, want, sizeof(buf));
}

/* The window is 32 MiB wide: -16 MiB is in, +16 MiB is not. */
TEST(x86_filter_window_edges)
{
	uint8_t buf[5] = { 0xe8 };

	put_le32(buf + 1, (uint32_t)-(1 << 24));
	x86_filter_encode(buf, 5);
	CHECK_EQ(get_le32(buf + 1), (uint32_t)-(1 << 24) + 5);
	put_le32(buf + 1, 1u << 24);
	x86_filter_encode(buf, 5);
	CHECK_EQ(get_le32(buf + 1), 1u << 24);
	put_le32(buf + 1, (1u << 24) - 1); /* target 16 MiB + 4 wraps to -16 MiB + 4 */
	x86_filter_encode(buf, 5);
	CHECK_EQ(get_le32(buf + 1), (uint32_t)-(1 << 24) + 4);
	x86_filter_decode(buf, 5);
	CHECK_EQ(get_le32(buf + 1), (1u << 24) - 1);
}

static void round_trip(const char *what, const uint8_t *src, size_t len)
{
	fixture_filter_round_trip(what, src, len, x86_filter_encode, x86_filter_decode);
}

TEST(x86_filter_round_trips)
{
	size_t big = 200000;
	uint8_t *noise = malloc(big), *sites = malloc(big);

	srand(11);
	for (size_t i = 0; i < big; i++) {
		noise[i] = (uint8_t)rand();
		/* sites dense enough to overlap, displacements often in the window */
		sites[i] = (uint8_t)(rand() % 3 == 0 ? 0xe8 : rand() % 5 == 0 ? 0xff : rand() % 4);
	}
	round_trip("empty", noise, 0);
	round_trip("noise", noise, big);
	round_trip("overlapping sites", sites, big);
	fixture_each_loader(round_trip);
	free(noise);
	free(sites);
}
