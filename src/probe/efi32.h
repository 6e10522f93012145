/* What the probe's 32-bit EFI entries (handover32, stub32) learn from 32-bit
 * firmware before they leave for long mode, where its boot services can no
 * longer be called. Filled by src/probe/ia32/gather.c (compiled for IA-32),
 * read by src/probe/main.c (x86-64): explicit widths only, so both compilers
 * lay it out alike (asserted below). */
#ifndef PROBE_EFI32_H
#define PROBE_EFI32_H

#include <stddef.h>
#include <stdint.h>

#define PROBE32_MAP_MAX 0x4000u
#define PROBE32_CMDLINE_MAX 2048u

struct probe32_report {
	uint32_t systab_ok;         /* the table's signature checked before any call */
	uint32_t bs_tested;         /* GetMemoryMap was called with no buffer ... */
	uint32_t bs_status;         /* ... and returned this (a 32-bit EFI_STATUS) */
	uint32_t map_size, desc_size, desc_version;
	uint32_t gop_present, width, height, pixels_per_scan_line;
	uint64_t fb_base, fb_size;
	/* stub32 only: what a kernel's own stub would read */
	uint32_t have_options;      /* LoadOptions converted into cmdline */
	uint32_t initrd_status;     /* LoadFile2 on the Linux initrd media path */
	uint64_t initrd_addr, initrd_size;
	char cmdline[PROBE32_CMDLINE_MAX];
	uint8_t map[PROBE32_MAP_MAX] __attribute__((aligned(8)));
};
_Static_assert(offsetof(struct probe32_report, fb_base) == 40, "probe32_report.fb_base");
_Static_assert(offsetof(struct probe32_report, initrd_addr) == 64, "probe32_report.initrd_addr");
_Static_assert(offsetof(struct probe32_report, cmdline) == 80, "probe32_report.cmdline");
_Static_assert(offsetof(struct probe32_report, map) == 80 + PROBE32_CMDLINE_MAX, "probe32_report.map");
_Static_assert(sizeof(struct probe32_report) == 80 + PROBE32_CMDLINE_MAX + PROBE32_MAP_MAX, "probe32_report size");

/* EFI_STATUS of IA-32 firmware (error bit 31) in the 64-bit encoding (bit 63). */
static inline uint64_t probe32_status64(uint32_t s)
{
	return s & 0x80000000u ? (1ull << 63) | (s & 0x7fffffffu) : s;
}

#endif
