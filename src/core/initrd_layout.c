/* Checked initrd concatenation arithmetic (initrd_layout.h). */
#include "initrd_layout.h"
#include "log.h"

EFI_STATUS initrd_layout_append(uint64_t *total, uint64_t size, const char *name, uint64_t *ret_offset)
{
	uint64_t offset;

	/* *total <= INITRD_MAX_TOTAL always holds, so the alignment cannot wrap. */
	offset = ALIGN_UP(*total, (uint64_t)INITRD_ALIGN);
	if (offset > INITRD_MAX_TOTAL || size > INITRD_MAX_TOTAL - offset)
		return log_error_status(
			EFI_BAD_BUFFER_SIZE,
			"initrd %s: %llu bytes after %llu more would pass the %llu MiB limit for all initrds", name,
			(unsigned long long)size, (unsigned long long)offset,
			(unsigned long long)(INITRD_MAX_TOTAL >> 20));
	*ret_offset = offset;
	*total = offset + size;
	return EFI_SUCCESS;
}

bool initrd_in_place(uint64_t addr, uint64_t size, uint64_t max_end)
{
	return size && addr % EFI_PAGE_SIZE == 0 && addr <= max_end && size <= max_end - addr;
}

size_t initrd_page_shift(uintptr_t base, uint64_t file_offset)
{
	return (size_t)((EFI_PAGE_SIZE - (base + file_offset) % EFI_PAGE_SIZE) % EFI_PAGE_SIZE);
}
