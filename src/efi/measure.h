/* Measured boot (issue 13): src/efi/tpm.c. Every function does nothing when
 * there is no TPM. */
#ifndef EFI_MEASURE_H
#define EFI_MEASURE_H

#include "firmware.h"

/** tpm_present() - EFI_TCG2_PROTOCOL is installed and reports a TPM. */
bool tpm_present(void);

/** tpm_measure_ipl_ascii() - an EV_IPL event with an ASCII description (PCR 11: systemd-stub's sections). */
EFI_STATUS tpm_measure_ipl_ascii(uint32_t pcr, const char *desc, const void *data, size_t size);

/** tpm_measure_tagged() - an EV_EVENT_TAG event (@tag, ASCII @desc) of @data into @pcr. */
EFI_STATUS tpm_measure_tagged(uint32_t pcr, uint32_t tag, const char *desc, const void *data, size_t size);

/**
 * measure_linux_stub_params() - PCR 9 as Linux's EFI stub measures what it
 * was started with (libstub efi_measure_tagged_event): @opts, its
 * LoadOptions (UTF-16 with NUL, @opts_bytes bytes: cmdline_forms_make()),
 * then the initrd bytes when there are any.
 * For the handover and legacy schemes, where the kernel's stub does not.
 */
EFI_STATUS measure_linux_stub_params(const CHAR16 *opts, size_t opts_bytes, const void *initrd, size_t initrd_size);

/** measure_cmdline_pcr12() - @opts (UTF-16 with NUL, @opts_bytes) into PCR 12 as systemd-boot: EV_IPL. */
EFI_STATUS measure_cmdline_pcr12(const CHAR16 *opts, size_t opts_bytes);

/**
 * tpm_measure_image() - the kernel file @image into PCR 4 as an
 * EV_EFI_BOOT_SERVICES_APPLICATION with a UEFI_IMAGE_LOAD_EVENT naming @dp:
 * its Authenticode digest when @pe (the firmware computes it), else its SHA-256.
 */
EFI_STATUS tpm_measure_image(const void *image, size_t size, bool pe, const EFI_DEVICE_PATH_PROTOCOL *dp,
			     const char *path);

/**
 * tpm_log_mark() - where the firmware's TCG2 event log ends now (its last
 * event), for tpm_logged_since(); 0 when there is no log to tell by.
 */
uint64_t tpm_log_mark(void);

/**
 * tpm_logged_since() - the firmware logged an event after @mark: a LoadImage
 * that failed had measured the image first. False when it cannot tell.
 */
bool tpm_logged_since(uint64_t mark);

/* All of them: EFI_SUCCESS without a TPM, else the failure, logged: the caller does not boot. */

/**
 * tpm_publish_event_log() - hand the firmware's TCG2 event log to Linux as
 * its EFI stub does (LINUX_EFI_TPM_EVENT_LOG configuration table), for the
 * legacy scheme where the kernel's stub never runs.
 */
void tpm_publish_event_log(void);

#endif
