/* IA-32 firmware, 64-bit kernel (mixed mode): the 32-bit handover entry
 * (handover_offset itself, cdecl: image handle, system table, boot_params on
 * the stack; boot.rst "EFI Handover Protocol") and the 32-bit boot protocol's
 * jump (boot.rst "32-bit Boot Protocol": flat 4 GiB segments __BOOT_CS 0x10
 * and __BOOT_DS 0x18, paging off, interrupts off, esi = boot_params,
 * ebp/edi/ebx zero, at the protected-mode kernel's load address). */
#include "arch.h"
#include "timer_quiet.h"

#define CR0_PG 0x80000000u      /* Intel SDM Vol. 3A §2.5 */

typedef void (EFIAPI *handover32_fn)(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab, struct boot_params *bp);

void arch_handover_enter(EFI_HANDLE image, uint64_t kernel_addr, uint32_t handover_offset, struct boot_params *bp)
{
	handover32_fn entry = (handover32_fn)(uintptr_t)(kernel_addr + handover_offset + HANDOVER_ENTRY32_EXTRA);
	struct timer_quiet q;

	timer_quiet_begin(BS, &q); /* the stub runs with interrupts off: timer_quiet.c */
	entry(image, ST, bp);
	timer_quiet_end(&q);
}

/* boot.rst "32-bit Boot Protocol": 0x10 flat 32-bit code (execute/read),
 * 0x18 flat data (read/write), both base 0, limit 4 GiB. */
static const uint64_t boot_gdt32[] __attribute__((aligned(16))) = {
	0, 0,
	0x00cf9a000000ffffull, /* 0x10: code, 32-bit, 4 GiB, DPL 0 */
	0x00cf92000000ffffull, /* 0x18: data, 4 GiB, writable */
};

void arch_kernel_enter(uint64_t kernel_addr, struct boot_params *bp)
{
	struct { uint16_t limit; uint32_t base; } __attribute__((packed)) gdtr = {
		sizeof(boot_gdt32) - 1, (uintptr_t)boot_gdt32,
	};

	/* UEFI runs IA-32 code identity-mapped (UEFI 2.10 §2.3.2), so turning
	 * paging off (if the firmware had it on) changes no address. */
	__asm__ volatile(
		"cli\n\t"
		"lgdtl %[gdtr]\n\t"
		"pushl $0x10\n\t"
		"pushl $1f\n\t"
		"lretl\n"
		"1:\n\t"
		"movl $0x18, %%eax\n\t"
		"movl %%eax, %%ds\n\t"
		"movl %%eax, %%es\n\t"
		"movl %%eax, %%ss\n\t"
		"movl %%eax, %%fs\n\t"
		"movl %%eax, %%gs\n\t"
		"movl %%cr0, %%eax\n\t"
		"andl $0x7fffffff, %%eax\n\t"
		"movl %%eax, %%cr0\n\t"
		"xorl %%ebx, %%ebx\n\t"
		"xorl %%edi, %%edi\n\t"
		"xorl %%ebp, %%ebp\n\t"
		"jmp *%%ecx"
		: : [gdtr] "m"(gdtr), "c"((uint32_t)kernel_addr), "S"(bp) : "eax", "memory");
	__builtin_unreachable();
}

int arch_move_paging(void)
{
	return 0;
}

/* Paging off for the move as for the kernel (UEFI 2.10 §2.3.2: identity-mapped). */
void arch_move_begin(uint64_t cr3)
{
	struct { uint16_t limit; uint32_t base; } __attribute__((packed)) no_idt = { 0, 0 };

	(void)cr3;
	__asm__ volatile(
		"cli\n\t"
		"lidtl %[idt]\n\t"
		"movl %%cr0, %%eax\n\t"
		"andl %[no_pg], %%eax\n\t"
		"movl %%eax, %%cr0\n\t"
		"jmp 1f\n"
		"1:"
		: : [idt] "m"(no_idt), [no_pg] "i"(~CR0_PG) : "eax", "memory");
}
