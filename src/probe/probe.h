/* The probe payload (design.md "The probe"): entry glue and hardware access
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

/* hw.c */
void serial_init(void);
void serial_puts(const char *s);
uint64_t read_cr3(void);
uint64_t read_cr4(void);
bool mem_read(void *ctx, uint64_t addr, void *buf, size_t len);
__attribute__((noreturn)) void probe_poweroff(unsigned exit_value, EFI_SYSTEM_TABLE *st);

/* efi.c */
void probe_efi_gather(struct probe_input *in, EFI_HANDLE image, EFI_SYSTEM_TABLE *st);

/* main.c, called from entry.S */
__attribute__((noreturn)) void probe_main(unsigned entry, EFI_HANDLE image, EFI_SYSTEM_TABLE *st,
					  struct boot_params *bp, uint64_t rflags);
/* reloc.c, called from entry.S before anything else */
void probe_relocate(uint8_t *base);

#pragma GCC visibility pop

#endif
