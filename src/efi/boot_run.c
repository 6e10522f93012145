/* One path from a resolved plan to its scheme, for the loader and the stub:
 * verify (src/efi/verify.c), measure the command line (PCR 12) only once
 * the image is accepted, then the scheme. */
#include "boot.h"
#include "measure.h"

static void measure_cmdline(const struct boot_job *job)
{
	_cleanup_free_ CHAR16 *opts = str8_to_16(job->cmdline, /* path= */ false);

	if (opts)
		measure_cmdline_pcr12(opts, (strlen16(opts) + 1) * sizeof(CHAR16));
	else
		log_warning("TPM: no memory to measure the command line");
}

EFI_STATUS boot_run(const struct boot_job *job)
{
	EFI_HANDLE child = NULL;
	EFI_STATUS err;

	err = image_verify(job, &child);
	if (EFI_ERROR(err))
		return err;
	if (job->plan.trust.measure_pcr12)
		measure_cmdline(job);
	switch (job->plan.scheme) {
	case SCHEME_STUB: return boot_stub(job, child);
	case SCHEME_HANDOVER: return boot_handover(job);
	case SCHEME_LEGACY: return boot_legacy(job);
	default: return EFI_INVALID_PARAMETER;
	}
}
