/* EFI handover protocol (boot.rst "EFI Handover Protocol (deprecated)"):
 * the loader loads kernel, command line and initrd and fills the setup header;
 * the kernel's own code (handover_offset + 512 on x86-64, handover_offset on
 * IA-32: arch_handover_enter) finishes boot_params and calls
 * ExitBootServices. Boot services stay up, so no cli here. */
#include "arch.h"
#include "exit_guard.h"

struct handover_call {
	uint64_t kernel_addr;
	uint32_t offset;
	struct boot_params *bp;
};

static void handover_call(void *ctx)
{
	struct handover_call *c = ctx;

	arch_handover_enter(IH, c->kernel_addr, c->offset, c->bp);
}

EFI_STATUS boot_handover(const struct boot_job *job)
{
	_cleanup_(linux_unload) struct linux_loaded l = { 0 };
	struct handover_call c;
	struct exit_guard g;
	EFI_STATUS err;

	err = linux_load(job, &l);
	if (EFI_ERROR(err))
		return err;
	c = (struct handover_call){ l.kernel_addr, job->info.bz.handover_offset, l.bp };
	/* The kernel only comes back if its stub failed before exiting boot
	 * services: by Exit() on the loader's handle (exit_guard.c) or a return. */
	if (exit_guard_call(&g, ST, IH, handover_call, &c))
		return exit_guard_report(&g, job->kernel_path);
	return log_error_status(EFI_LOAD_ERROR, "%s: the kernel returned from its handover entry", job->kernel_path);
}
