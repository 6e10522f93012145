/* When the kernel's EFI stub gives up before ExitBootServices it calls
 * Exit() on the handle it was started with. For an image the firmware
 * started, Exit() returns to StartImage()'s caller. The loader starts the
 * handover entry itself (handle: the loader's own image, whose Exit() would
 * end the loader) and, on 32-bit firmware, the ".compat" entry on a handle it
 * made (which the firmware's Exit() refuses, and Linux's stub then halts).
 * Both come back here instead, as Exit() does for StartImage (UEFI 2.10
 * §7.4.5): the entry's stack is left behind by a long jump, the menu shows
 * why. Not after the entry called ExitBootServices: then the only way back
 * is a reset (§7.4.6). */
#include "exit_guard.h"
#include "exit_boot.h"
#include "core/crc32.h"
#include "core/log.h"
#include "core/str16.h"

#define BS_HEADER_SIZE_MAX 4096u   /* UEFI 2.10's table is 376 bytes (x64) */
#define EXIT_DATA_SHOWN 200        /* characters of ExitData in the message */

static struct exit_guard *active;  /* Exit() has no context pointer */

/* setjmp()/longjmp() of our own: the callee-saved registers of this ABI, the
 * stack pointer after the return and the return address. Clang's
 * __builtin_setjmp() keeps none of Microsoft's callee-saved RSI and RDI, which
 * the x86-64 loader's code held live across it. The buffer is
 * struct exit_guard.jmp. */
#if defined(__x86_64__) && defined(_WIN32)
#define JB_ARG "%rcx"           /* Microsoft x64: RBX RBP RDI RSI R12-R15 */
#elif defined(__x86_64__)
#define JB_ARG "%rdi"           /* System V (host tests): RBX RBP R12-R15 */
#endif

#ifdef __x86_64__
static __attribute__((naked, returns_twice)) int guard_setjmp(void **jb)
{
	__asm__("movq %rbx, 0(" JB_ARG ")\n\t"
		"movq %rbp, 8(" JB_ARG ")\n\t"
		"movq %rdi, 16(" JB_ARG ")\n\t"
		"movq %rsi, 24(" JB_ARG ")\n\t"
		"movq %r12, 32(" JB_ARG ")\n\t"
		"movq %r13, 40(" JB_ARG ")\n\t"
		"movq %r14, 48(" JB_ARG ")\n\t"
		"movq %r15, 56(" JB_ARG ")\n\t"
		"leaq 8(%rsp), %rdx\n\t"
		"movq %rdx, 64(" JB_ARG ")\n\t"
		"movq (%rsp), %rdx\n\t"
		"movq %rdx, 72(" JB_ARG ")\n\t"
		"xorl %eax, %eax\n\t"
		"ret");
}

static __attribute__((naked, noreturn)) void guard_longjmp(void **jb)
{
	__asm__("movq " JB_ARG ", %rax\n\t"
		"movq 0(%rax), %rbx\n\t"
		"movq 8(%rax), %rbp\n\t"
		"movq 16(%rax), %rdi\n\t"
		"movq 24(%rax), %rsi\n\t"
		"movq 32(%rax), %r12\n\t"
		"movq 40(%rax), %r13\n\t"
		"movq 48(%rax), %r14\n\t"
		"movq 56(%rax), %r15\n\t"
		"movq 64(%rax), %rsp\n\t"
		"movq 72(%rax), %rdx\n\t"
		"movl $1, %eax\n\t"
		"jmpq *%rdx");
}
#else /* IA-32 cdecl: EBX ESI EDI EBP */
static __attribute__((naked, returns_twice)) int guard_setjmp(void **jb)
{
	__asm__("movl 4(%esp), %ecx\n\t"
		"movl %ebx, 0(%ecx)\n\t"
		"movl %esi, 4(%ecx)\n\t"
		"movl %edi, 8(%ecx)\n\t"
		"movl %ebp, 12(%ecx)\n\t"
		"leal 4(%esp), %edx\n\t"
		"movl %edx, 16(%ecx)\n\t"
		"movl (%esp), %edx\n\t"
		"movl %edx, 20(%ecx)\n\t"
		"xorl %eax, %eax\n\t"
		"ret");
}

static __attribute__((naked, noreturn)) void guard_longjmp(void **jb)
{
	__asm__("movl 4(%esp), %ecx\n\t"
		"movl 0(%ecx), %ebx\n\t"
		"movl 4(%ecx), %esi\n\t"
		"movl 8(%ecx), %edi\n\t"
		"movl 12(%ecx), %ebp\n\t"
		"movl 16(%ecx), %esp\n\t"
		"movl $1, %eax\n\t"
		"jmpl *20(%ecx)");
}
#endif

bool bs_table_hookable(const EFI_BOOT_SERVICES *bs)
{
	return bs->Hdr.HeaderSize >= sizeof(*bs) && bs->Hdr.HeaderSize <= BS_HEADER_SIZE_MAX;
}

void bs_table_crc_update(EFI_BOOT_SERVICES *bs)
{
	bs->Hdr.CRC32 = 0;
	bs->Hdr.CRC32 = crc32(0, bs, bs->Hdr.HeaderSize);
}

static EFI_STATUS EFIAPI guard_exit(EFI_HANDLE image, EFI_STATUS status, UINTN data_size, CHAR16 *data)
{
	struct exit_guard *g = active;

	/* after ExitBootServices not even another image's Exit() goes to the firmware */
	if (image != g->handle && !g->exit_boot_called)
		return g->exit(image, status, data_size, data);
	g->status = status;
	g->data_size = data ? data_size : 0;
	g->data = data;
	guard_longjmp(g->jmp);
}

static EFI_STATUS EFIAPI guard_exit_boot_services(EFI_HANDLE image, UINTN map_key)
{
	struct exit_guard *g = active;

	g->exit_boot_called = true; /* before: a failed call may have stopped things too */
	return g->exit_boot_services(image, map_key);
}

bool exit_guard_exit_boot_called(void)
{
	return active && active->exit_boot_called;
}

/* The hooks in @bs, or the firmware's again; the table's CRC32 after (§4.2). */
static void guard_hook(struct exit_guard *g, EFI_EXIT exit, EFI_EXIT_BOOT_SERVICES exit_boot_services)
{
	g->bs->Exit = exit;
	g->bs->ExitBootServices = exit_boot_services;
	bs_table_crc_update(g->bs);
}

bool exit_guard_call(struct exit_guard *g, EFI_SYSTEM_TABLE *st, EFI_HANDLE handle, exit_guard_fn fn, void *ctx)
{
	struct exit_guard *volatile guard = g;
	volatile bool gave_up = false;

	*g = (struct exit_guard){ .st = st, .bs = st->BootServices, .handle = handle };
	if (active || !bs_table_hookable(g->bs)) {
		fn(ctx);
		return false;
	}
	g->exit = g->bs->Exit;
	g->exit_boot_services = g->bs->ExitBootServices;
	active = g;
	guard_hook(g, guard_exit, guard_exit_boot_services);
	if (guard_setjmp(g->jmp) == 0)
		fn(ctx);
	else
		gave_up = true;
	g = guard;
	/* an Exit() hook installed inside (timer_quiet.c) was undone there */
	guard_hook(g, g->exit, g->exit_boot_services);
	active = NULL;
	/* a return is giving up too, with no status of its own */
	if (g->exit_boot_called)
		exit_boot_dead_end(g->st, gave_up ? g->status : EFI_LOAD_ERROR, "the kernel's EFI stub gave up");
	return gave_up;
}

EFI_STATUS exit_guard_report(struct exit_guard *g, const char *what)
{
	EFI_STATUS status = EFI_ERROR(g->status) ? g->status : EFI_LOAD_ERROR;
	char *text = NULL;

	if (g->data && g->data_size >= sizeof(CHAR16))
		text = str16_to_8(g->data, MIN(g->data_size / sizeof(CHAR16), (UINTN)EXIT_DATA_SHOWN));
	log_error_status(status, "%s: the kernel's EFI stub gave up (Exit: %s)%s%s", what,
			 efi_status_str(g->status), text && text[0] ? ": " : "", text ? text : "");
	mem_free(text);
	if (g->data)
		g->bs->FreePool(g->data);
	g->data = NULL;
	return status;
}
