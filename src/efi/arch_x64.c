/* x86-64 firmware: the 64-bit handover entry (handover_offset + 512, System V
 * calling convention: the EFI toolchain defaults to the Microsoft one) and
 * the 64-bit boot protocol's jump (boot.rst "64-bit Boot Protocol"). */
#include "arch.h"

#define CR4_PGE (1u << 7)       /* Intel SDM Vol. 3A §2.5 */
#define CR4_LA57 (1u << 12)

typedef void (__attribute__((sysv_abi)) *handover64_fn)(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab,
							struct boot_params *bp);

void arch_handover_enter(EFI_HANDLE image, uint64_t kernel_addr, uint32_t handover_offset, struct boot_params *bp)
{
	handover64_fn entry = (handover64_fn)(uintptr_t)(kernel_addr + handover_offset + HANDOVER_ENTRY64_EXTRA);

	entry(image, ST, bp);
}

/* The GDT the 64-bit entry expects (boot.rst): 0x10 flat 64-bit code, 0x18 flat data. */
static const uint64_t boot_gdt[] __attribute__((aligned(16))) = {
	0, 0,
	0x00af9a000000ffffull, /* 0x10: code, long mode, DPL 0 */
	0x00cf92000000ffffull, /* 0x18: data, 4 GiB, writable */
};

void arch_kernel_enter(uint64_t kernel_addr, struct boot_params *bp)
{
	uint64_t entry = kernel_addr + KERNEL_ENTRY64_OFFSET;
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) gdtr = {
		sizeof(boot_gdt) - 1, (uintptr_t)boot_gdt,
	};

	__asm__ volatile(
		"cli\n\t"
		"lgdt %[gdtr]\n\t"
		"movl $0x18, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		"movl %%eax, %%fs\n\t"
		"movl %%eax, %%gs\n\t"
		"pushq $0x10\n\t"
		"pushq %[entry]\n\t"
		"lretq"
		: : [gdtr] "m"(gdtr), [entry] "r"(entry), "S"(bp) : "rax", "memory");
	__builtin_unreachable();
}

int arch_move_paging(void)
{
	uint64_t cr4;

	__asm__ volatile("movq %%cr4, %0" : "=r"(cr4));
	return cr4 & CR4_LA57 ? 5 : 4;
}

void arch_move_begin(uint64_t cr3)
{
	struct { uint16_t limit; uint64_t base; } __attribute__((packed)) no_idt = { 0, 0 };

	/* clearing CR4.PGE flushes global entries too (Intel SDM Vol. 3A §4.10.4.1) */
	__asm__ volatile(
		"cli\n\t"
		"lidt %[idt]\n\t"
		"movq %%cr4, %%rax\n\t"
		"movq %%rax, %%rdx\n\t"
		"andq %[no_pge], %%rdx\n\t"
		"movq %%rdx, %%cr4\n\t"
		"movq %[cr3], %%cr3\n\t"
		"movq %%rax, %%cr4"
		: : [idt] "m"(no_idt), [cr3] "r"(cr3), [no_pge] "i"(~CR4_PGE) : "rax", "rdx", "memory");
}

/* x86-64 firmware loads x86-64 images itself; plan_scheme_on() offers the
 * stub scheme for nothing else. */
EFI_STATUS boot_stub_foreign(const struct boot_job *job)
{
	return log_error_status(EFI_UNSUPPORTED, "%s: not an x86-64 EFI application", job->kernel_path);
}
