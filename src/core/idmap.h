/* The identity map the x86-64 loader switches to before it moves a kernel
 * that is not relocatable after ExitBootServices (docs/design.md "Kernels
 * that are not relocatable"): its own page tables, so the move may overwrite
 * the firmware's. 4- or 5-level paging (Intel SDM Vol. 3A §4.5) with 2 MiB
 * pages, present and writable, from 0 to a top; one block of pages, the top
 * level last. */
#ifndef CORE_IDMAP_H
#define CORE_IDMAP_H

#include "platform.h"

/* Pages for [0, @top), @top a multiple of 1 GiB and at most 2^47, any
 * number of levels: a PD page per GiB, a PDPT page per 512 GiB, a PML4 and
 * a PML5 page (and one to spare: a partly used PDPT page). */
#define IDMAP_PAGES(top) (((top) >> 30) + ((top) >> 39) + 3)

/**
 * idmap_build() - write the identity map of [0, @top) with @levels levels (4,
 * or 5 under CR4.LA57) into @pt, IDMAP_PAGES(@top) pages at physical address
 * @pt_addr. Entries past @top are not present.
 * Return: the physical address of its top level (for CR3).
 */
uint64_t idmap_build(uint64_t *pt, uint64_t pt_addr, uint64_t top, int levels);

#endif
