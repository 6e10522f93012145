/* What the loader asks the CPU itself, outside the firmware: one of
 * cpu_x86.c (x86-64 and IA-32) and cpu_aa64.c is linked (Makefile). */
#ifndef EFI_CPU_H
#define EFI_CPU_H

#include "core/platform.h"

/** cpu_counter() - a free-running counter since reset (x86: the TSC; AArch64: CNTVCT_EL0). */
uint64_t cpu_counter(void);

/** in_virtual_machine() - the CPU says a hypervisor runs us (x86: cvm_in_vm()). */
bool in_virtual_machine(void);

/**
 * in_confidential_vm() - a VM whose host is not trusted (x86: cvm_detect()),
 * so what the host says (SMBIOS OEM strings) is ignored.
 */
bool in_confidential_vm(void);

#endif
