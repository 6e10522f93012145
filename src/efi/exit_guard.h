/* A kernel's EFI entry called so that its Exit() comes back to the loader
 * (docs/design.md "When the kernel's stub gives up"). Takes the boot services
 * table as a parameter so host tests can run it against a fake firmware. */
#ifndef EFI_EXIT_GUARD_H
#define EFI_EXIT_GUARD_H

#include "core/platform.h"
#include <efi/efi.h>

struct exit_guard {
	EFI_SYSTEM_TABLE *st;
	EFI_BOOT_SERVICES *bs;
	EFI_HANDLE handle;       /* the image handle the entry was given */
	EFI_EXIT exit;           /* the Exit() it stands in for */
	EFI_EXIT_BOOT_SERVICES exit_boot_services; /* and the ExitBootServices() it watches */
	bool exit_boot_called;   /* the entry called ExitBootServices: no way back */
	EFI_STATUS status;       /* what the entry gave to Exit() */
	UINTN data_size;         /* and its ExitData (§7.4.5), the caller's to free */
	CHAR16 *data;
	void *jmp[10];           /* registers for the way back (exit_guard.c) */
};

typedef void (*exit_guard_fn)(void *ctx);

/**
 * exit_guard_call() - @fn(@ctx) with @st's Exit() hooked, as StartImage()
 * would have it (UEFI 2.10 §7.4.5 Exit: control returns to StartImage's
 * caller): an Exit(@handle, ...) inside comes back here; Exit() of another
 * handle goes on to the firmware. ExitBootServices() is watched too: once
 * @fn has called it, successfully or not, the firmware may be half shut down
 * (§7.4.6) and any Exit() or a return resets the machine with the reason
 * (exit_boot_dead_end()) instead of coming back. Where the table's
 * HeaderSize is beyond belief (the CRC32 reads that many bytes) @fn runs
 * unguarded.
 * Return: true if @fn gave up through Exit() (@g->status, @g->data), false if
 * it returned.
 */
bool exit_guard_call(struct exit_guard *g, EFI_SYSTEM_TABLE *st, EFI_HANDLE handle, exit_guard_fn fn, void *ctx);

/**
 * exit_guard_exit_boot_called() - whether the entry exit_guard_call() runs
 * now has called ExitBootServices (then no boot service may be used).
 */
bool exit_guard_exit_boot_called(void);

/**
 * exit_guard_report() - the error for an entry that gave up: its status and
 * ExitData's text, logged against @what; ExitData freed.
 */
EFI_STATUS exit_guard_report(struct exit_guard *g, const char *what);

/** bs_table_hookable() - whether @bs may be changed: its CRC32 covers HeaderSize bytes. */
bool bs_table_hookable(const EFI_BOOT_SERVICES *bs);

/** bs_table_crc_update() - the table's CRC32 again, after a change (UEFI 2.10 §4.2). */
void bs_table_crc_update(EFI_BOOT_SERVICES *bs);

#endif
