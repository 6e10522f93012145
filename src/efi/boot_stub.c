/* EFI boot stub scheme (boot.rst "EFI stub"): the kernel is an EFI
 * application, already loaded from the bytes read (and so verified and
 * measured) by image_verify() in src/efi/verify.c. LoadOptions = the command
 * line in UCS-2; initrds offered via LoadFile2; StartImage. If the image
 * returns, everything is undone. On 32-bit firmware, which does not load an
 * x86-64 image, a 64-bit kernel goes through its .compat IA-32 entry instead
 * (boot_stub_foreign(), src/efi/arch.h). */
#include "arch.h"

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

static EFI_STATUS set_load_options(EFI_HANDLE child, const char *cmdline, CHAR16 **ret_opts)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	CHAR16 *opts;
	EFI_STATUS err;

	err = BS->HandleProtocol(child, &loaded_image_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "started image has no loaded image protocol: %m");
	opts = str8_to_16(cmdline, /* path= */ false);
	if (!opts)
		return EFI_OUT_OF_RESOURCES;
	li->LoadOptions = opts;
	li->LoadOptionsSize = (uint32_t)((strlen16(opts) + 1) * sizeof(CHAR16));
	*ret_opts = opts;
	return EFI_SUCCESS;
}

EFI_STATUS boot_stub(const struct boot_job *job, EFI_HANDLE child)
{
	_cleanup_free_ CHAR16 *opts = NULL;
	EFI_HANDLE initrd_handle = NULL;
	EFI_STATUS err;

	if (job->info.is_pe && job->info.pe.machine != PE_MACHINE_NATIVE) {
		if (child) /* a firmware that could load it: the bytes are the same */
			BS->UnloadImage(child);
		return boot_stub_foreign(job);
	}
	err = set_load_options(child, job->cmdline, &opts);
	if (!EFI_ERROR(err) && job->initrds && job->initrds->n)
		err = initrd_lf2_install(job->initrds, &initrd_handle);
	if (!EFI_ERROR(err)) {
		err = BS->StartImage(child, NULL, NULL);
		log_error_status(err, "%s: the image returned (%m) instead of starting a kernel", job->kernel_path);
		if (!EFI_ERROR(err))
			err = EFI_LOAD_ERROR;
	}
	initrd_lf2_uninstall(initrd_handle);
	BS->UnloadImage(child);
	return err;
}
