/* A stand-in for a loader whose initrd cannot be taken away, for the sealed
 * UKI boot test (tests/boot/test_trust.py). Started as \EFI\BOOT\BOOTX64.EFI,
 * it registers an initrd on Linux's initrd media device path (LoadFile2, UEFI
 * 2.10 §13.2, as a loader does) and opens that LoadFile2 protocol by driver
 * (§7.3 OpenProtocol, EFI_OPEN_PROTOCOL_BY_DRIVER) with no driver binding
 * that could let go of it, so nobody can uninstall it while this image runs
 * (§7.3 UninstallProtocolInterface: EFI_ACCESS_DENIED). Then it starts
 * \sealed.efi from its own volume (§7.4 LoadImage, StartImage), prints
 * "HANDOFF-PIN returned" if that comes back, and returns. The initrd is
 * pin_initrd[] from pin_initrd.h, which the test writes. */
#include <efi/efi.h>
#include <efi/linux.h>
#include <efi/proto/device_path.h>
#include <efi/proto/load_file.h>
#include <efi/proto/loaded_image.h>
#include <efi/proto/simple_text_out.h>
#include "pin_initrd.h"

#define NEXT u"\\sealed.efi"

static EFI_GUID lf2_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

static LINUX_INITRD_MEDIA_DEVICE_PATH initrd_dp = {
	.vendor = {
		.Header = { MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP, { sizeof(VENDOR_DEVICE_PATH), 0 } },
		.Guid = LINUX_INITRD_MEDIA_GUID,
	},
	.end = { END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, { END_DEVICE_PATH_LENGTH, 0 } },
};

static EFI_STATUS EFIAPI pin_load(EFI_LOAD_FILE2_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
				  BOOLEAN boot_policy, UINTN *size, VOID *buf)
{
	if (!buf || *size < sizeof(pin_initrd)) {
		*size = sizeof(pin_initrd);
		return EFI_BUFFER_TOO_SMALL;
	}
	for (UINTN i = 0; i < sizeof(pin_initrd); i++)
		((volatile UINT8 *)buf)[i] = pin_initrd[i];
	*size = sizeof(pin_initrd);
	return EFI_SUCCESS;
}

static EFI_LOAD_FILE2_PROTOCOL pin_lf2 = { pin_load };

static void put_node(UINT8 *p, UINT8 type, UINT8 subtype, UINTN len)
{
	p[0] = type;
	p[1] = subtype;
	p[2] = (UINT8)len;
	p[3] = (UINT8)(len >> 8);
}

/* The device this image came from, then a file path node for NEXT (§10.3.1, §10.3.5.4). */
static EFI_DEVICE_PATH_PROTOCOL *next_path(const EFI_DEVICE_PATH_PROTOCOL *dev, UINT8 *buf, UINTN cap)
{
	static const CHAR16 name[] = NEXT;
	const UINT8 *n = (const UINT8 *)dev;
	UINTN len = 0, node;

	while (n[len] != END_DEVICE_PATH_TYPE && (node = (UINTN)(n[len + 2] | n[len + 3] << 8)) >= 4)
		len += node;
	if (len + 4 + sizeof(name) + END_DEVICE_PATH_LENGTH > cap)
		return NULL;
	for (UINTN i = 0; i < len; i++)
		buf[i] = n[i];
	put_node(buf + len, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, 4 + sizeof(name));
	for (UINTN i = 0; i < sizeof(name); i++)
		buf[len + 4 + i] = ((const UINT8 *)name)[i];
	put_node(buf + len + 4 + sizeof(name), END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE,
		 END_DEVICE_PATH_LENGTH);
	return (EFI_DEVICE_PATH_PROTOCOL *)buf;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static UINT8 path_buf[512];
	EFI_BOOT_SERVICES *bs = st->BootServices;
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	EFI_DEVICE_PATH_PROTOCOL *dev = NULL, *next = NULL;
	EFI_HANDLE handle = NULL, child = NULL;
	void *iface = NULL;
	EFI_STATUS err;

	err = bs->InstallMultipleProtocolInterfaces(&handle, &dp_guid, (void *)&initrd_dp, &lf2_guid, &pin_lf2, NULL);
	if (!EFI_ERROR(err))
		err = bs->OpenProtocol(handle, &lf2_guid, &iface, image, handle, EFI_OPEN_PROTOCOL_BY_DRIVER);
	if (!EFI_ERROR(err))
		err = bs->HandleProtocol(image, &li_guid, (void **)&li);
	if (!EFI_ERROR(err))
		err = bs->HandleProtocol(li->DeviceHandle, &dp_guid, (void **)&dev);
	if (!EFI_ERROR(err) && !(next = next_path(dev, path_buf, sizeof(path_buf))))
		err = EFI_BUFFER_TOO_SMALL;
	st->ConOut->OutputString(st->ConOut, EFI_ERROR(err) ? u"HANDOFF-PIN failed\r\n" : u"HANDOFF-PIN ok\r\n");
	if (!EFI_ERROR(err))
		err = bs->LoadImage(FALSE, image, next, NULL, 0, &child);
	if (!EFI_ERROR(err))
		err = bs->StartImage(child, NULL, NULL);
	st->ConOut->OutputString(st->ConOut, u"HANDOFF-PIN returned\r\n");
	return err;
}
