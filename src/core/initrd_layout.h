/* Where each of several initrds goes in the one buffer the kernel gets
 * (boot.rst "initrd": concatenated cpio archives, each 4-byte aligned). The
 * sizes come from disk or from another loader, so every sum is checked and
 * the total is capped before any buffer is sized from it. */
#ifndef CORE_INITRD_LAYOUT_H
#define CORE_INITRD_LAYOUT_H

#include "platform.h"
#include <efi/efi.h>

#define INITRD_ALIGN 4u
/* Far above any real initrd, far below what wraps: every buffer size and
 * offset derived from a total fits in 33 bits. */
#define INITRD_MAX_TOTAL (4ull << 30)

/**
 * initrd_layout_append() - place a file of @size bytes after the *@total
 * bytes already laid out: at the next 4-byte boundary, zeros in between.
 * @name: the file, for the message.
 * Return: EFI_SUCCESS with *@ret_offset set and *@total advanced, or
 * EFI_BAD_BUFFER_SIZE (logged; *@total unchanged) when the initrds would
 * pass INITRD_MAX_TOTAL.
 */
EFI_STATUS initrd_layout_append(uint64_t *total, uint64_t size, const char *name, uint64_t *ret_offset);

/**
 * initrd_in_place() - can the kernel take an initrd of @size bytes where it
 * already is, at @addr, as its ramdisk_image (boot.rst "initrd"): one piece,
 * page-aligned (Linux frees it page by page after boot, free_init_pages()
 * warning on an unaligned start), ending at or below @max_end.
 */
bool initrd_in_place(uint64_t addr, uint64_t size, uint64_t max_end);

/**
 * initrd_page_shift() - how far past @base to read a file so that the byte at
 * @file_offset of it lands on a page boundary (< EFI_PAGE_SIZE).
 */
size_t initrd_page_shift(uintptr_t base, uint64_t file_offset);

#endif
