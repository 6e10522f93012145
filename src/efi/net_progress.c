/* Download progress (README "Network boot"): a download that takes more than
 * a second shows how far it is on the console, one line rewritten each
 * second; one that receives nothing for NET_STALL_SEC is given up, so a dead
 * server sends the user back to the menu instead of hanging. Two timer
 * events (UEFI 2.10 §7.1, SetTimer): a periodic one for the line, and a
 * deadline set again whenever bytes come. The deadline is the firmware's
 * clock, not a count of the loop's checks, so the time a firmware call spends
 * blocked counts in full: the first check after it gives up. Both are
 * checked by the download loop: no notification function, nothing printed
 * behind its back. A firmware call that never returns cannot be given up
 * that way (edk2's HTTP client loops forever on a first read that holds more
 * body than the Content-Length says), so the firmware's watchdog (UEFI 2.10
 * §7.5) runs while a download does, set again whenever bytes come: the
 * machine resets instead of hanging (README "Network boot"). */
#include "net.h"

#define SECOND_100NS 10000000u

static void watchdog(UINTN sec)
{
	BS->SetWatchdogTimer(sec, WATCHDOG_CODE, 0, NULL);
}

/* A timer event set to @type after @t (100 ns units), or NULL when the firmware has none. */
static EFI_EVENT timer(EFI_TIMER_DELAY type, uint64_t t)
{
	EFI_EVENT e;

	if (BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &e) != EFI_SUCCESS)
		return NULL; /* no progress line, or no stall limit: the firmware's own timeouts remain */
	BS->SetTimer(e, type, t);
	return e;
}

void net_progress_start(struct net_progress *p, const char *url, uint64_t total)
{
	*p = (struct net_progress){ .url = url, .total = total };
	p->timer = timer(TimerPeriodic, SECOND_100NS);
	p->deadline = timer(TimerRelative, NET_STALL_SEC * SECOND_100NS);
	watchdog(NET_WATCHDOG_SEC);
}

void net_progress_add(struct net_progress *p, uint64_t n)
{
	p->done += n;
	if (p->deadline)
		BS->SetTimer(p->deadline, TimerRelative, NET_STALL_SEC * SECOND_100NS);
	watchdog(NET_WATCHDOG_SEC);
}

bool net_progress_stalled(struct net_progress *p)
{
	if (p->timer && BS->CheckEvent(p->timer) == EFI_SUCCESS) {
		p->shown = true;
		/* a chunked body's size is not known: no total */
		con_print(p->total ? "\r%s: %llu of %llu KiB" : "\r%s: %llu KiB", p->url,
			  (unsigned long long)(p->done >> 10), (unsigned long long)(p->total >> 10));
	}
	return p->deadline && BS->CheckEvent(p->deadline) == EFI_SUCCESS;
}

void net_progress_end(struct net_progress *p)
{
	watchdog(0);
	if (p->timer)
		BS->CloseEvent(p->timer);
	if (p->deadline)
		BS->CloseEvent(p->deadline);
	if (p->shown)
		con_print("\n");
}
