/* PCR 11 of a unified kernel image, computed on the host (UAPI "Linux TPM
 * PCR Registry": PCR 11 holds the UKI and the boot phases): what the stub
 * measures (uki_measure_sections(), the very code handoff's stub measures
 * with), then the boot phases systemd-pcrphase extends, and the
 * TPM2_PolicyPCR digest a signed PCR policy (.pcrsig) signs. No TPM needed. */
#ifndef CORE_PCR_H
#define CORE_PCR_H

#include "sha256.h"
#include "uki.h"
#include <tpm2/tpm2.h>

#define PCR_DIGEST_MAX 64u /* SHA-512, the largest bank */

struct pcr_part {
	const void *data;
	size_t size;
};

/* A PCR bank: the TPM hash algorithm and a way to compute it (the core has
 * SHA-256; the host tool adds SHA-1/384/512 from libcrypto). */
struct pcr_bank {
	const char *name;  /* "sha256": as --pcr-banks names it and .pcrsig keys it */
	uint16_t alg;      /* TPM_ALG_SHA256 */
	size_t size;       /* digest bytes, <= PCR_DIGEST_MAX */
	/* the digest of @parts concatenated into @ret (which may alias no part) */
	void (*hash)(const struct pcr_part *parts, size_t n, uint8_t *ret);
};

extern const struct pcr_bank pcr_bank_sha256;

/**
 * pcr_measure() - what the TPM does for a measurement (TPM2_PCR_Extend of the
 * event's digest, TPM 2.0 Part 1 §17.5): @pcr = H(@pcr || H(@data)).
 */
void pcr_measure(const struct pcr_bank *b, uint8_t *pcr, const void *data, size_t size);

/**
 * pcr_measure_uki() - PCR 11 (starting from zero: nothing else extends it
 * before the stub) after the stub has measured the UKI sections @u, in @ret
 * (@b->size bytes).
 */
void pcr_measure_uki(const struct pcr_bank *b, const struct uki_sections *u, uint8_t *ret);

/**
 * pcr_measure_phase() - extend @pcr as systemd-pcrphase does for the phase
 * path @phase ("enter-initrd:leave-initrd"): each word in turn, measured
 * without a NUL (systemd-measure's measure_phase()).
 */
void pcr_measure_phase(const struct pcr_bank *b, uint8_t *pcr, const char *phase);

/**
 * pcr_policy_pcr11() - the policy digest of a fresh SHA-256 policy session
 * after TPM2_PolicyPCR (TPM 2.0 Part 3 §23.7) on PCR 11 of bank @b holding
 * @value: SHA-256(0^32 || TPM_CC_PolicyPCR || TPML_PCR_SELECTION{@b, PCR 11}
 * || SHA-256(@value)), every integer big-endian. This is "pol" in .pcrsig, and
 * what systemd-cryptsetup has the TPM check against the signed policy.
 */
void pcr_policy_pcr11(const struct pcr_bank *b, const uint8_t *value, uint8_t ret[SHA256_DIGEST_SIZE]);

#define PCR_PHASES_MAX 32u

/* Boot phase paths, normalized: words joined by single colons. */
struct pcr_phases {
	char *v[PCR_PHASES_MAX];
	size_t n;
};

/**
 * pcr_phases_add() - the phase paths in @arg, separated by blanks or commas
 * (as ukify's --phases); each is colon-separated words, empty words dropped
 * (as systemd-measure --phase), every word a phase systemd-pcrphase knows:
 * enter-initrd, leave-initrd, sysinit, ready, shutdown, final.
 * @what names the option in messages.
 * Return: EFI_SUCCESS; EFI_INVALID_PARAMETER (unknown word, empty path, more
 * than PCR_PHASES_MAX) or EFI_OUT_OF_RESOURCES, logged once.
 */
EFI_STATUS pcr_phases_add(struct pcr_phases *p, const char *arg, const char *what);

/**
 * pcr_phases_finish() - none given: systemd's default phases (enter-initrd,
 * enter-initrd:leave-initrd, enter-initrd:leave-initrd:sysinit,
 * enter-initrd:leave-initrd:sysinit:ready); else the given ones sorted by
 * byte value without duplicates, the order systemd-measure signs them in.
 * Return: EFI_SUCCESS or EFI_OUT_OF_RESOURCES (logged).
 */
EFI_STATUS pcr_phases_finish(struct pcr_phases *p);

/** pcr_phases_free() - free the paths; @p is empty afterwards. */
void pcr_phases_free(struct pcr_phases *p);

#endif
