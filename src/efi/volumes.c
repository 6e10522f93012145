/* Volume discovery (Boot Loader Specification: $BOOT may be the ESP or an
 * XBOOTLDR partition on the same disk; entry paths are relative to the
 * partition they were found on). A partition belongs to the boot disk when
 * its device path is the disk's path plus one hard-drive node (UEFI 2.10
 * §10.3.5.1). Which of them may supply entries is bootpart_classify()'s
 * decision (src/core/bootpart.c); a partition it ignores is not opened. */
#include "volumes.h"
#include "core/bootpart.h"
#include "core/fmt.h"
#include <efi/proto/block_io.h>
#include <efi/proto/partition_info.h>

static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
static EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID pi_guid = EFI_PARTITION_INFO_PROTOCOL_GUID;

/* @dp's hard-drive node (§10.3.5.1), or NULL. */
static const HARDDRIVE_DEVICE_PATH *hd_node(const EFI_DEVICE_PATH_PROTOCOL *dp)
{
	return devpath_find(dp, MEDIA_DEVICE_PATH, MEDIA_HARDDRIVE_DP, sizeof(HARDDRIVE_DEVICE_PATH));
}

/* Bytes of @dp before its hard-drive node (the disk's own path), or 0. */
static size_t disk_prefix_len(const EFI_DEVICE_PATH_PROTOCOL *dp)
{
	const HARDDRIVE_DEVICE_PATH *hd = hd_node(dp);

	return hd ? (size_t)((const uint8_t *)hd - (const uint8_t *)dp) : 0;
}

static const EFI_DEVICE_PATH_PROTOCOL *devpath_of(EFI_HANDLE h)
{
	EFI_DEVICE_PATH_PROTOCOL *dp;

	return BS->HandleProtocol(h, &dp_guid, (void **)&dp) == EFI_SUCCESS ? dp : NULL;
}

/* What the firmware says of partition @h: its PARTUUID from the hard-drive
 * node, its type from EFI_PARTITION_INFO_PROTOCOL (UEFI 2.10 §13.18). Without
 * that protocol (firmware older than it, as some U-Boot) the type stays
 * unknown, so an XBOOTLDR partition is read only when loader.conf names it:
 * failing closed costs one line of loader.conf there, while reading the GPT
 * through Block I/O would cost every loader a GPT reader. */
static void partition_facts(EFI_HANDLE h, const HARDDRIVE_DEVICE_PATH *hd, struct bootpart_facts *f)
{
	EFI_PARTITION_INFO_PROTOCOL *pi;

	*f = (struct bootpart_facts){ 0 };
	if (hd->SignatureType == SIGNATURE_TYPE_GUID)
		f->part_uuid = (const void *)hd->Signature; /* unaligned: bootpart_classify() compares bytes */
	if (BS->HandleProtocol(h, &pi_guid, (void **)&pi) == EFI_SUCCESS && pi->Type == PARTITION_TYPE_GPT)
		f->type = &pi->Info.Gpt.PartitionTypeGUID;
}

/* A partition of the boot disk, other than the boot volume, with entries;
 * named in messages by its GPT partition number, as Linux and fdisk count. */
static void consider_partition(EFI_HANDLE h, const HARDDRIVE_DEVICE_PATH *hd, struct volume **v, size_t *n)
{
	static const char *const prefixes[] = { "", "/boot" };
	struct volume vol = { .handle = h };
	uint32_t number;
	void *sfs;

	memcpy(&number, &hd->PartitionNumber, sizeof(number)); /* the node is packed */
	fmt_snprintf(vol.name, sizeof(vol.name), "partition %u", number);
	bool firmware_fs = BS->HandleProtocol(h, &sfs_guid, &sfs) == EFI_SUCCESS;

	if (!firmware_fs && ext4_sfs_install(h, vol.name) != EFI_SUCCESS)
		return;
	if (file_open_root(h, &vol.root) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(prefixes); i++) {
		_cleanup_free_ char *dir = fmt_asprintf("%s/loader/entries", prefixes[i]);
		_cleanup_free_ char *uki = fmt_asprintf("%s/EFI/Linux", prefixes[i]);
		if ((dir && file_stat(vol.root, dir, NULL) == EFI_SUCCESS) ||
		    (uki && file_stat(vol.root, uki, NULL) == EFI_SUCCESS)) {
			vol.prefix = prefixes[i];
			if (array_append(v, n, sizeof(vol), &vol) != EFI_SUCCESS)
				break;
			if (firmware_fs)
				fat_fast_attach(h, vol.root);
			return;
		}
	}
	file_close(vol.root);
}

EFI_STATUS volumes_boot(EFI_HANDLE boot_device, struct volume **ret, size_t *ret_n)
{
	struct volume boot = { .handle = boot_device, .prefix = "", .name = "boot volume" };
	EFI_STATUS err;

	*ret = NULL;
	*ret_n = 0;
	err = net_volume_open(boot_device, &boot);
	if (err == EFI_UNSUPPORTED && (err = file_open_root(boot_device, &boot.root)) == EFI_SUCCESS)
		fat_fast_attach(boot_device, boot.root);
	if (EFI_ERROR(err))
		return err;
	return array_append(ret, ret_n, sizeof(boot), &boot);
}

void volumes_add_partitions(const EFI_GUID *named, size_t n_named, struct volume **v, size_t *n)
{
	EFI_HANDLE boot_device = (*v)[0].handle;
	const EFI_DEVICE_PATH_PROTOCOL *boot_dp = devpath_of(boot_device);
	size_t prefix = boot_dp ? disk_prefix_len(boot_dp) : 0;
	EFI_HANDLE *handles = NULL;
	UINTN n_handles = 0;

	if (!prefix || BS->LocateHandleBuffer(ByProtocol, &bio_guid, NULL, &n_handles, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n_handles; i++) {
		const EFI_DEVICE_PATH_PROTOCOL *dp = devpath_of(handles[i]);
		struct bootpart_facts facts;

		if (handles[i] == boot_device || !dp || disk_prefix_len(dp) != prefix ||
		    memcmp(dp, boot_dp, prefix) != 0)
			continue;
		partition_facts(handles[i], hd_node(dp), &facts);
		if (bootpart_classify(&facts, named, n_named) != BOOTPART_IGNORED)
			consider_partition(handles[i], hd_node(dp), v, n);
	}
	BS->FreePool(handles);
}
