/* What differs between the x86-64, the IA-32 and the AArch64 build of the
 * firmware glue: how each scheme enters the kernel (boot.rst "EFI Handover
 * Protocol", "64-bit Boot Protocol", "32-bit Boot Protocol"). One of
 * arch_x64.c, arch_ia32.c and arch_aa64.c is linked (Makefile: *_x64.c,
 * *_ia32.c, *_aa64.c); AArch64 has the stub scheme alone, and links none of
 * the handover and legacy code (Makefile: X86_EFI_SRCS). */
#ifndef EFI_ARCH_H
#define EFI_ARCH_H

#include "boot.h"
#include "core/idmap.h"

#if defined(__i386__)
#define PE_MACHINE_NATIVE PE_MACHINE_I386
#define ARCH_EFI_SUFFIX "ia32.efi"     /* UEFI 2.10 §3.5.1.1's names */
#elif defined(__aarch64__)
#define PE_MACHINE_NATIVE PE_MACHINE_AA64
#define ARCH_EFI_SUFFIX "aa64.efi"
#else
#define PE_MACHINE_NATIVE PE_MACHINE_X64
#define ARCH_EFI_SUFFIX "x64.efi"
#endif

/**
 * arch_handover_enter() - call the kernel's handover entry for this
 * firmware's word size (handover_offset + 512 in 64-bit mode with the System
 * V convention; handover_offset itself in 32-bit mode with cdecl). Boot
 * services stay up. Returns only if the kernel's stub failed early.
 */
void arch_handover_enter(EFI_HANDLE image, uint64_t kernel_addr, uint32_t handover_offset, struct boot_params *bp);

/**
 * arch_kernel_enter() - legacy boot's jump, after ExitBootServices: the 64-bit
 * entry (load address + 0x200, long mode) or the 32-bit one (the load
 * address, flat protected mode, paging off), interrupts off, boot_params in
 * rsi/esi.
 */
__attribute__((noreturn)) void arch_kernel_enter(uint64_t kernel_addr, struct boot_params *bp);

/**
 * arch_move_paging() - the paging levels of the identity map the move of a
 * kernel that is not relocatable runs on (src/core/idmap.h): 4, or 5 under
 * CR4.LA57, on x86-64; 0 on IA-32, where paging is off for the move.
 */
int arch_move_paging(void);

/**
 * arch_move_begin() - after ExitBootServices, before the move: interrupts
 * off, no IDT (a fault or an NMI resets the machine rather than run a
 * firmware handler the move may have overwritten), and off the firmware's
 * page tables: onto the loader's own at @cr3 (x86-64; global TLB entries
 * flushed) or paging off (IA-32, @cr3 unused). The GDT is read only when a
 * segment register is loaded: arch_kernel_enter() loads its own first.
 */
void arch_move_begin(uint64_t cr3);

/**
 * boot_stub_foreign() - the stub scheme for an image the firmware cannot
 * load itself (another machine type): a 64-bit kernel's IA-32 ".compat"
 * entry on 32-bit firmware. Returns only on failure, everything undone.
 */
EFI_STATUS boot_stub_foreign(const struct boot_job *job);

#endif
