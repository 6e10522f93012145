/* A 64-bit kernel entered from 32-bit firmware runs its EFI stub in long mode
 * with interrupts off: the firmware's interrupt table is 32-bit, so only its
 * thunked firmware calls run with them on. The stub decompresses the kernel
 * there (seconds under emulation), and a tick that arrives meanwhile stays
 * pending until the next call. An emulator pays for a pending, masked
 * interrupt on every exit from its translated code: under QEMU's TCG the
 * decompression of Debian's 6.1 took 0.4 s longer (docs/design.md "Mixed mode
 * and the firmware tick"). Nothing in the stub waits on a timer event (Stall
 * is a busy wait), so the tick is stopped for the kernel's entry and restored
 * if control comes back to the firmware: by a return, or by the Exit() of the
 * stub's error path, hooked for that time (a changed table gets its CRC32
 * again: UEFI 2.10 §4.2). */
#include "timer_quiet.h"
#include "exit_guard.h"

static EFI_GUID timer_guid = EFI_TIMER_ARCH_PROTOCOL_GUID;
static struct timer_quiet *hooked; /* Exit() has no context pointer */

static EFI_STATUS EFIAPI exit_hook(EFI_HANDLE image, EFI_STATUS status, UINTN data_size, CHAR16 *data)
{
	struct timer_quiet *q = hooked;

	timer_quiet_end(q);
	return q->bs->Exit(image, status, data_size, data);
}

void timer_quiet_begin(EFI_BOOT_SERVICES *bs, struct timer_quiet *q)
{
	EFI_TIMER_ARCH_PROTOCOL *t = NULL;

	*q = (struct timer_quiet){ .bs = bs };
	/* the CRC32 covers HeaderSize bytes: only a believable table is changed */
	if (hooked || !bs_table_hookable(bs))
		return;
	if (bs->LocateProtocol(&timer_guid, NULL, (void **)&t) != EFI_SUCCESS || !t)
		return;
	if (t->GetTimerPeriod(t, &q->period) != EFI_SUCCESS || q->period == 0)
		return;
	if (t->SetTimerPeriod(t, 0) != EFI_SUCCESS)
		return;
	q->timer = t;
	q->exit = bs->Exit;
	hooked = q;
	bs->Exit = exit_hook;
	bs_table_crc_update(bs);
}

void timer_quiet_end(struct timer_quiet *q)
{
	if (!q->timer)
		return;
	q->bs->Exit = q->exit;
	bs_table_crc_update(q->bs);
	hooked = NULL;
	/* after ExitBootServices the timer is not the firmware's to run (UEFI 2.10 §7.4.6) */
	if (!exit_guard_exit_boot_called())
		q->timer->SetTimerPeriod(q->timer, q->period);
	q->timer = NULL;
}
