/* The move's identity map (src/core/idmap.c): every address below the top
 * translates to itself through 4 or 5 levels with 2 MiB pages, present,
 * writable, supervisor, executable; nothing at or above the top; no write
 * past IDMAP_PAGES(). Page-table entries are host addresses here, so a walk
 * reads them as the CPU would. */
#include "test.h"
#include "core/idmap.h"
#include <stdlib.h>

#define GIB 0x40000000ull
#define ADDR_MASK 0x000ffffffffff000ull
#define FILL 0xa5a5a5a5a5a5a5a5ull

/* The CPU's walk (Intel SDM Vol. 3A §4.5): -1 when not present. */
static int64_t translate(uint64_t cr3, int levels, uint64_t va, uint64_t *ret_flags)
{
	uint64_t table = cr3;

	for (int level = levels; level >= 2; level--) {
		uint64_t e = ((const uint64_t *)(uintptr_t)table)[(va >> (12 + 9 * (level - 1))) & 511];

		if (!(e & 1))
			return -1;
		if (level == 2) {
			CHECK(e & 0x80);
			*ret_flags = e & ~(ADDR_MASK & ~0x1fffffull);
			return (int64_t)((e & ADDR_MASK & ~0x1fffffull) | (va & 0x1fffff));
		}
		CHECK_EQ(e & ~ADDR_MASK, 0x3); /* P, R/W; not U/S, no XD, not a page */
		table = e & ADDR_MASK;
	}
	return -1;
}

static void check_map(uint64_t top, int levels, size_t want_pages)
{
	size_t n = IDMAP_PAGES(top);
	uint64_t *pt = aligned_alloc(4096, n * 4096), cr3, flags = 0;
	size_t used;

	for (size_t i = 0; i < n * 512; i++)
		pt[i] = FILL;
	cr3 = idmap_build(pt, (uintptr_t)pt, top, levels);
	used = (cr3 - (uintptr_t)pt) / 4096 + 1; /* the top level is the last page written */
	CHECK_EQ(used, want_pages);
	CHECK(used <= n);
	for (size_t i = used * 512; i < n * 512; i++)
		if (pt[i] != FILL) {
			CHECK_EQ(pt[i], FILL);
			break;
		}
	const uint64_t probes[] = { 0, 0x1fffff, 0x200000, 0x100000, 0xfffff000, GIB - 1, GIB, top / 2 + 0x1234,
				    top - 1 };
	for (size_t i = 0; i < ARRAY_SIZE(probes); i++) {
		CHECK_EQ(translate(cr3, levels, probes[i], &flags), probes[i]);
		CHECK_EQ(flags, 0x83); /* P, R/W, PS; U/S, PWT, PCD, XD clear */
	}
	CHECK_EQ(translate(cr3, levels, top, &flags), -1);
	CHECK_EQ(translate(cr3, levels, top + 0x12345678, &flags), -1);
	free(pt);
}

TEST(idmap_four_levels)
{
	check_map(4 * GIB, 4, 4 + 1 + 1);        /* 4 PD, a PDPT, the PML4 */
	check_map(5 * GIB, 4, 5 + 1 + 1);
	check_map(513 * GIB, 4, 513 + 2 + 1);    /* the 513th GiB in a second PDPT page */
}

TEST(idmap_five_levels)
{
	check_map(4 * GIB, 5, 4 + 1 + 1 + 1);    /* and a PML5 */
	check_map(513 * GIB, 5, 513 + 2 + 1 + 1);
}

TEST(idmap_pages_bound_every_top)
{
	/* IDMAP_PAGES() against the exact count, up to 2^47 */
	for (uint64_t top = GIB; top <= 1ull << 47; top = top < 2048 * GIB ? top + GIB : top * 2) {
		uint64_t pd = top / GIB, pdpt = (pd + 511) / 512;

		CHECK(pd + pdpt + 1 + 1 <= IDMAP_PAGES(top));
		if (pd + pdpt + 2 > IDMAP_PAGES(top))
			break;
	}
}
