/* The firmware's word size (UEFI 2.10 §2.3.2 IA-32, §2.3.4 x64). A 64-bit
 * kernel boots from either, but the entry points differ (boot.rst "EFI
 * Handover Protocol", "32-bit Boot Protocol"), and so does the efi_info
 * signature ("EL32"/"EL64"). Pure code takes it as a parameter so the host
 * tests and the tool can answer for both; the firmware glue passes its own. */
#ifndef CORE_FWARCH_H
#define CORE_FWARCH_H

enum fw_arch { FW_X64, FW_IA32 };

/* The firmware this build of src/efi runs on. */
#if defined(__i386__)
#define FW_ARCH_NATIVE FW_IA32
#else
#define FW_ARCH_NATIVE FW_X64
#endif

#endif
