/* A UKI named by a Type #1 "uki-url" (systemd-boot 258): fetched by the
 * firmware's HTTP Boot (UEFI 2.10 §24.7), as systemd-boot does and as a boot
 * option with a configured URI does: the LoadFile of a NIC's handle whose
 * path ends in IPv4()/.../Uri(), given that path with the URL in its Uri()
 * node. So it works from a disk boot too, wherever the firmware has an HTTP
 * stack; the network drivers are started first when no such handle is there.
 * What comes is an image like any other: verified by LoadImage (Secure Boot). */
#include "net.h"
#include "core/netboot.h"
#include <efi/proto/device_path.h>
#include <efi/proto/load_file.h>

static const EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID, dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* @dp up to its Uri() node, then Uri(@url) and the end; NULL when @dp is no HTTP Boot path. */
static EFI_DEVICE_PATH_PROTOCOL *with_uri(const EFI_DEVICE_PATH_PROTOCOL *dp, const char *url)
{
	const uint8_t *uri = devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_URI_DP, 4);
	size_t pre, len = strlen(url);
	uint8_t *p;

	if (!uri || !devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_IPv4_DP, 4) || len > NET_URL_MAX)
		return NULL;
	pre = (size_t)(uri - (const uint8_t *)dp);
	p = mem_alloc(pre + 4 + len + 4);
	if (!p)
		return NULL;
	memcpy(p, dp, pre);
	p[pre] = MESSAGING_DEVICE_PATH;
	p[pre + 1] = MSG_URI_DP;
	p[pre + 2] = (uint8_t)(len + 4);
	p[pre + 3] = (uint8_t)((len + 4) >> 8);
	memcpy(p + pre + 4, url, len);
	memcpy(p + pre + 4 + len, (const uint8_t[]){ END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, 4, 0 }, 4);
	return (EFI_DEVICE_PATH_PROTOCOL *)p;
}

/* EFI_NOT_FOUND: @h is no HTTP Boot handle. Its LoadFile is asked the size, then for the bytes. */
static EFI_STATUS fetch_by(EFI_HANDLE h, const char *url, uint8_t **ret, uint64_t *ret_size)
{
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *path = NULL;
	EFI_DEVICE_PATH_PROTOCOL *dp;
	EFI_LOAD_FILE_PROTOCOL *lf;
	UINTN size = 0;
	uint8_t *buf;
	EFI_STATUS err;

	if (BS->HandleProtocol(h, &dp_guid, (void **)&dp) != EFI_SUCCESS ||
	    BS->HandleProtocol(h, &lf_guid, (void **)&lf) != EFI_SUCCESS || !(path = with_uri(dp, url)))
		return EFI_NOT_FOUND;
	err = lf->LoadFile(lf, path, /* BootPolicy= */ TRUE, &size, NULL);
	if (err != EFI_BUFFER_TOO_SMALL)
		return EFI_ERROR(err) ? err : EFI_PROTOCOL_ERROR;
	if (!(buf = net_buffer(url, size)))
		return EFI_OUT_OF_RESOURCES;
	err = lf->LoadFile(lf, path, /* BootPolicy= */ TRUE, &size, buf);
	if (EFI_ERROR(err)) {
		mem_free(buf);
		return err;
	}
	*ret = buf;
	*ret_size = size;
	return EFI_SUCCESS;
}

EFI_STATUS net_uri_fetch(const char *url, uint8_t **ret, uint64_t *ret_size)
{
	EFI_STATUS err = EFI_NOT_FOUND;

	for (int pass = 0; pass < 2 && err == EFI_NOT_FOUND; pass++) {
		EFI_HANDLE *h = NULL;
		UINTN n = 0;

		if (pass) /* a disk boot need not have started the network drivers */
			connect_all_controllers();
		if (BS->LocateHandleBuffer(ByProtocol, (EFI_GUID *)&lf_guid, NULL, &n, &h) != EFI_SUCCESS)
			n = 0;
		for (UINTN i = 0; i < n && err == EFI_NOT_FOUND; i++)
			err = fetch_by(h[i], url, ret, ret_size);
		if (h)
			BS->FreePool(h);
	}
	if (err == EFI_NOT_FOUND)
		return log_error_status(err, "%s: the firmware has no HTTP Boot on a network", url);
	return EFI_ERROR(err) ? log_error_status(err, "%s: the firmware's HTTP Boot failed: %m", url) : EFI_SUCCESS;
}
