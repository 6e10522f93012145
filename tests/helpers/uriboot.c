/* A test stand-in for the firmware's "HTTP boot from a URI" boot option: QEMU's
 * user network hands out an http:// boot URL only (libslirp sends the
 * HTTPClient vendor class for "http://" alone), so an HTTPS boot is started
 * from a disk by this program. It calls the firmware's HTTP Boot LoadFile
 * (UEFI 2.10 §24.7) with a device path ending in Uri(URIBOOT_URL), as a boot
 * option with a configured URI does, then loads and starts what came. The
 * started image sees what a real HTTPS boot leaves: its DeviceHandle's path
 * ends in IPv4()/.../Uri(https://...). Prints "URIBOOT: ..." on failure.
 * Built by tests/harness/net.py: -DURIBOOT_URL='"https://..."'. */
#include <efi/efi.h>
#include <efi/proto/device_path.h>
#include <efi/proto/load_file.h>
#include <efi/proto/simple_text_out.h>

#ifndef URIBOOT_URL
#error "build with -DURIBOOT_URL='\"https://...\"'"
#endif

static EFI_BOOT_SERVICES *bs;
static EFI_SYSTEM_TABLE *st;

static void say(const char *s)
{
	CHAR16 buf[128];
	size_t n = 0;

	while (*s && n < 126)
		buf[n++] = (CHAR16)*s++;
	buf[n++] = '\r';
	buf[n] = 0;
	st->ConOut->OutputString(st->ConOut, buf);
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)u"\n");
}

static uint16_t node_len(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return (uint16_t)(n->Length[0] | n->Length[1] << 8);
}

/* The bytes of @dp before its Uri() node (or its end), and whether it has an IPv4() node. */
static size_t prefix_len(const EFI_DEVICE_PATH_PROTOCOL *dp, bool *ipv4)
{
	const uint8_t *p = (const uint8_t *)dp;

	*ipv4 = false;
	for (const EFI_DEVICE_PATH_PROTOCOL *n = dp; n->Type != END_DEVICE_PATH_TYPE && node_len(n) >= 4;
	     n = (const void *)((const uint8_t *)n + node_len(n))) {
		if (n->Type == MESSAGING_DEVICE_PATH && n->SubType == MSG_URI_DP)
			return (size_t)((const uint8_t *)n - p);
		if (n->Type == MESSAGING_DEVICE_PATH && n->SubType == MSG_IPv4_DP)
			*ipv4 = true;
	}
	return 0;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static const EFI_GUID lf_guid = EFI_LOAD_FILE_PROTOCOL_GUID, dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
	static const char url[] = URIBOOT_URL;
	EFI_HANDLE *handles, child;
	UINTN n_handles, size = 0;
	EFI_STATUS err;

	st = systab;
	bs = systab->BootServices;
	/* a disk boot need not have started the network drivers */
	if (bs->LocateHandleBuffer(AllHandles, NULL, NULL, &n_handles, &handles) == EFI_SUCCESS)
		for (UINTN i = 0; i < n_handles; i++)
			bs->ConnectController(handles[i], NULL, NULL, TRUE);
	if (bs->LocateHandleBuffer(ByProtocol, &lf_guid, NULL, &n_handles, &handles) != EFI_SUCCESS)
		n_handles = 0;
	for (UINTN i = 0; i < n_handles; i++) {
		EFI_DEVICE_PATH_PROTOCOL *dp;
		EFI_LOAD_FILE_PROTOCOL *lf;
		uint8_t path[512], *buf = NULL;
		bool ipv4;
		size_t pre;

		if (bs->HandleProtocol(handles[i], &dp_guid, (void **)&dp) != EFI_SUCCESS ||
		    bs->HandleProtocol(handles[i], &lf_guid, (void **)&lf) != EFI_SUCCESS)
			continue;
		pre = prefix_len(dp, &ipv4);
		if (!ipv4 || !pre || pre + 4 + sizeof(url) + 4 > sizeof(path))
			continue;
		/* the handle's own path with Uri(URL) in place of its empty Uri() */
		for (size_t j = 0; j < pre; j++)
			path[j] = ((const uint8_t *)dp)[j];
		path[pre] = MESSAGING_DEVICE_PATH;
		path[pre + 1] = MSG_URI_DP;
		path[pre + 2] = (uint8_t)(4 + sizeof(url) - 1);
		path[pre + 3] = 0;
		for (size_t j = 0; j < sizeof(url) - 1; j++)
			path[pre + 4 + j] = (uint8_t)url[j];
		uint8_t *end = path + pre + 4 + sizeof(url) - 1;
		end[0] = END_DEVICE_PATH_TYPE, end[1] = END_ENTIRE_DEVICE_PATH_SUBTYPE, end[2] = 4, end[3] = 0;
		err = lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)path, TRUE, &size, NULL);
		if (err == EFI_BUFFER_TOO_SMALL && bs->AllocatePool(EfiLoaderData, size, (void **)&buf) == EFI_SUCCESS)
			err = lf->LoadFile(lf, (EFI_DEVICE_PATH_PROTOCOL *)path, TRUE, &size, buf);
		if (err != EFI_SUCCESS) {
			say("URIBOOT: the firmware's HTTP boot failed");
			return err;
		}
		/* the firmware put the URL it booted into the handle's path */
		bs->HandleProtocol(handles[i], &dp_guid, (void **)&dp);
		err = bs->LoadImage(FALSE, image, dp, buf, size, &child);
		if (err == EFI_SUCCESS)
			err = bs->StartImage(child, NULL, NULL);
		say("URIBOOT: the image did not start, or returned");
		return err;
	}
	say("URIBOOT: no HTTP boot LoadFile with an IPv4() node");
	return EFI_NOT_FOUND;
}
