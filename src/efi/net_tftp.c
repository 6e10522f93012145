/* Files over TFTP (RFC 1350; tsize and blksize options, RFC 2349 and 2348)
 * through the PXE base code that started handoff (UEFI 2.10 §24.3), from the
 * server its DHCP answer named (src/core/dhcp.c). A file is read whole: its
 * size first (tsize), then its bytes into a buffer of exactly that size. The
 * read blocks inside the firmware; a callback (§24.4), installed only while
 * it runs, counts the new data for the progress line and aborts the read
 * once nothing new came for NET_STALL_SEC. The specification calls it while
 * the base code waits for a packet too; edk2 calls it only for new data, and
 * its own retries (6 of 4 s) end a transfer from a silent server. */
#include "net.h"
#include "core/dhcp.h"
#include "core/fmt.h"
#include "core/netboot.h"
#include <efi/proto/pxe_base_code_callback.h>

/* The largest block one Ethernet frame carries: 1500 - IPv4 20 - UDP 8 - TFTP 4. */
#define TFTP_BLOCK 1468u
#define TFTP_HEADER 4          /* RFC 1350 §5: opcode and block number before a DATA packet's bytes */
#define TFTP_DATA 3            /* RFC 1350 §5 opcode */
#define TFTP_FILE_NOT_FOUND 1 /* RFC 1350 §5 error code */

static const EFI_GUID pxe_guid = EFI_PXE_BASE_CODE_PROTOCOL_GUID;
static const EFI_GUID callback_guid = EFI_PXE_BASE_CODE_CALLBACK_PROTOCOL_GUID;
static EFI_STATUS tftp(const struct net_source *src, EFI_PXE_BASE_CODE_TFTP_OPCODE op, void *buf, UINT64 *size,
		       const char *path)
{
	EFI_IP_ADDRESS server = src->server;
	UINTN block = TFTP_BLOCK;

	return src->pxe->Mtftp(src->pxe, op, buf, FALSE, size, &block, &server, (UINT8 *)path, NULL, FALSE);
}

static struct net_progress *counting; /* the download the callback counts */
static unsigned last_block;            /* of the DATA packet counted last */
static bool stalled;                   /* the callback aborted the read */

/* Only installed while a file is read; edk2 passes the function of the last
 * Dhcp(), not MTFTP. A DATA packet of another block than the last is new
 * data: a server repeating a block, or other packets, move nothing. */
static EFI_PXE_BASE_CODE_CALLBACK_STATUS EFIAPI packet_seen(EFI_PXE_BASE_CODE_CALLBACK_PROTOCOL *this,
							    EFI_PXE_BASE_CODE_FUNCTION function, BOOLEAN received,
							    UINT32 len, EFI_PXE_BASE_CODE_PACKET *packet)
{
	const uint8_t *p = packet ? packet->Raw : NULL;

	if (!counting)
		return EFI_PXE_BASE_CODE_CALLBACK_STATUS_CONTINUE;
	if (received && p && len > TFTP_HEADER && p[0] == 0 && p[1] == TFTP_DATA &&
	    (unsigned)(p[2] << 8 | p[3]) != last_block) {
		last_block = p[2] << 8 | p[3];
		net_progress_add(counting, len - TFTP_HEADER);
	}
	stalled = net_progress_stalled(counting);
	return stalled ? EFI_PXE_BASE_CODE_CALLBACK_STATUS_ABORT : EFI_PXE_BASE_CODE_CALLBACK_STATUS_CONTINUE;
}

static EFI_PXE_BASE_CODE_CALLBACK_PROTOCOL callback = { EFI_PXE_BASE_CODE_CALLBACK_PROTOCOL_REVISION, packet_seen };

/* READ_FILE with the callback counting; without it (another one installed) just no progress line. */
static EFI_STATUS read_counted(const struct net_source *src, void *buf, UINT64 *size, const char *path,
			       const char *name)
{
	struct net_progress p;
	BOOLEAN on = TRUE, off = FALSE;
	EFI_HANDLE h = src->pxe_handle;
	EFI_STATUS err;

	net_progress_start(&p, name, *size);
	last_block = 0; /* blocks count from 1 */
	stalled = false;
	if (BS->InstallProtocolInterface(&h, &callback_guid, EFI_NATIVE_INTERFACE, &callback) == EFI_SUCCESS &&
	    src->pxe->SetParameters(src->pxe, NULL, NULL, NULL, NULL, &on) == EFI_SUCCESS)
		counting = &p;
	err = tftp(src, EFI_PXE_BASE_CODE_TFTP_READ_FILE, buf, size, path);
	if (stalled)
		err = EFI_TIMEOUT; /* our abort, not the server's */
	if (counting)
		src->pxe->SetParameters(src->pxe, NULL, NULL, NULL, NULL, &off);
	counting = NULL;
	BS->UninstallProtocolInterface(h, &callback_guid, &callback);
	net_progress_end(&p);
	return err;
}

static EFI_STATUS tftp_error(const struct net_source *src, EFI_STATUS err, const char *name, bool quiet_missing)
{
	const EFI_PXE_BASE_CODE_MODE *m = src->pxe->Mode;

	if (err != EFI_TFTP_ERROR || !m->TftpErrorReceived)
		return log_error_status(err, "%s: %m%s", name, err == EFI_TIMEOUT ? " (no answer)" : "");
	if (m->TftpError.ErrorCode == TFTP_FILE_NOT_FOUND && quiet_missing)
		return EFI_NOT_FOUND;
	return log_error_status(m->TftpError.ErrorCode == TFTP_FILE_NOT_FOUND ? EFI_NOT_FOUND : err,
				"%s: TFTP error %u: %.*s", name, m->TftpError.ErrorCode,
				(int)sizeof(m->TftpError.ErrorString), m->TftpError.ErrorString);
}

EFI_STATUS net_tftp_get(const struct net_source *src, const char *path, const char *name, bool quiet_missing,
			uint8_t **ret, uint64_t *ret_size)
{
	UINT64 size = 0, got;
	uint8_t *buf;
	EFI_STATUS err;

	err = tftp(src, EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE, NULL, &size, path);
	if (EFI_ERROR(err))
		return tftp_error(src, err, name, quiet_missing);
	if (!(buf = net_buffer(name, size)))
		return EFI_OUT_OF_RESOURCES;
	got = size;
	err = read_counted(src, buf, &got, path, name);
	if (EFI_ERROR(err))
		err = tftp_error(src, err, name, /* quiet_missing= */ false);
	else if (got != size)
		err = log_error_status(EFI_END_OF_FILE, "%s: %llu bytes, the server said %llu", name,
				       (unsigned long long)got, (unsigned long long)size);
	if (EFI_ERROR(err)) {
		mem_free(buf);
		return err;
	}
	*ret = buf;
	*ret_size = size;
	return EFI_SUCCESS;
}

/* The PXE server's answer, the DHCP server's, or a proxy DHCP's: the first naming a file and a server. */
static bool boot_file(const EFI_PXE_BASE_CODE_MODE *m, struct dhcp_boot *ret)
{
	return (m->PxeReplyReceived && dhcp_boot_parse(m->PxeReply.Raw, sizeof(m->PxeReply.Raw), ret)) ||
	       (m->ProxyOfferReceived && dhcp_boot_parse(m->ProxyOffer.Raw, sizeof(m->ProxyOffer.Raw), ret)) ||
	       dhcp_boot_parse(m->DhcpAck.Raw, sizeof(m->DhcpAck.Raw), ret);
}

EFI_STATUS net_tftp_source(EFI_HANDLE device, struct net_source *ret)
{
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;
	const EFI_PXE_BASE_CODE_MODE *m;
	struct dhcp_boot boot;

	if (BS->HandleProtocol(device, &pxe_guid, (void **)&pxe) != EFI_SUCCESS)
		return EFI_UNSUPPORTED;
	m = pxe->Mode;
	if (!m || !m->Started || !m->DhcpAckReceived)
		return log_error_status(EFI_NO_MAPPING, "PXE boot: no DHCP lease");
	if (m->UsingIpv6)
		return log_error_status(EFI_INVALID_PARAMETER, "PXE boot over IPv6 is not supported");
	if (!boot_file(m, &boot))
		return log_error_status(EFI_NOT_FOUND, "PXE boot: the DHCP answer names no usable boot file or server");
	ret->pxe = pxe;
	ret->pxe_handle = device;
	memcpy(ret->server.v4.Addr, boot.server, sizeof(boot.server));
	fmt_snprintf(ret->show, sizeof(ret->show), "tftp://%u.%u.%u.%u/", boot.server[0], boot.server[1],
		     boot.server[2], boot.server[3]);
	ret->loc = fmt_asprintf("%s", boot.file);
	if (!ret->loc)
		return EFI_OUT_OF_RESOURCES;
	ret->root_len = net_root_len(ret->loc);
	return EFI_SUCCESS;
}
