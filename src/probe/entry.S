/* Entry points of the probe payload (boot.rst "32-bit boot protocol",
 * "64-bit boot protocol", "EFI Handover Protocol"): each records how it was
 * entered, then all share one path: own stack, read RFLAGS, zero .bss,
 * apply relocations, probe_main(). Offsets are fixed by probe.lds. */

	.section .head.entry32, "ax"
	.code32
	/* 32-bit entry: not supported; say so on COM1 and exit QEMU. */
	.globl entry32
entry32:
	cli
	call 1f
1:	pop %esi
	lea (msg32 - 1b)(%esi), %esi
	mov $0x3f8, %dx
2:	lodsb
	test %al, %al
	jz 3f
	out %al, %dx
	jmp 2b
3:	mov $1, %al
	out %al, $0xf4
4:	hlt
	jmp 4b
msg32:
	.asciz "\r\nHANDOFF-PROBE {\"entry\":\"boot32\",\"errors\":[\"entry32_unsupported\"]}\r\n"

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
common:
	cld
	lea stack_top(%rip), %rsp
	pushfq
	pop %rbx
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

	.bss
	.balign 16
stack:
	.space 0x10000
stack_top:

	.section .note.GNU-stack, "", @progbits
