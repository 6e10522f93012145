/* Hardware the probe touches directly: the 16550 UART at COM1 (0x3f8),
 * control registers, physical memory (identity-mapped), and the ways out:
 * QEMU's isa-debug-exit, UEFI ResetSystem, ACPI S5 on QEMU's PM block,
 * the keyboard-controller reset and finally a triple fault. */
#include "probe.h"

#define COM1 0x3f8u
#define UART_LSR_THRE 0x20u
#define UART_SPIN_MAX 100000u
#define QEMU_PM1A_CNT 0x604u     /* QEMU q35 (ICH9) and i440fx (PIIX4) PM base 0x600 + 4 */
#define PM1_SLP_EN (1u << 13)     /* with SLP_TYP 0: QEMU's S5 */
#define KBC_CMD 0x64u
#define KBC_PULSE_RESET 0xfeu

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline void outw(uint16_t port, uint16_t v)
{
	__asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

/* 115200 8N1, FIFOs on, no interrupts (divisor 1 from the 1.8432 MHz clock). */
void serial_init(void)
{
	outb(COM1 + 1, 0x00); /* IER: no interrupts */
	outb(COM1 + 3, 0x80); /* LCR: DLAB */
	outb(COM1 + 0, 0x01); /* DLL */
	outb(COM1 + 1, 0x00); /* DLM */
	outb(COM1 + 3, 0x03); /* LCR: 8N1 */
	outb(COM1 + 2, 0xc7); /* FCR: enable, clear, 14-byte threshold */
	outb(COM1 + 4, 0x03); /* MCR: DTR, RTS */
}

static void serial_putc(char c)
{
	/* Bounded: an absent UART must not hang the probe. */
	for (unsigned i = 0; i < UART_SPIN_MAX && !(inb(COM1 + 5) & UART_LSR_THRE); i++)
		;
	outb(COM1, (uint8_t)c);
}

void serial_puts(const char *s)
{
	for (; *s; s++)
		serial_putc(*s);
}

uint64_t read_cr3(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
	return v;
}

uint64_t read_cr4(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

/* Physical memory is identity-mapped (checked separately): a read is a copy.
 * A wild pointer faults; the loader's IDT (or a triple fault) decides what
 * follows, and the test harness reports a missing probe line. */
bool mem_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	(void)ctx;
	memcpy(buf, (const void *)(uintptr_t)addr, len);
	return true;
}

void probe_poweroff(unsigned exit_value, EFI_SYSTEM_TABLE *st)
{
	outb(PROBE_EXIT_PORT, (uint8_t)exit_value);
	/* Not QEMU with isa-debug-exit: runtime services work before and after
	 * ExitBootServices while no virtual map was set; 32-bit firmware's only
	 * from 32-bit code, which the probe has left. */
	if (st && probe_systab_bits(mem_read, NULL, (uintptr_t)st) == 64 && st->RuntimeServices)
		st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	outw(QEMU_PM1A_CNT, PM1_SLP_EN);
	outb(KBC_CMD, KBC_PULSE_RESET);
	/* Triple fault: an empty IDT and an exception. */
	static const struct __attribute__((packed)) { uint16_t limit; uint64_t base; } no_idt = { 0, 0 };
	__asm__ volatile("lidt %0; int3" : : "m"(no_idt));
	for (;;)
		__asm__ volatile("cli; hlt");
}
