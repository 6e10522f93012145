/* The probe payload (docs/probe.md): entry glue and hardware access
 * around src/core/probe_check.c. Freestanding x86-64 ELF code, linked to run
 * at any address (self-relocating, reloc.c). Symbols are hidden so that
 * -fPIE code reaches them PC-relative, never through a GOT. */
#ifndef PROBE_PROBE_H
#define PROBE_PROBE_H

#include "core/probe_check.h"

#pragma GCC visibility push(hidden)

/* Layout of the payload (probe.lds, entry.S); offsets from its start. */
#define PROBE_ENTRY32_OFFSET   0x000u
#define PROBE_MANIFEST_OFFSET  0x0c0u
#define PROBE_ENTRY64_OFFSET   0x200u  /* boot.rst: 64-bit entry */
#define PROBE_HANDOVER_OFFSET  0x200u  /* handover entry = 0x200 + 0x200 */

/* The manifest: mkprobe copies the image's setup header (0x1f1 .. hdr_end)
 * here, so the payload can tell what the loader changed. */
#define PROBE_MANIFEST_MAGIC "HANDOFFPROBE"
#define PROBE_MANIFEST_MAGIC_SIZE 12u
#define PROBE_MANIFEST_HDR_MAX 0x110u
struct probe_manifest {
	char magic[PROBE_MANIFEST_MAGIC_SIZE];
	uint32_t hdr_size;            /* 0 until mkprobe fills it */
	uint8_t hdr[PROBE_MANIFEST_HDR_MAX];
};

/* QEMU isa-debug-exit (iobase 0xf4): QEMU exits with (value << 1) | 1. */
#define PROBE_EXIT_PORT 0xf4u
#define PROBE_EXIT_OK 0u      /* QEMU exit status 1 */
#define PROBE_EXIT_ERRORS 1u  /* QEMU exit status 3 */

extern const struct probe_manifest probe_manifest;
extern char _start[], _bss[], _ebss[], _end[];

/** serial_init() - COM1 at 115200 8N1, FIFOs on, no interrupts. */
void serial_init(void);
/** serial_puts() - write @s to COM1 (each byte waits, boundedly, for the transmitter). */
void serial_puts(const char *s);
/** read_cr3() - the page-table root in use. */
uint64_t read_cr3(void);
/** read_cr4() - CR4 (bit 12: LA57, 5-level paging). */
uint64_t read_cr4(void);
/** mem_read() - probe_read_fn over identity-mapped physical memory. */
bool mem_read(void *ctx, uint64_t addr, void *buf, size_t len);
/**
 * probe_poweroff() - leave: isa-debug-exit with @exit_value, then UEFI
 * ResetSystem (when @st is valid), ACPI S5, keyboard-controller reset,
 * triple fault. Never returns.
 */
__attribute__((noreturn)) void probe_poweroff(unsigned exit_value, EFI_SYSTEM_TABLE *st);

/**
 * probe_efi_gather() - handover entry: ask the firmware (GetMemoryMap with no
 * buffer and with one, GOP mode, LoadedImage of @image) and fill @in.
 */
void probe_efi_gather(struct probe_input *in, EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/**
 * probe_main() - called by entry.S on the probe's own stack with .bss zeroed:
 * @entry is an enum probe_entry value, @rflags the flags at entry.
 */
__attribute__((noreturn)) void probe_main(unsigned entry, EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
					  struct boot_params *bp, uint64_t rflags);
/** probe_relocate() - add @base to every R_X86_64_RELATIVE target; first thing after entry. */
void probe_relocate(uint8_t *base);

#pragma GCC visibility pop

#endif
