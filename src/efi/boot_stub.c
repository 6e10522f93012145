/* EFI boot stub scheme (boot.rst "EFI stub"): the kernel is an EFI
 * application, already loaded from the bytes read (and so verified and
 * measured) by image_verify() in src/efi/verify.c. LoadOptions = the command
 * line in UTF-16; initrds offered via LoadFile2; StartImage. If the image
 * returns, everything is undone. On 32-bit firmware, which does not load an
 * x86-64 image, a 64-bit kernel goes through its .compat IA-32 entry instead
 * (boot_stub_foreign(), src/efi/arch.h). */
#include "arch.h"

static EFI_GUID loaded_image_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* The UTF-16 form the kernel's stub measures into PCR 9 (cmdline_forms_make()). */
static EFI_STATUS set_load_options(EFI_HANDLE child, const struct cmdline_forms *f)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_STATUS err;

	err = BS->HandleProtocol(child, &loaded_image_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "started image has no loaded image protocol: %m");
	li->LoadOptions = f->utf16;
	li->LoadOptionsSize = (uint32_t)f->utf16_size;
	return EFI_SUCCESS;
}

EFI_STATUS boot_stub(const struct boot_job *job, EFI_HANDLE child)
{
	EFI_HANDLE initrd_handle = NULL;
	EFI_STATUS err;

	if (job->info.is_pe && job->info.pe.machine != PE_MACHINE_NATIVE) {
		if (child) /* a firmware that could load it: the bytes are the same */
			BS->UnloadImage(child);
		return boot_stub_foreign(job);
	}
	err = set_load_options(child, &job->cmdline_forms);
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
