/* EFI handover protocol (boot.rst "EFI Handover Protocol (deprecated)"):
 * the loader loads kernel, command line and initrd and fills the setup header;
 * the kernel's own code (handover_offset + 512 on x86-64, handover_offset on
 * IA-32: arch_handover_enter) finishes boot_params and calls
 * ExitBootServices. Boot services stay up, so no cli here. */
#include "arch.h"

EFI_STATUS boot_handover(const struct boot_job *job)
{
	_cleanup_(linux_unload) struct linux_loaded l = { 0 };
	EFI_STATUS err;

	err = linux_load(job, &l);
	if (EFI_ERROR(err))
		return err;
	arch_handover_enter(IH, l.kernel_addr, job->info.bz.handover_offset, l.bp);
	/* The kernel only comes back if its stub failed before exiting boot services. */
	return log_error_status(EFI_LOAD_ERROR, "%s: the kernel returned from its handover entry", job->kernel_path);
}
