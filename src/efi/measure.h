/* Measured boot (issue 13): src/efi/tpm.c. Every function does nothing when
 * there is no TPM. */
#ifndef EFI_MEASURE_H
#define EFI_MEASURE_H

#include "firmware.h"

/** tpm_present() - EFI_TCG2_PROTOCOL is installed and reports a TPM. */
bool tpm_present(void);

/** tpm_measure_ipl_ascii() - tpm_measure_ipl16() with an ASCII description. */
void tpm_measure_ipl_ascii(uint32_t pcr, const char *desc, const void *data, size_t size);

/**
 * measure_linux_stub_params() - PCR 9 as Linux's EFI stub measures what it
 * was started with (libstub efi_measure_tagged_event): the LoadOptions
 * (UTF-16 with NUL), then the initrd bytes when there are any. For the
 * handover and legacy schemes, where the kernel's stub does not.
 */
void measure_linux_stub_params(const CHAR16 *opts, size_t opts_bytes, const void *initrd, size_t initrd_size);

/** measure_cmdline_pcr12() - the command line into PCR 12 as systemd-boot: EV_IPL, UTF-16 with NUL. */
void measure_cmdline_pcr12(const CHAR16 *opts, size_t opts_bytes);

/**
 * tpm_publish_event_log() - hand the firmware's TCG2 event log to Linux as
 * its EFI stub does (LINUX_EFI_TPM_EVENT_LOG configuration table), for the
 * legacy scheme where the kernel's stub never runs.
 */
void tpm_publish_event_log(void);

#endif
