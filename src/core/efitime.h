/* Unix time to EFI_TIME (UEFI 2.10 §8.3), for file systems handoff reads itself. */
#ifndef CORE_EFITIME_H
#define CORE_EFITIME_H

#include "platform.h"
#include <efi/efi.h>

#define EFI_UNSPECIFIED_TIMEZONE_VALUE 0x07ff

/** efi_time_from_unix() - UTC calendar time of @seconds since 1970-01-01 (clamped to 1900..9999). */
void efi_time_from_unix(int64_t seconds, uint32_t nsec, EFI_TIME *ret);

#endif
