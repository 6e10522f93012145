/* Firmware whose quirks Linux can only survive with options on its command
 * line. U-Boot 2023.01's UEFI on x86-64 (docs/compatibility.md "U-Boot"): its
 * MTRRs cover no RAM with write-back (Linux's mtrr_trim_uncached_memory() then
 * drops all of it) and its SetVirtualAddressMap() reads U-Boot's global data
 * from memory the map gives to the OS (Linux faults calling it). The loader
 * names what is missing; it adds nothing to a command line that is the user's. */
#include "fwquirk.h"

static bool vendor_is(const CHAR16 *vendor, const char *prefix)
{
	if (!vendor)
		return false;
	for (; *prefix; prefix++, vendor++)
		if (*vendor != (CHAR16)*prefix)
			return false;
	return true;
}

unsigned fwquirk_missing_options(enum fw_arch fw, const CHAR16 *vendor, const char *cmdline)
{
	if (fw != FW_X64 || !vendor_is(vendor, "Das U-Boot"))
		return 0;
	return ~cmdline_kernel_flags(cmdline) & (CMDLINE_DISABLE_MTRR_TRIM | CMDLINE_EFI_NORUNTIME);
}
