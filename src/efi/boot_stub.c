/* EFI boot stub scheme (boot.rst "EFI stub"): the kernel is an EFI
 * application. LoadImage it from the bytes already read, with its real file
 * device path; LoadOptions = the command line in UCS-2; initrds offered via
 * LoadFile2; StartImage. If the image returns, everything is undone. */
#include "boot.h"

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

static EFI_STATUS set_load_options(EFI_HANDLE child, const char *cmdline, CHAR16 **ret_opts)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	CHAR16 *opts;
	EFI_STATUS err;

	err = BS->HandleProtocol(child, &loaded_image_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "started image has no loaded image protocol: %s", efi_status_str(err));
	opts = str8_to_16(cmdline, /* path= */ false);
	if (!opts)
		return EFI_OUT_OF_RESOURCES;
	li->LoadOptions = opts;
	li->LoadOptionsSize = (uint32_t)((strlen16(opts) + 1) * sizeof(CHAR16));
	*ret_opts = opts;
	return EFI_SUCCESS;
}

EFI_STATUS boot_stub(const struct boot_plan *plan)
{
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *own_dp = plan->devpath ? NULL : devpath_for_file(plan->device, plan->kernel_path);
	const EFI_DEVICE_PATH_PROTOCOL *dp = plan->devpath ? plan->devpath : own_dp;
	_cleanup_free_ CHAR16 *opts = NULL;
	EFI_HANDLE child = NULL, initrd_handle = NULL;
	EFI_STATUS err;

	err = BS->LoadImage(FALSE, IH, (EFI_DEVICE_PATH_PROTOCOL *)dp, (void *)plan->image, plan->image_size, &child);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: LoadImage failed: %s%s", plan->kernel_path, efi_status_str(err),
					err == EFI_SECURITY_VIOLATION || err == EFI_ACCESS_DENIED ? " (not signed for Secure Boot?)" : "");
	err = set_load_options(child, plan->cmdline, &opts);
	if (!EFI_ERROR(err) && plan->initrds && plan->initrds->n)
		err = initrd_lf2_install(plan->initrds, &initrd_handle);
	if (!EFI_ERROR(err)) {
		err = BS->StartImage(child, NULL, NULL);
		log_error("%s: the image returned (%s) instead of starting a kernel", plan->kernel_path, efi_status_str(err));
		if (!EFI_ERROR(err))
			err = EFI_LOAD_ERROR;
	}
	initrd_lf2_uninstall(initrd_handle);
	BS->UnloadImage(child);
	return err;
}
