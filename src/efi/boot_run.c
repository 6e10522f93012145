/* One path from a resolved plan to its scheme, for the loader and the stub:
 * verify and measure PCR 4 (src/efi/verify.c), measure the command line
 * (PCR 12) only once the image is accepted, then the scheme. A measurement
 * that cannot be made stops the boot (src/efi/tpm.c). */
#include "boot.h"
#include "measure.h"

EFI_STATUS boot_run(const struct boot_job *job)
{
	EFI_HANDLE child = NULL;
	EFI_STATUS err;

	err = image_verify(job, &child);
	if (EFI_ERROR(err))
		return err;
	if (job->plan.trust.measure_pcr12)
		err = measure_cmdline_pcr12(job->cmdline);
	if (EFI_ERROR(err)) {
		if (child)
			BS->UnloadImage(child);
		return err;
	}
	switch (job->plan.scheme) {
	case SCHEME_STUB: return boot_stub(job, child);
	case SCHEME_HANDOVER: return boot_handover(job);
	case SCHEME_LEGACY: return boot_legacy(job);
	default: return EFI_INVALID_PARAMETER;
	}
}
