/* Memory: pool allocations for core (mem_alloc) and aligned page ranges for
 * kernels and initrds. Failure is a status, never an assert (docs/style.md rule 7). */
#include "firmware.h"

void *mem_alloc(size_t size)
{
	void *p = NULL;

	if (BS->AllocatePool(EfiLoaderData, size ? size : 1, &p) != EFI_SUCCESS)
		return NULL;
	return p;
}

/* Not inlined: LTO put this test and firmware call in each of some 200
 * callers (1.7 KB of x86-64 code, 208 bytes packed). */
__attribute__((noinline)) void mem_free(void *p)
{
	if (p)
		BS->FreePool(p);
}

/* Sizes reach here from headers and files: a size whose rounding to pages
 * (plus an alignment's slack) would wrap is refused, not truncated. On IA-32
 * nothing past the 4 GiB address space fits, and the page count must fit
 * its 32-bit UINTN. */
#define PAGES_MAX_BYTES MIN(1ull << 52, (uint64_t)SIZE_MAX)

EFI_STATUS pages_alloc_at(uint64_t addr, uint64_t size)
{
	EFI_PHYSICAL_ADDRESS a = addr;

	if (size > PAGES_MAX_BYTES || addr > UINT64_MAX - PAGES_MAX_BYTES)
		return EFI_OUT_OF_RESOURCES;

	return BS->AllocatePages(AllocateAddress, EfiLoaderData, EFI_SIZE_TO_PAGES(size), &a);
}

void pages_free(uint64_t addr, uint64_t size)
{
	if (addr && size)
		BS->FreePages(addr, EFI_SIZE_TO_PAGES(size));
}

/* Over-allocate by the alignment below @max_end, then give back the
 * unaligned head and the unused tail (as libstub's efi_allocate_pages_aligned). */
EFI_STATUS pages_alloc(uint64_t size, uint64_t align, uint64_t max_end, uint64_t *ret_addr)
{
	uint64_t pages, extra, addr, aligned;
	EFI_PHYSICAL_ADDRESS a;
	EFI_STATUS err;

	if (align < EFI_PAGE_SIZE)
		align = EFI_PAGE_SIZE;
	if (size > PAGES_MAX_BYTES || align > PAGES_MAX_BYTES || !IS_POWER_OF_2(align))
		return EFI_OUT_OF_RESOURCES;
	size = ALIGN_UP(size, (uint64_t)EFI_PAGE_SIZE);
	extra = align - EFI_PAGE_SIZE;
	pages = EFI_SIZE_TO_PAGES(size + extra);
	a = max_end == UINT64_MAX ? UINT64_MAX : max_end - 1;
	err = BS->AllocatePages(max_end == UINT64_MAX ? AllocateAnyPages : AllocateMaxAddress,
				EfiLoaderData, pages, &a);
	if (EFI_ERROR(err))
		return err;
	addr = a;
	aligned = ALIGN_UP(addr, align);
	if (aligned > addr)
		BS->FreePages(addr, EFI_SIZE_TO_PAGES(aligned - addr));
	if (addr + pages * EFI_PAGE_SIZE > aligned + size)
		BS->FreePages(aligned + size, EFI_SIZE_TO_PAGES(addr + pages * EFI_PAGE_SIZE - aligned - size));
	*ret_addr = aligned;
	return EFI_SUCCESS;
}
