/* The move's identity map (idmap.h). Intel SDM Vol. 3A §4.5: a table is a
 * 4 KiB page of 512 entries; an entry holds the next table's address or, in
 * a PD entry with PS set, a 2 MiB page's; P and R/W on every entry; U/S,
 * PWT, PCD and XD clear: supervisor, write-back (the MTRRs still make MMIO
 * uncached), executable. */
#include "idmap.h"

#define PTE_PRESENT 0x1ull
#define PTE_WRITE 0x2ull
#define PTE_LARGE 0x80ull          /* PS: this PD entry maps a 2 MiB page */
#define PT_ENTRIES 512u
#define PT_PAGE_SIZE 4096u
#define PAGE_2M_SHIFT 21u
#define LEVEL_PD 2                 /* 1: PT, 2: PD, 3: PDPT, 4: PML4, 5: PML5 */

/* Bottom up: each level's entries point at the pages of the level below (in
 * a PD, at 2 MiB pages of memory), laid out after them. */
uint64_t idmap_build(uint64_t *pt, uint64_t pt_addr, uint64_t top, int levels)
{
	uint64_t entries = top >> PAGE_2M_SHIFT, target = 0, step = 1ull << PAGE_2M_SHIFT, flags = PTE_LARGE;
	size_t first = 0;

	for (int level = LEVEL_PD; level <= levels; level++) {
		size_t pages = (entries + PT_ENTRIES - 1) / PT_ENTRIES;
		uint64_t *t = pt + first * PT_ENTRIES;

		memset(t, 0, pages * PT_PAGE_SIZE);
		for (uint64_t i = 0; i < entries; i++)
			t[i] = (target + i * step) | flags | PTE_PRESENT | PTE_WRITE;
		target = pt_addr + first * PT_PAGE_SIZE;
		step = PT_PAGE_SIZE;
		flags = 0;
		first += pages;
		entries = pages;
	}
	return target;
}
