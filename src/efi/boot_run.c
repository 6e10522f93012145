/* One path from a resolved plan to its scheme, for the loader and the stub:
 * the command line's forms (cmdline_forms_make(), the one place a line is
 * refused or becomes what is measured and handed over), verify and measure
 * PCR 4 (src/efi/verify.c), measure the command line (PCR 12) only once the
 * image is accepted (and a UKI's addons' and SMBIOS lines, and the /.extra
 * archives of its companion files or an entry's "extra" files, after it),
 * then the scheme. A measurement that cannot be made stops the boot (src/efi/tpm.c). */
#include "boot.h"
#include "measure.h"

/* The addons' line, after the command line, as one more PCR 12 event
 * (systemd-stub: all addons' lines joined, measured once), then the SMBIOS
 * one; each only when there is one. */
static EFI_STATUS measure_extra(const char *line)
{
	struct cmdline_forms f = { 0 };
	EFI_STATUS err;

	if (!line || !*line)
		return EFI_SUCCESS;
	err = cmdline_forms_make(line, &f);

	if (!EFI_ERROR(err))
		err = measure_cmdline_pcr12(f.utf16, f.utf16_size);
	cmdline_forms_free(&f);
	return err;
}

EFI_STATUS boot_verify(struct boot_job *job, EFI_HANDLE *ret_child)
{
	EFI_STATUS err;

	*ret_child = NULL;
	cmdline_forms_free(&job->cmdline_forms); /* the stub verifies again after a refusal */
	err = cmdline_forms_make(job->cmdline, &job->cmdline_forms);
	if (!EFI_ERROR(err))
		err = image_verify(job, ret_child);
	if (EFI_ERROR(err))
		return err;
	if (job->plan.trust.measure_pcr12)
		err = measure_cmdline_pcr12(job->cmdline_forms.utf16, job->cmdline_forms.utf16_size);
	if (!EFI_ERROR(err))
		err = measure_extra(job->cmdline_addons);
	if (!EFI_ERROR(err))
		err = measure_extra(job->cmdline_smbios);
	for (size_t i = 0; i < job->n_measure_after && !EFI_ERROR(err); i++) {
		const struct boot_measure *m = &job->measure_after[i];

		err = tpm_measure_ipl_ascii(m->pcr, m->desc, m->data, m->size);
	}
	if (EFI_ERROR(err) && *ret_child)
		BS->UnloadImage(*ret_child);
	return err;
}

EFI_STATUS boot_start(const struct boot_job *job, EFI_HANDLE child)
{
	switch (job->plan.scheme) {
	case SCHEME_STUB: return boot_stub(job, child);
	case SCHEME_HANDOVER: return boot_handover(job);
	case SCHEME_LEGACY: return boot_legacy(job);
	default: return EFI_INVALID_PARAMETER;
	}
}

EFI_STATUS boot_run(struct boot_job *job)
{
	EFI_HANDLE child = NULL;
	EFI_STATUS err = boot_verify(job, &child);

	return EFI_ERROR(err) ? err : boot_start(job, child);
}
