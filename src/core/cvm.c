/* Confidential VM detection from CPUID, as systemd's is_confidential_vm():
 * AMD64 APM vol. 3 E.4.17 (0x8000001f: EAX[1] SEV) and vol. 2 15.34.10
 * (SEV_STATUS MSR: bit 0 SEV, 1 SEV-ES, 2 SEV-SNP); Microsoft's "Requirements
 * for Implementing the Microsoft Hypervisor Interface" (0x40000003 EBX[22]
 * isolation, EBX[12] CPU management; 0x4000000c EBX[3:0] isolation type, 2
 * SNP); Intel TDX Module base architecture 11.2 (leaf 0x21 "IntelTDX    "). */
#include "cvm.h"

#define CPUID_FEATURES 0x1u
#define CPUID_HYPERVISOR (1u << 31)
#define CPUID_EXT_MAX 0x80000000u
#define CPUID_AMD_SEV_CAPS 0x8000001fu
#define CPUID_AMD_SEV (1u << 1)
#define MSR_AMD64_SEV 0xc0010131u
#define MSR_SEV_ANY 0x7u /* SEV, SEV-ES, SEV-SNP */
#define CPUID_HV_VENDOR 0x40000000u
#define CPUID_HV_FEATURES 0x40000003u
#define CPUID_HV_ISOLATION_CONFIG 0x4000000cu
#define CPUID_HV_MAX_MIN 0x40000005u
#define CPUID_HV_MAX_MAX 0x4000ffffu
#define HV_ISOLATION (1u << 22)
#define HV_CPU_MANAGEMENT (1u << 12)
#define HV_ISOLATION_TYPE_MASK 0xfu
#define HV_ISOLATION_SNP 2u
#define CPUID_TDX 0x21u

/* The 12 bytes of a vendor signature in registers @a, @b, @c, in that order
 * (a macro: the literal folds into three compares of constants). */
#define SIG_IS(a, b, c, want)                                                           \
	((a) == get_le32((const uint8_t *)(want)) && (b) == get_le32((const uint8_t *)(want) + 4) && \
	 (c) == get_le32((const uint8_t *)(want) + 8))

bool cvm_in_vm(const struct cvm_cpu *cpu)
{
	struct cpuid_regs r;

	cpu->cpuid(CPUID_FEATURES, &r);
	return r.ecx & CPUID_HYPERVISOR;
}

static bool hyperv_snp(const struct cvm_cpu *cpu)
{
	struct cpuid_regs r;

	cpu->cpuid(CPUID_HV_VENDOR, &r);
	if (r.eax < CPUID_HV_MAX_MIN || r.eax > CPUID_HV_MAX_MAX || !SIG_IS(r.ebx, r.ecx, r.edx, "Microsoft Hv"))
		return false;
	cpu->cpuid(CPUID_HV_FEATURES, &r);
	if (!(r.ebx & HV_ISOLATION) || (r.ebx & HV_CPU_MANAGEMENT))
		return false;
	cpu->cpuid(CPUID_HV_ISOLATION_CONFIG, &r);
	return (r.ebx & HV_ISOLATION_TYPE_MASK) == HV_ISOLATION_SNP;
}

static bool amd_sev(const struct cvm_cpu *cpu)
{
	struct cpuid_regs r;

	cpu->cpuid(CPUID_EXT_MAX, &r);
	if (r.eax < CPUID_AMD_SEV_CAPS)
		return false;
	cpu->cpuid(CPUID_AMD_SEV_CAPS, &r);
	if (!(r.eax & CPUID_AMD_SEV))
		return hyperv_snp(cpu); /* Azure hides the leaf from its SEV-SNP guests */
	return cpu->rdmsr(MSR_AMD64_SEV) & MSR_SEV_ANY;
}

static bool intel_tdx(const struct cvm_cpu *cpu, uint32_t max_leaf)
{
	struct cpuid_regs r;

	if (max_leaf < CPUID_TDX)
		return false;
	cpu->cpuid(CPUID_TDX, &r);
	return SIG_IS(r.ebx, r.edx, r.ecx, "IntelTDX    ");
}

bool cvm_detect(const struct cvm_cpu *cpu)
{
	struct cpuid_regs r;

	if (!cvm_in_vm(cpu))
		return false;
	cpu->cpuid(0, &r);
	if (SIG_IS(r.ebx, r.edx, r.ecx, "AuthenticAMD"))
		return amd_sev(cpu);
	if (SIG_IS(r.ebx, r.edx, r.ecx, "GenuineIntel"))
		return intel_tdx(cpu, r.eax);
	return false;
}
