/* The probe payload's main line: gather what the entry saw, run the checks
 * of src/core/probe_check.c, print the one HANDOFF-PROBE line on COM1 and
 * power off (exit status 1 without errors, 3 with, under QEMU). */
#include "probe.h"

static struct probe_report report;
static char line[16384];

void probe_main(unsigned entry, EFI_HANDLE image, EFI_SYSTEM_TABLE *st, struct boot_params *bp, uint64_t rflags)
{
	struct probe_input in = {
		.entry = (enum probe_entry)entry,
		.kernel_addr = (uintptr_t)_start,
		.expected_hdr = probe_manifest.hdr,
		.expected_hdr_size = MIN(probe_manifest.hdr_size, PROBE_MANIFEST_HDR_MAX),
		.read = mem_read,
		.rflags = rflags,
		.cr3 = read_cr3(),
		.la57 = (read_cr4() >> 12) & 1,
		/* after a 32-bit entry the page tables are our own */
		.check_paging = entry != PROBE_ENTRY_BOOT32 && !probe_entry_is_efi32((enum probe_entry)entry),
	};

	serial_init();
	if (entry == PROBE_ENTRY_HANDOVER)
		probe_efi_gather(&in, image, st);
	else if (probe_entry_is_efi32((enum probe_entry)entry)) {
		probe_efi32_gather(&in, (uintptr_t)st);
		if (entry == PROBE_ENTRY_STUB32)
			bp = probe_efi32_stub_bp();
		st = NULL; /* 32-bit firmware: not callable from here */
	} else if (bp)
		st = (EFI_SYSTEM_TABLE *)(uintptr_t)(bp->efi_info.efi_systab | (uint64_t)bp->efi_info.efi_systab_hi
										       << 32);
	in.bp_addr = (uintptr_t)bp;
	probe_run(&in, &report);
	probe_report_json(&report, line, sizeof(line));
	serial_puts("\r\n");
	serial_puts(line);
	serial_puts("\r\n");
	probe_poweroff(report.errors ? PROBE_EXIT_ERRORS : PROBE_EXIT_OK, st);
}
