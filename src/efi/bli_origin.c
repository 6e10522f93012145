/* Where the running image came from, in systemd's Boot Loader Interface
 * (LoaderFirmwareType, LoaderFirmwareInfo, LoaderImageIdentifier,
 * LoaderDevicePartUUID; volatile): set by the loader for itself, and by
 * handoff's stub only where no loader did, as systemd-stub does when a UKI
 * is started by the firmware directly (its export_variables()). */
#include "loader_vars.h"
#include "core/fmt.h"
#include "core/guid.h"
#include <efi/proto/loaded_image.h>

static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* The GPT partition GUID of the boot volume, from its hard-drive node. */
static void set_device_part_uuid(EFI_HANDLE device)
{
	const EFI_DEVICE_PATH_PROTOCOL *dp;
	const HARDDRIVE_DEVICE_PATH *hd;
	char s[GUID_STRING_SIZE];

	if (!device || BS->HandleProtocol(device, &dp_guid, (void **)&dp) != EFI_SUCCESS)
		return;
	hd = devpath_find(dp, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP, sizeof(*hd));
	if (hd && hd->SignatureType == SIGNATURE_TYPE_GUID) {
		guid_format((const EFI_GUID *)hd->Signature, s);
		loader_var_set_str(u"LoaderDevicePartUUID", s);
	}
}

char *image_file_path(const EFI_LOADED_IMAGE_PROTOCOL *li)
{
	const FILEPATH_DEVICE_PATH *fp;

	if (!li->FilePath)
		return NULL;
	fp = devpath_find(li->FilePath, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, sizeof(*fp));
	return fp ? str16_to_8(fp->PathName, (devpath_node_len(&fp->Header) - sizeof(*fp)) / sizeof(CHAR16)) : NULL;
}

/* The image's own path on its volume ("\EFI\BOOT\BOOTX64.EFI"). */
static void set_image_identifier(const EFI_LOADED_IMAGE_PROTOCOL *li)
{
	_cleanup_free_ char *path = image_file_path(li);

	if (path)
		loader_var_set_str(u"LoaderImageIdentifier", path);
}

static void set_firmware_info(bool keep)
{
	_cleanup_free_ char *vendor = NULL;
	char buf[192];

	if (!keep || !loader_var_exists(u"LoaderFirmwareType")) {
		fmt_snprintf(buf, sizeof(buf), "UEFI %u.%02u", ST->Hdr.Revision >> 16, ST->Hdr.Revision & 0xffff);
		loader_var_set_str(u"LoaderFirmwareType", buf);
	}
	if (keep && loader_var_exists(u"LoaderFirmwareInfo"))
		return;
	vendor = str16_to_8(ST->FirmwareVendor ? ST->FirmwareVendor : u"unknown", 128);
	fmt_snprintf(buf, sizeof(buf), "%s %u.%02u", vendor ? vendor : "unknown", ST->FirmwareRevision >> 16,
		     ST->FirmwareRevision & 0xffff);
	loader_var_set_str(u"LoaderFirmwareInfo", buf);
}

void bli_publish_origin(const EFI_LOADED_IMAGE_PROTOCOL *li, bool keep)
{
	set_firmware_info(keep);
	if (!keep || !loader_var_exists(u"LoaderImageIdentifier"))
		set_image_identifier(li);
	if (!keep || !loader_var_exists(u"LoaderDevicePartUUID"))
		set_device_part_uuid(li->DeviceHandle);
}
