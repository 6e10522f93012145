/* One path from a resolved plan to its scheme, for the loader and the stub:
 * the command line's forms (cmdline_forms_make(), the one place a line is
 * refused or becomes what is measured and handed over), verify
 * (src/efi/verify.c), measure the command line (PCR 12) only once the image is
 * accepted, then the scheme. */
#include "boot.h"
#include "measure.h"

static EFI_STATUS boot_run_formed(const struct boot_job *job)
{
	EFI_HANDLE child = NULL;
	EFI_STATUS err;

	err = image_verify(job, &child);
	if (EFI_ERROR(err))
		return err;
	if (job->plan.trust.measure_pcr12)
		measure_cmdline_pcr12(job->cmdline_forms.utf16, job->cmdline_forms.utf16_size);
	switch (job->plan.scheme) {
	case SCHEME_STUB: return boot_stub(job, child);
	case SCHEME_HANDOVER: return boot_handover(job);
	case SCHEME_LEGACY: return boot_legacy(job);
	default: return EFI_INVALID_PARAMETER;
	}
}

EFI_STATUS boot_run(struct boot_job *job)
{
	EFI_STATUS err = cmdline_forms_make(job->cmdline, &job->cmdline_forms);

	if (!EFI_ERROR(err))
		err = boot_run_formed(job);
	cmdline_forms_free(&job->cmdline_forms);
	return err;
}
