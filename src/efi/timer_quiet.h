/* The firmware's timer tick, stopped while a 64-bit kernel's EFI stub runs on
 * 32-bit firmware (docs/design.md "Mixed mode and the firmware tick"). Takes
 * the boot services table as a parameter so host tests can run it against a
 * fake firmware. */
#ifndef EFI_TIMER_QUIET_H
#define EFI_TIMER_QUIET_H

#include "core/platform.h"
#include <efi/efi.h>
#include <efi/proto/timer_arch.h>

struct timer_quiet {
	EFI_BOOT_SERVICES *bs;
	EFI_TIMER_ARCH_PROTOCOL *timer;  /* NULL: nothing was changed */
	UINT64 period;                   /* the tick to restore, 100 ns units */
	EFI_EXIT exit;                   /* the firmware's Exit() */
};

/**
 * timer_quiet_begin() - stop the firmware's periodic tick (PI 1.7 Vol. 2
 * §12.10 SetTimerPeriod(0)) and hook @bs->Exit so that the tick comes back
 * if the kernel's stub gives up by Exit(). Does nothing where the firmware
 * has no Timer Architectural Protocol or its tick is already stopped.
 */
void timer_quiet_begin(EFI_BOOT_SERVICES *bs, struct timer_quiet *q);

/**
 * timer_quiet_end() - the tick and Exit() as they were; for when the kernel's
 * entry returns. Idempotent.
 */
void timer_quiet_end(struct timer_quiet *q);

#endif
