/* TCG event records for EFI_TCG2_PROTOCOL.HashLogExtendEvent (TCG EFI
 * Protocol Specification §6.6.5), in the formats the TPM event log readers
 * know: Linux's EFI stub's tagged events (PC Client PFP §9.4.2
 * TCG_PCClientTaggedEvent, drivers/firmware/efi/libstub efi_measure_tagged_event)
 * and systemd's EV_IPL events whose data is a UTF-16 description. */
#ifndef CORE_TCG_EVENT_H
#define CORE_TCG_EVENT_H

#include "platform.h"

/* Linux's tagged event IDs (libstub efistub.h), PCR 9 */
#define LINUX_EVENT_TAG_INITRD 0x8F3B22ECu
#define LINUX_EVENT_TAG_LOAD_OPTIONS 0x8F3B22EDu
/* systemd-stub's tag of the UKI profile it boots, PCR 12 (systemd's tpm2-pcr.h) */
#define UKI_PROFILE_EVENT_TAG 0x13AED6DBu
#define LINUX_EVENT_DESC_INITRD "Linux initrd"
#define LINUX_EVENT_DESC_LOAD_OPTIONS "LOADED_IMAGE::LoadOptions"

/* PCRs by use (UAPI "Linux TPM PCR Registry") */
#define TPM_PCR_BOOT_LOADER_CODE 4u
#define TPM_PCR_KERNEL_BOOT 11u
#define TPM_PCR_KERNEL_CONFIG 12u
#define TPM_PCR_LINUX_STUB 9u

/**
 * tcg_event_new_tagged() - an EV_EVENT_TAG event for @pcr whose data is
 * {@tag_id, size, @desc with its NUL}, as Linux's stub logs it.
 * Return: a mem_alloc'd EFI_TCG2_EVENT of *@ret_size bytes, or NULL (no memory).
 */
uint8_t *tcg_event_new_tagged(uint32_t pcr, uint32_t tag_id, const char *desc, size_t *ret_size);

/**
 * tcg_event_new_ipl() - an EV_IPL event for @pcr whose data is @desc16
 * (@desc_bytes bytes of UTF-16LE, the NUL included), as systemd logs it.
 * Return: as tcg_event_new_tagged(); NULL also when the size does not fit 32 bits.
 */
uint8_t *tcg_event_new_ipl(uint32_t pcr, const uint16_t *desc16, size_t desc_bytes, size_t *ret_size);

/**
 * tcg_event_new_ipl_ascii() - tcg_event_new_ipl() with @desc (ASCII) widened
 * to UTF-16LE with its NUL (systemd-stub's section names).
 */
uint8_t *tcg_event_new_ipl_ascii(uint32_t pcr, const char *desc, size_t *ret_size);

/**
 * tcg_event_new_image() - an EV_EFI_BOOT_SERVICES_APPLICATION event for @pcr
 * whose data is a UEFI_IMAGE_LOAD_EVENT (PC Client PFP §10.2.3; its lengths
 * and link-time address are UINTN, as the firmware's LoadImage logs them):
 * the image at @addr, @len bytes, link-time address 0, and the device path
 * @dp of @dp_len bytes (may be 0).
 * Return: as tcg_event_new_tagged().
 */
uint8_t *tcg_event_new_image(uint32_t pcr, uint64_t addr, uint64_t len, const void *dp, size_t dp_len,
			     size_t *ret_size);

/**
 * tcg2_event_size() - bytes of the TCG_PCR_EVENT2 (PC Client PFP §10.2.2) at
 * @ev, at most @max: pcrIndex, eventType, the digests (sizes by algorithm:
 * SHA-1, SHA-256, SHA-384, SHA-512, SM3-256), eventSize and the event data.
 * Return: the size, or 0 when it is malformed, uses an unknown algorithm or
 * runs past @max.
 */
size_t tcg2_event_size(const uint8_t *ev, size_t max);

/**
 * tcg2_events_size() - bytes of @n consecutive TCG_PCR_EVENT2 records at
 * @events within @max. Return: the size, or 0 when one is malformed.
 */
size_t tcg2_events_size(const uint8_t *events, size_t max, uint64_t n);

#endif
