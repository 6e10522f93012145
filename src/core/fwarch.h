/* The firmware's architecture (UEFI 2.10 §2.3.2 IA-32, §2.3.4 x64, §2.3.6
 * AArch64). A 64-bit x86 kernel boots from either x86 firmware, but the
 * entry points differ (boot.rst "EFI Handover Protocol", "32-bit Boot
 * Protocol"), and so does the efi_info signature ("EL32"/"EL64"); an arm64
 * kernel boots by its EFI stub alone. Pure code takes it as a parameter so
 * the host tests and the tool can answer for all; the firmware glue passes
 * its own. */
#ifndef CORE_FWARCH_H
#define CORE_FWARCH_H

#include <stdbool.h>

enum fw_arch { FW_X64, FW_IA32, FW_AA64 };

/* The firmware this build of src/efi runs on. */
#if defined(__i386__)
#define FW_ARCH_NATIVE FW_IA32
#elif defined(__aarch64__)
#define FW_ARCH_NATIVE FW_AA64
#else
#define FW_ARCH_NATIVE FW_X64
#endif

/*
 * fw_is() - @fw is @which. The firmware builds plan for the firmware they
 * run on alone (src/efi passes FW_ARCH_NATIVE), so there the answer is
 * known when compiling and another architecture's branch is left out of
 * the loader; the host (tests, fuzzers, the tool) answers for every one.
 */
static inline bool fw_is(enum fw_arch fw, enum fw_arch which)
{
	return __STDC_HOSTED__ ? fw == which : which == FW_ARCH_NATIVE;
}

/*
 * FW_NATIVE_DT: this build hands device trees to Linux. The AArch64 loader
 * does (the kernel's EFI stub reads the firmware's devicetree table, UEFI
 * 2.10 §4.6.1.3); x86 Linux reads none from UEFI, so the x86 loaders leave
 * that code out at no cost; the host (tests, fuzzers, the tool) keeps it.
 */
#define FW_NATIVE_DT (__STDC_HOSTED__ || FW_ARCH_NATIVE == FW_AA64)

#endif
