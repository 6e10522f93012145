/* Is this a confidential VM (AMD SEV, SEV-ES, SEV-SNP, also under Hyper-V's
 * isolation; Intel TDX)? Its host is not trusted, so what the host says
 * (SMBIOS OEM strings) must not reach the kernel: the detection systemd-boot
 * and systemd-stub make (is_confidential_vm()), from CPUID and the SEV
 * status MSR, read through callbacks so that the host tests feed it. */
#ifndef CORE_CVM_H
#define CORE_CVM_H

#include "platform.h"

struct cpuid_regs {
	uint32_t eax, ebx, ecx, edx;
};

struct cvm_cpu {
	void (*cpuid)(uint32_t leaf, struct cpuid_regs *r); /* sub-leaf 0 */
	uint64_t (*rdmsr)(uint32_t msr);
};

/** cvm_in_vm() - CPUID.1:ECX[31], which every hypervisor sets for its guests. */
bool cvm_in_vm(const struct cvm_cpu *cpu);

/**
 * cvm_detect() - a confidential VM: in a VM (cvm_in_vm()), and on an
 * "AuthenticAMD" CPU either CPUID 0x8000001f says SEV and the SEV status MSR
 * (0xc0010131) has SEV, SEV-ES or SEV-SNP on, or (no SEV leaf: Azure) the
 * "Microsoft Hv" leaves report SNP isolation; on a "GenuineIntel" CPU leaf
 * 0x21 says "IntelTDX    ". The MSR is read only where CPUID says it exists.
 */
bool cvm_detect(const struct cvm_cpu *cpu);

#endif
