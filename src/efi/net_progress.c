/* Download progress (README "Network boot"): a download that takes more than
 * a second shows how far it is on the console, one line rewritten each
 * second; one that receives nothing for NET_STALL_SEC is given up, so a dead
 * server sends the user back to the menu instead of hanging. Seconds come
 * from a periodic timer event (UEFI 2.10 §7.1, SetTimer), checked by the
 * download loop: no notification function, nothing printed behind its back. */
#include "net.h"

#define SECOND_100NS 10000000u

void net_progress_start(struct net_progress *p, const char *url, uint64_t total)
{
	*p = (struct net_progress){ .url = url, .total = total };
	if (BS->CreateEvent(EVT_TIMER, 0, NULL, NULL, &p->timer) != EFI_SUCCESS)
		p->timer = NULL; /* no progress and no stall limit: the firmware's own timeouts remain */
	else
		BS->SetTimer(p->timer, TimerPeriodic, SECOND_100NS);
}

void net_progress_add(struct net_progress *p, uint64_t n)
{
	p->done += n;
	p->last_data = p->ticks;
}

bool net_progress_stalled(struct net_progress *p)
{
	if (!p->timer || BS->CheckEvent(p->timer) != EFI_SUCCESS)
		return false;
	p->ticks++;
	con_print("\r%s: %llu of %llu KiB", p->url, (unsigned long long)(p->done >> 10),
		  (unsigned long long)(p->total >> 10));
	return p->ticks - p->last_data >= NET_STALL_SEC;
}

void net_progress_end(struct net_progress *p)
{
	if (!p->timer)
		return;
	BS->CloseEvent(p->timer);
	if (p->ticks)
		con_print("\n");
}
