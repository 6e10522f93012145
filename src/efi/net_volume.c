/* The boot volume of a network boot (README "Network boot"): a handle UEFI
 * HTTP Boot or PXE started handoff from has no file system, so the server is
 * the volume (net_fs.c). The URL handoff came from goes into the Boot Loader
 * Interface's LoaderDeviceURL, the counterpart of LoaderDevicePartUUID, as
 * systemd (since 258) names it: the http(s) URL as the firmware has it (no
 * control character, space or byte beyond ASCII: net_url_is_http()), or
 * "tftp://SERVER/" and the boot file percent-encoded (RFC 3986 §2.1). */
#include "net.h"
#include "loader_vars.h"
#include "volumes.h"
#include "core/fmt.h"
#include "core/netboot.h"

static const EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static const EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

/* Who this machine is, for entries.list's "host" lines: the MAC address of
 * the card it booted from (an Ethernet MAC() node, IfType 1; some firmware
 * leaves 0). */
static void machine_ids(const EFI_DEVICE_PATH_PROTOCOL *dp, struct net_source *src)
{
	const MAC_ADDR_DEVICE_PATH *m = devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_MAC_ADDR_DP, sizeof(*m));

	src->mac_known = m && m->IfType <= 1;
	if (src->mac_known)
		memcpy(src->mac, m->MacAddress, sizeof(src->mac));
}

EFI_STATUS net_volume_open(EFI_HANDLE device, struct volume *vol)
{
	struct net_source src = { 0 };
	EFI_DEVICE_PATH_PROTOCOL *dp;
	_cleanup_free_ char *url = NULL;
	void *sfs;
	EFI_STATUS err;

	if (BS->HandleProtocol(device, &sfs_guid, &sfs) == EFI_SUCCESS)
		return EFI_UNSUPPORTED; /* a disk, or a network boot with a file system: read as a disk */
	err = BS->HandleProtocol(device, &dp_guid, (void **)&dp);
	err = EFI_ERROR(err) ? EFI_UNSUPPORTED : net_http_source(dp, &src);
	if (err == EFI_UNSUPPORTED && !src.loc)
		err = net_tftp_source(device, &src);
	if (!EFI_ERROR(err) && !(url = net_url_join(src.show, strlen(src.show), src.loc, /* encode= */ !!src.pxe)))
		err = EFI_OUT_OF_RESOURCES;
	if (!EFI_ERROR(err)) {
		log_info("network boot from %s", url);
		machine_ids(dp, &src);
		loader_var_set_str(u"LoaderDeviceURL", url);
		err = net_fs_mount(&src, &vol->root, &vol->lost);
		vol->url = TAKE_PTR(url); /* "uki-url :NAME" (bls_url_resolve()) */
	}
	if (EFI_ERROR(err)) {
		mem_free(src.loc);
		return err;
	}
	fmt_snprintf(vol->name, sizeof(vol->name), "network boot");
	vol->network = true;
	return EFI_SUCCESS;
}
