/* handoff-stub.efi: started by firmware or a loader, it boots the kernel it
 * carries, by what src/efi/uki_run.c does with its sections (the loader runs
 * the same for a UKI of this stub from its menu). */
#include "efi/uki_run.h"
#include <efi/proto/loaded_image.h>

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID li_dp_guid = EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_DEVICE_PATH_PROTOCOL *self_dp = NULL;
	EFI_STATUS err;

	efi_init(image, systab);
	err = BS->HandleProtocol(image, &li_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "stub: no loaded image protocol: %m");
	if (BS->HandleProtocol(image, &li_dp_guid, (void **)&self_dp) != EFI_SUCCESS)
		self_dp = NULL;
	err = uki_run(li, self_dp, PE_LAYOUT_MEMORY);
	return log_error_status(err, "stub: boot failed: %m");
}
