/* AArch64 firmware (UEFI 2.10 §2.3.6): Linux boots by its EFI stub alone
 * (the kernel's Documentation/arch/arm64/booting.rst; its Image carries a PE
 * header), which boot_stub.c starts as on x86. Handover and legacy boot
 * are x86 boot protocols: plan_scheme_on() refuses them with FW_AA64 and the
 * x86 code that carries them out is not linked (Makefile: X86_EFI_SRCS);
 * these keep boot_start()'s switch whole. */
#include "arch.h"

EFI_STATUS boot_handover(const struct boot_job *job)
{
	return EFI_UNSUPPORTED;
}

EFI_STATUS boot_legacy(const struct boot_job *job)
{
	return EFI_UNSUPPORTED;
}

/* AArch64 firmware loads AArch64 images itself, and no other kind has an
 * entry it could take. */
EFI_STATUS boot_stub_foreign(const struct boot_job *job)
{
	return log_error_status(EFI_UNSUPPORTED, "%s: not an AArch64 EFI application", job->kernel_path);
}
