/* The fake network of fake_net.h. */
#include "fake_net.h"
#include "core/platform.h"
#include <efi/proto/pxe_base_code_callback.h>
#include <stdarg.h>
#include <stdlib.h>

#define MAX_EVENTS 16
#define TFTP_WAIT_MAX 120 /* seconds a read waits for the callback to abort before it times out itself */

EFI_BOOT_SERVICES *BS; /* what src/efi files compiled for the host call */

static struct fake_net *net;
static EFI_BOOT_SERVICES boot_services;

static struct fake_event {
	bool used, signaled;
	uint64_t trigger, period;   /* trigger 0: not set */
} events[MAX_EVENTS];

static EFI_PXE_BASE_CODE_CALLBACK_PROTOCOL *callback; /* installed on the base code's handle */
static bool callbacks_on;

void con_print(const char *fmt, ...)
{
	(void)fmt; /* the progress line: not checked here */
}

static struct fake_event *event(EFI_EVENT e)
{
	return &events[(uintptr_t)e - 1];
}

/* A timer that fired is signaled (once, however many periods passed), as in the firmware. */
static void tick(struct fake_event *ev)
{
	if (!ev->trigger || net->now < ev->trigger)
		return;
	ev->signaled = true;
	ev->trigger = ev->period ? net->now - (net->now - ev->trigger) % ev->period + ev->period : 0;
}

static EFI_STATUS EFIAPI create_event(UINT32 type, EFI_TPL tpl, EFI_EVENT_NOTIFY fn, VOID *ctx, EFI_EVENT *ret)
{
	for (uintptr_t i = 0; i < MAX_EVENTS; i++) {
		if (events[i].used)
			continue;
		events[i] = (struct fake_event){ .used = true };
		*ret = (EFI_EVENT)(i + 1);
		net->n_events++;
		return EFI_SUCCESS;
	}
	return EFI_OUT_OF_RESOURCES;
}

static EFI_STATUS EFIAPI set_timer(EFI_EVENT e, EFI_TIMER_DELAY type, UINT64 t)
{
	struct fake_event *ev = event(e);

	ev->trigger = type == TimerCancel ? 0 : net->now + (t ? t : 1);
	ev->period = type == TimerPeriodic ? t : 0;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI check_event(EFI_EVENT e)
{
	struct fake_event *ev = event(e);

	tick(ev);
	if (!ev->signaled)
		return EFI_NOT_READY;
	ev->signaled = false;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI close_event(EFI_EVENT e)
{
	event(e)->used = false;
	net->n_events--;
	return EFI_SUCCESS;
}

/* UEFI 2.10 §7.5: seconds, 0 disables; setting it again restarts it. */
static EFI_STATUS EFIAPI set_watchdog(UINTN sec, UINT64 code, UINTN size, CHAR16 *data)
{
	net->watchdog = sec ? net->now + sec * FAKE_SECOND : 0;
	net->watchdog_sets += sec != 0;
	return code < 0x10000 ? EFI_INVALID_PARAMETER : EFI_SUCCESS;
}

/* Time passes inside the base code; a watchdog due meanwhile resets the machine (recorded). */
static void advance(uint64_t start, uint64_t t)
{
	net->now += t;
	if (net->watchdog && net->now >= net->watchdog && !net->reset_at)
		net->reset_at = (unsigned)((net->watchdog - start) / FAKE_SECOND);
}

static EFI_STATUS EFIAPI install(EFI_HANDLE *h, const EFI_GUID *guid, EFI_INTERFACE_TYPE type, VOID *iface)
{
	callback = iface;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI uninstall(EFI_HANDLE h, const EFI_GUID *guid, VOID *iface)
{
	callback = NULL;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI set_parameters(EFI_PXE_BASE_CODE_PROTOCOL *this, BOOLEAN *arp, BOOLEAN *guid, UINT8 *ttl,
					UINT8 *tos, BOOLEAN *make_callback)
{
	if (make_callback)
		callbacks_on = *make_callback;
	return EFI_SUCCESS;
}

static struct fake_file *lookup(const char *path)
{
	for (size_t i = 0; i < net->n_files; i++)
		if (!strcmp(net->files[i].path, path))
			return &net->files[i];
	return NULL;
}

/* One callback, as the base code makes it: false when the loader aborts. */
static bool call_back(BOOLEAN received, unsigned block, const char *data, size_t n)
{
	EFI_PXE_BASE_CODE_PACKET pkt = { 0 };

	if (!callback || !callbacks_on)
		return true;
	net->callbacks++;
	pkt.Raw[1] = 3; /* RFC 1350 §5: DATA, then the block number */
	pkt.Raw[2] = (uint8_t)(block >> 8);
	pkt.Raw[3] = (uint8_t)block;
	if (n)
		memcpy(pkt.Raw + 4, data, n);
	return callback->Callback(callback, EFI_PXE_BASE_CODE_FUNCTION_MTFTP, received, received ? (UINT32)(4 + n) : 0,
				  received ? &pkt : NULL) == EFI_PXE_BASE_CODE_CALLBACK_STATUS_CONTINUE;
}

/* The bytes of @f after @good_blocks blocks, as the server's mode has it. */
static EFI_STATUS read_file(const struct fake_file *f, uint8_t *buf, UINT64 *size)
{
	size_t len = strlen(f->data), bs = net->block_size ? net->block_size : 4, off = 0;
	uint64_t start = net->now;
	unsigned block = 0;

	for (; off < len && (net->tftp_mode == FAKE_TFTP_GOOD || block < net->good_blocks); off += bs) {
		size_t n = MIN(bs, len - off);

		advance(start, FAKE_SECOND);
		memcpy(buf + off, f->data + off, n);
		if (!call_back(/* received= */ true, ++block, f->data + off, n))
			goto aborted;
	}
	if (off >= len) {
		*size = len;
		return EFI_SUCCESS;
	}
	if (net->tftp_mode == FAKE_TFTP_HUNG) {
		advance(start, 3600 * FAKE_SECOND);
		return EFI_TIMEOUT;
	}
	if (net->tftp_mode == FAKE_TFTP_BLOCKED)
		advance(start, 20 * FAKE_SECOND); /* inside the base code, no callback */
	for (unsigned s = 0; s < TFTP_WAIT_MAX; s++) {
		if (net->tftp_mode != FAKE_TFTP_BLOCKED)
			advance(start, FAKE_SECOND);
		if (net->tftp_mode == FAKE_TFTP_REPEAT ? !call_back(true, block, f->data + off - bs, bs)
						       : !call_back(/* received= */ false, 0, NULL, 0))
			goto aborted;
	}
	return EFI_TIMEOUT;
aborted:
	net->aborted_at = (unsigned)((net->now - start) / FAKE_SECOND);
	return EFI_ABORTED;
}

static EFI_STATUS EFIAPI mtftp(EFI_PXE_BASE_CODE_PROTOCOL *this, EFI_PXE_BASE_CODE_TFTP_OPCODE op, VOID *buf,
			       BOOLEAN overwrite, UINT64 *size, UINTN *block, EFI_IP_ADDRESS *server, UINT8 *name,
			       EFI_PXE_BASE_CODE_MTFTP_INFO *info, BOOLEAN dont_use_buffer)
{
	struct fake_file *f = lookup((const char *)name);

	net->mode.TftpErrorReceived = false;
	if (f && op == EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE)
		f->requests++;
	if (!f || !f->data) {
		net->mode.TftpErrorReceived = true;
		net->mode.TftpError.ErrorCode = 1;
		strcpy((char *)net->mode.TftpError.ErrorString, "File not found");
		return EFI_TFTP_ERROR;
	}
	if (op == EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE) {
		*size = strlen(f->data);
		return EFI_SUCCESS;
	}
	if (*size < strlen(f->data))
		return EFI_BUFFER_TOO_SMALL;
	return read_file(f, buf, size);
}

void fake_net_init(struct fake_net *n, struct fake_file *files, size_t n_files)
{
	*n = (struct fake_net){ .files = files, .n_files = n_files };
	n->pxe.Mtftp = mtftp;
	n->pxe.SetParameters = set_parameters;
	n->pxe.Mode = &n->mode;
	net = n;
	memset(events, 0, sizeof(events));
	callback = NULL;
	callbacks_on = false;
	boot_services = (EFI_BOOT_SERVICES){
		.CreateEvent = create_event, .SetTimer = set_timer, .CheckEvent = check_event,
		.CloseEvent = close_event, .SetWatchdogTimer = set_watchdog, .InstallProtocolInterface = install,
		.UninstallProtocolInterface = uninstall,
	};
	BS = &boot_services;
}
