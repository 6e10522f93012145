/* Entry points of the probe payload (boot.rst "32-bit boot protocol",
 * "64-bit boot protocol", "EFI Handover Protocol"; Linux's .compat IA-32 PE
 * entry for mixed mode): each records how it was entered, then all share one
 * path: own stack, read RFLAGS, zero .bss, apply relocations, probe_main().
 * The 32-bit EFI entries first ask the 32-bit firmware what they need
 * (src/probe/ia32/gather.c, linked in as a blob) and then, like the 32-bit
 * boot protocol entry, switch to long mode. Offsets are fixed by probe.lds. */

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

	.code32
	.section .head.handover32, "ax"
	/* 32-bit handover entry (handover_offset), cdecl from 32-bit firmware:
	 * image handle, system table, boot_params on the stack. */
	.globl handover32
handover32:
	pushfl
	pop %ebx			/* ebx = EFLAGS at entry, kept to the end */
	mov 4(%esp), %ecx
	mov 8(%esp), %edx
	mov 12(%esp), %esi
	mov $4, %edi			/* PROBE_ENTRY_HANDOVER32 */
	xor %eax, %eax			/* boot_params given: no LoadOptions wanted */
	jmp efi32

	.code64
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

	.code32
	.section .head.pe32, "ax"
	/* The IA-32 PE entry the image's .compat section names: cdecl from
	 * 32-bit firmware or a loader, image handle and system table. */
	.globl pe32
pe32:
	pushfl
	pop %ebx
	mov 4(%esp), %ecx
	mov 8(%esp), %edx
	xor %esi, %esi			/* no boot_params: built from LoadOptions */
	mov $5, %edi			/* PROBE_ENTRY_STUB32 */
	mov $1, %eax
	jmp efi32

	.text
	/* 32-bit EFI entries: ecx = image, edx = system table, esi =
	 * boot_params or 0, edi = entry, eax = want LoadOptions, ebx = EFLAGS.
	 * probe32_gather(report, image, systab, want) on the caller's stack,
	 * with boot services still up; then long mode. */
	.code32
efi32:
	cld
	call 1f
1:	pop %ebp
	push %ebx
	push %edi
	push %esi
	push %edx
	push %ecx
	push %eax
	push %edx
	push %ecx
	lea (probe32_area - 1b)(%ebp), %eax
	push %eax
	call probe32_blob
	add $16, %esp
	pop %ecx
	pop %edx
	pop %esi
	pop %edi
	pop %ebx
	jmp long_mode32

	/* 32-bit boot protocol entry. boot_params.scratch (0x1e4) is the
	 * 4-byte stack the protocol offers until we know where we are. */
boot32:
	lea 0x1e8(%esi), %esp
	pushfl
	pop %ebx			/* ebx = EFLAGS at entry, kept to the end */
	mov $3, %edi			/* PROBE_ENTRY_BOOT32 */
	xor %ecx, %ecx
	xor %edx, %edx

	/* From 32-bit protected mode: ebx = EFLAGS at entry, edi = entry, esi
	 * = boot_params, ecx = image handle, edx = system table. Record them,
	 * build identity page tables for the first 4 GiB (2 MiB pages), turn
	 * paging off (32-bit firmware may run with it on; everything is
	 * identity-mapped) and on again with PAE + long mode, load a GDT with a
	 * 64-bit code segment and continue in 64-bit mode. */
long_mode32:
	cli
	call 1f
1:	pop %ebp			/* ebp = run-time address of 1b */
	mov %ecx, (entry_regs + 0 - 1b)(%ebp)
	mov %edx, (entry_regs + 4 - 1b)(%ebp)
	mov %edi, (entry_regs + 8 - 1b)(%ebp)
	lea (stack_top - 1b)(%ebp), %esp
	mov %cr0, %eax
	and $0x7fffffff, %eax		/* CR0.PG off */
	mov %eax, %cr0
	/* PML4, PDPT, 4 PDs: 6 pages, page-aligned at run time (the IA-32 PE
	 * entry runs the payload where the image was loaded, which need not
	 * be a page boundary) */
	lea (pt32 + 0xfff - 1b)(%ebp), %edx
	and $~0xfff, %edx
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
	mov entry_regs + 8(%rip), %r12d	/* the entry */
	mov %esi, %r13d			/* boot_params (32 bits: zero-extended) */
	mov entry_regs + 0(%rip), %r14d	/* image handle */
	mov entry_regs + 4(%rip), %r15d	/* system table */
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

	/* src/probe/ia32/gather.c, a flat IA-32 blob: probe32_gather at 0. */
	.section .text.gather32, "ax"
	.balign 16
probe32_blob:
	.incbin GATHER32_BIN

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
	.space 7 * 4096			/* 6 pages and room to align them */
	/* image handle, system table, entry of the 32-bit entries */
entry_regs:
	.space 16
	/* what probe32_gather learned (struct probe32_report, src/probe/efi32.h) */
	.balign 16
	.globl probe32_area
	.hidden probe32_area
probe32_area:
	.space 80 + 2048 + 0x4000

	.section .note.GNU-stack, "", @progbits
