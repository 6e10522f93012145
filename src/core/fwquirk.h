/* Firmware on which Linux needs options on its command line: what the loader
 * says before it boots a kernel (docs/compatibility.md "U-Boot"). */
#ifndef CORE_FWQUIRK_H
#define CORE_FWQUIRK_H

#include "cmdline.h"
#include "fwarch.h"

/**
 * fwquirk_missing_options() - the kernel options Linux needs on U-Boot's
 * x86-64 UEFI (@fw FW_X64, @vendor, EFI_SYSTEM_TABLE.FirmwareVendor, begins
 * "Das U-Boot") that @cmdline lacks: CMDLINE_DISABLE_MTRR_TRIM (U-Boot's
 * MTRRs leave RAM uncached, so Linux trims all of it) and
 * CMDLINE_EFI_NORUNTIME (its SetVirtualAddressMap faults in Linux). @vendor
 * may be NULL. 32-bit U-Boot sets no write-back MTRR at all, which Linux
 * does not trim, and the rest is untested there: nothing is said.
 * Return: a mask of the missing CMDLINE_* (cmdline.h); 0 on other firmware.
 */
unsigned fwquirk_missing_options(enum fw_arch fw, const CHAR16 *vendor, const char *cmdline);

#endif
