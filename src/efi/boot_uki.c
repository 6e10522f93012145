/* A UKI whose stub is handoff's own, booted from the menu (issue 24): the
 * loader has the whole file in its read buffer, so instead of LoadImage
 * copying every section again and the stub starting, the loader runs the
 * stub's own path (uki_run(), src/efi/uki_run.c) on the buffer: .linux,
 * .initrd and .cmdline are served from where they were read (their file
 * offsets), one copy of the file in memory. What starting the image would
 * have done is done all the same: image_verify() loads it from the buffer to
 * have it verified (Secure Boot) and measured into PCR 4 (the firmware's
 * event, as when it is started), then it is unloaded, as handover and legacy
 * do with a kernel (src/core/trust.c); the stub's path measures PCR 11 and
 * 12 and sets the Stub* variables and /.extra files as from inside the image.
 * Any other stub (systemd-stub) does more than handoff knows of: started. */
#include "arch.h"
#include "uki_run.h"
#include <efi/proto/loaded_image.h>

bool boot_uki_applies(const struct boot_job *job)
{
	static struct uki_sections u; /* large: off the firmware's stack */

	/* handoff-stub.efi is built for x86-64 only (Makefile): handoffia32 starts it */
	if (sizeof(void *) != 8 || job->plan.scheme != SCHEME_STUB || !job->info.is_pe ||
	    job->info.pe.machine != PE_MACHINE_NATIVE || !job->image || job->region.kernel_addr)
		return false;
	if (uki_parse(&job->info.pe, job->image, job->image_size, PE_LAYOUT_FILE, job->kernel_path, &u) !=
		    EFI_SUCCESS ||
	    !uki_stub_is_handoff(&u))
		return false;
	if (!uki_has_sidecars(job->device, job->kernel_path))
		return true;
	log_info("%s: has companion files: started, its stub takes them", job->kernel_path);
	return false;
}

EFI_STATUS boot_uki(const struct boot_job *job, EFI_HANDLE child)
{
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *dp = devpath_for_file(job->device, job->kernel_path);
	/* the image as the stub would see itself, but by file offsets */
	EFI_LOADED_IMAGE_PROTOCOL li = {
		.Revision = EFI_LOADED_IMAGE_PROTOCOL_REVISION,
		.ParentHandle = IH,
		.SystemTable = ST,
		.DeviceHandle = job->device,
		.FilePath = dp,
		.LoadOptionsSize = (uint32_t)job->cmdline_forms.utf16_size,
		.LoadOptions = job->cmdline_forms.utf16,
		.ImageBase = (void *)job->image,
		.ImageSize = job->image_size,
	};

	EFI_HANDLE initrd_handle = NULL;
	EFI_STATUS err = EFI_SUCCESS;

	if (child) /* verified and measured by image_verify(); never started */
		BS->UnloadImage(child);
	if (!dp)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: out of memory", job->kernel_path);
	/* the entry's initrds, offered as boot_stub() offers them to the started image */
	if (job->initrds && job->initrds->n)
		err = initrd_lf2_install(job->initrds, &initrd_handle);
	if (EFI_ERROR(err))
		return err;
	log_info("%s: a UKI of handoff's stub: its sections boot from the buffer read", job->kernel_path);
	err = uki_run(&li, dp, PE_LAYOUT_FILE);
	initrd_lf2_uninstall(initrd_handle);
	return err;
}
