/* The AArch64 CPU's own words: the generic timer's virtual count
 * (CNTVCT_EL0, Arm ARM D11 "The Generic Timer"). AArch64 has no CPUID
 * hypervisor bit: the loader claims no VM (secure-boot-enroll if-safe does
 * not enroll by itself), and no confidential VM (Arm CCA realms are not
 * detected yet). */
#include "cpu.h"

uint64_t cpu_counter(void)
{
	uint64_t v;

	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
	return v;
}

bool in_virtual_machine(void)
{
	return false;
}

bool in_confidential_vm(void)
{
	return false;
}
