/* Device paths (UEFI 2.10 §10): walking them (the partition a volume is on,
 * the loader's own file path), and the full path of a file on a volume, so
 * that LoadImage records where an image came from (a kernel's EFI stub uses
 * it to find its own volume for "initrd=" options). */
#include "firmware.h"

static EFI_GUID devpath_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

uint16_t devpath_node_len(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return (uint16_t)(n->Length[0] | n->Length[1] << 8);
}

static const EFI_DEVICE_PATH_PROTOCOL *next_node(const EFI_DEVICE_PATH_PROTOCOL *n)
{
	return (const void *)((const uint8_t *)n + devpath_node_len(n));
}

const void *devpath_find(const EFI_DEVICE_PATH_PROTOCOL *dp, uint8_t type, uint8_t subtype, size_t min_len)
{
	/* a node shorter than its own header ends the walk: no loop on a bad path */
	for (const EFI_DEVICE_PATH_PROTOCOL *n = dp; n && n->Type != END_DEVICE_PATH_TYPE && devpath_node_len(n) >= 4;
	     n = next_node(n))
		if (n->Type == type && n->SubType == subtype && devpath_node_len(n) >= min_len)
			return n;
	return NULL;
}

size_t devpath_size(const EFI_DEVICE_PATH_PROTOCOL *dp)
{
	const EFI_DEVICE_PATH_PROTOCOL *n = dp;

	while (!(n->Type == END_DEVICE_PATH_TYPE && n->SubType == END_ENTIRE_DEVICE_PATH_SUBTYPE) &&
	       devpath_node_len(n) >= 4)
		n = next_node(n);
	return (size_t)((const uint8_t *)n - (const uint8_t *)dp) + END_DEVICE_PATH_LENGTH;
}

static void set_node(EFI_DEVICE_PATH_PROTOCOL *n, uint8_t type, uint8_t subtype, size_t len)
{
	n->Type = type;
	n->SubType = subtype;
	n->Length[0] = (uint8_t)len;
	n->Length[1] = (uint8_t)(len >> 8);
}

EFI_DEVICE_PATH_PROTOCOL *devpath_for_file(EFI_HANDLE device, const char *path)
{
	EFI_DEVICE_PATH_PROTOCOL *dev = NULL;
	_cleanup_free_ CHAR16 *p16 = str8_to_16(path, /* path= */ true);
	size_t dev_len, name_size, file_len;
	uint8_t *out;

	if (!p16)
		return NULL;
	if (BS->HandleProtocol(device, &devpath_guid, (void **)&dev) != EFI_SUCCESS)
		dev = NULL;
	dev_len = dev ? devpath_size(dev) - END_DEVICE_PATH_LENGTH : 0;
	name_size = (strlen16(p16) + 1) * sizeof(CHAR16);
	file_len = sizeof(FILEPATH_DEVICE_PATH) + name_size;
	out = mem_alloc(dev_len + file_len + END_DEVICE_PATH_LENGTH);
	if (!out)
		return NULL;
	if (dev_len)
		memcpy(out, dev, dev_len);
	set_node((void *)(out + dev_len), MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, file_len);
	memcpy(out + dev_len + sizeof(FILEPATH_DEVICE_PATH), p16, name_size);
	set_node((void *)(out + dev_len + file_len), END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE,
		 END_DEVICE_PATH_LENGTH);
	return (EFI_DEVICE_PATH_PROTOCOL *)out;
}

EFI_STATUS image_load_file(EFI_HANDLE device, const char *what, const char *path, EFI_HANDLE *ret)
{
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *dp = devpath_for_file(device, path);
	EFI_STATUS err;

	*ret = NULL;
	if (!dp)
		return EFI_OUT_OF_RESOURCES;
	err = BS->LoadImage(FALSE, IH, dp, NULL, 0, ret);
	if (err == EFI_SECURITY_VIOLATION || err == EFI_ACCESS_DENIED)
		log_error_status(err, "%s %s: refused by Secure Boot (%s): left out", what, path,
				 trust_status_meaning(err));
	else if (EFI_ERROR(err))
		log_error_status(err, "%s %s: cannot be loaded: %m: left out", what, path);
	if (EFI_ERROR(err) && *ret) { /* UEFI 2.10 §7.4.1: EFI_SECURITY_VIOLATION leaves a loaded image */
		BS->UnloadImage(*ret);
		*ret = NULL;
	}
	return err;
}
