/* The x86 CPU's own words (x86-64 and IA-32 firmware): the time-stamp
 * counter, and CPUID and the SEV status MSR for src/core/cvm.c (Intel SDM
 * Vol. 2A "CPUID", Vol. 2B "RDTSC", "RDMSR"). */
#include "cpu.h"
#include "core/cvm.h"

static void cpuid_read(uint32_t leaf, struct cpuid_regs *r)
{
	r->eax = leaf;
	r->ecx = 0;
	__asm__ volatile("cpuid" : "+a"(r->eax), "=b"(r->ebx), "+c"(r->ecx), "=d"(r->edx));
}

static uint64_t msr_read(uint32_t msr)
{
	uint32_t lo, hi;

	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return (uint64_t)hi << 32 | lo;
}

static const struct cvm_cpu this_cpu = { cpuid_read, msr_read };

uint64_t cpu_counter(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

bool in_virtual_machine(void)
{
	return cvm_in_vm(&this_cpu);
}

bool in_confidential_vm(void)
{
	return cvm_detect(&this_cpu);
}
