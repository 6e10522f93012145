/* ExitBootServices in one function (docs/style.md rule 8). Takes the boot services
 * table as a parameter so host tests can run it against a fake firmware. */
#ifndef EFI_EXIT_BOOT_H
#define EFI_EXIT_BOOT_H

#include "core/platform.h"
#include <efi/efi.h>

#define MEMMAP_SLACK_DESCRIPTORS 32

struct memmap_buf {
	void *buf;
	UINTN capacity;      /* bytes */
	UINTN size;          /* bytes returned by the last GetMemoryMap */
	UINTN desc_size;
	UINT32 desc_version;
	UINTN key;
};

/* Called with the final map; must neither allocate nor print. */
typedef EFI_STATUS (*exit_boot_fn)(void *ctx, const struct memmap_buf *map);

/**
 * memmap_buf_alloc() - a pool buffer big enough for the current map plus
 * MEMMAP_SLACK_DESCRIPTORS (the map grows while we allocate).
 */
EFI_STATUS memmap_buf_alloc(EFI_BOOT_SERVICES *bs, struct memmap_buf *ret);

/**
 * exit_boot_services() - get the map, let @fn use it, exit boot services;
 * on EFI_INVALID_PARAMETER (stale map key: the map changed) do it once more
 * with the same buffer. No allocation and no output after the first attempt.
 * @ret_called: set to whether ExitBootServices was called at all. After a
 * call that did not succeed the firmware may be half shut down (UEFI 2.10
 * §7.4.6): the caller may then use no boot service and never return to the
 * menu (exit_boot_dead_end()).
 * Return: EFI_SUCCESS, or the firmware's or @fn's error.
 */
EFI_STATUS exit_boot_services(EFI_BOOT_SERVICES *bs, EFI_HANDLE image, struct memmap_buf *map,
			      exit_boot_fn fn, void *ctx, bool *ret_called);

/**
 * exit_boot_dead_end() - the only way on after a call of ExitBootServices
 * that led into no kernel: a reset (a runtime service, valid after any such
 * call). Says "@why after ExitBootServices (@err): resetting" first where it
 * still can: on ConOut, unless the system table no longer has one (UEFI 2.10
 * §7.4.6: a successful call clears it). If even the reset returns, the CPU
 * halts.
 */
__attribute__((noreturn)) void exit_boot_dead_end(const EFI_SYSTEM_TABLE *st, EFI_STATUS err, const char *why);

#endif
