/* Entry points of the probe payload (boot.rst "32-bit boot protocol",
 * "64-bit boot protocol", "EFI Handover Protocol"): each records how it was
 * entered, then all share one path: own stack, read RFLAGS, zero .bss,
 * apply relocations, probe_main(). Offsets are fixed by probe.lds. */

	.section .head.entry32, "ax"
	.code32
	/* 32-bit entry (boot.rst "32-bit boot protocol": protected mode, paging
	 * off, esi = boot_params, no stack promised). The real code is in
	 * .text: the manifest follows at 0xc0. */
	.globl entry32
entry32:
	jmp boot32

	.code64
	.section .head.entry64, "ax"
	/* 64-bit entry: rsi = boot_params; the loader's stack is not ours to use. */
	.globl entry64
entry64:
	xor %r12d, %r12d		/* PROBE_ENTRY_LEGACY64 */
	mov %rsi, %r13
	xor %r14d, %r14d
	xor %r15d, %r15d
	jmp common

	.section .head.handover, "ax"
	/* Handover entry, System V ABI: rdi = image handle, rsi = system
	 * table, rdx = boot_params. Interrupts stay as they are. */
	.globl handover64
handover64:
	mov $1, %r12d			/* PROBE_ENTRY_HANDOVER */
	mov %rdx, %r13
	mov %rdi, %r14
	mov %rsi, %r15
	jmp common

	.text
	/* 32-bit entry: record EFLAGS, then build identity page tables for the
	 * first 4 GiB (2 MiB pages), enable PAE + long mode + paging, load a
	 * GDT with a 64-bit code segment and continue in 64-bit mode.
	 * boot_params.scratch (0x1e4) is the 4-byte stack the protocol offers
	 * until we know where we are. */
	.code32
boot32:
	lea 0x1e8(%esi), %esp
	pushfl
	pop %ebx			/* ebx = EFLAGS at entry, kept to the end */
	cli
	call 1f
1:	pop %ebp			/* ebp = run-time address of 1b */
	lea (stack_top - 1b)(%ebp), %esp
	lea (pt32 - 1b)(%ebp), %edx	/* PML4, PDPT, 4 PDs: 6 pages */
	mov %edx, %edi
	xor %eax, %eax
	mov $(6 * 1024), %ecx
	rep stosl
	lea 0x1003(%edx), %eax
	mov %eax, (%edx)		/* PML4[0] -> PDPT */
	lea 0x2003(%edx), %eax
	mov %eax, 0x1000(%edx)		/* PDPT[0..3] -> PD0..3 */
	add $0x1000, %eax
	mov %eax, 0x1008(%edx)
	add $0x1000, %eax
	mov %eax, 0x1010(%edx)
	add $0x1000, %eax
	mov %eax, 0x1018(%edx)
	lea 0x2000(%edx), %edi
	mov $0x83, %eax			/* present, writable, 2 MiB page */
	mov $2048, %ecx
2:	mov %eax, (%edi)
	add $0x200000, %eax
	add $8, %edi
	loop 2b
	mov %cr4, %eax
	or $0x20, %eax			/* CR4.PAE */
	mov %eax, %cr4
	mov %edx, %cr3
	mov $0xc0000080, %ecx		/* EFER.LME */
	rdmsr
	or $0x100, %eax
	wrmsr
	lea (gdt64 - 1b)(%ebp), %eax
	mov %eax, (gdt64_ptr + 2 - 1b)(%ebp)
	lgdt (gdt64_ptr - 1b)(%ebp)
	mov %cr0, %eax
	or $0x80000001, %eax		/* CR0.PG | CR0.PE */
	mov %eax, %cr0
	lea (boot32_long - 1b)(%ebp), %eax
	push $0x10
	push %eax
	lret

	.code64
boot32_long:
	mov $0x18, %eax
	mov %eax, %ds
	mov %eax, %es
	mov %eax, %ss
	mov %eax, %fs
	mov %eax, %gs
	mov $3, %r12d			/* PROBE_ENTRY_BOOT32 */
	mov %esi, %r13d
	xor %r14d, %r14d
	xor %r15d, %r15d
	mov %ebx, %ebx			/* zero-extend the saved EFLAGS */
	jmp common_flags_known

	/* 64-bit entries: our own stack first, then RFLAGS. */
common:
	cld
	lea stack_top(%rip), %rsp
	pushfq
	pop %rbx
common_flags_known:
	cld
	lea stack_top(%rip), %rsp
	lea _bss(%rip), %rdi
	lea _ebss(%rip), %rcx
	sub %rdi, %rcx
	xor %eax, %eax
	rep stosb
	lea _start(%rip), %rdi
	call probe_relocate
	mov %r12d, %edi
	mov %r14, %rsi
	mov %r15, %rdx
	mov %r13, %rcx
	mov %rbx, %r8
	call probe_main
5:	cli
	hlt
	jmp 5b

	.section .head.manifest, "a"
	.globl probe_manifest
	.hidden probe_manifest
probe_manifest:
	.ascii "HANDOFFPROBE"
	.long 0
	.space 0x110

	.section .head.gdt, "a"
	.balign 8
gdt64:
	.quad 0
	.quad 0
	.quad 0x00af9a000000ffff	/* 0x10: 64-bit code */
	.quad 0x00cf92000000ffff	/* 0x18: flat data */
gdt64_ptr:
	.word gdt64_ptr - gdt64 - 1
	.long 0

	.bss
	.balign 16
stack:
	.space 0x10000
stack_top:

	/* Not zeroed with .bss: in use while the rest is cleared. */
	.section .probe_pt, "aw", @nobits
	.balign 4096
pt32:
	.space 6 * 4096

	.section .note.GNU-stack, "", @progbits
