/* SPDX-License-Identifier: MIT */
/*
 * TPM 2.0 Library Specification (rev 1.59), Part 2 "Structures": the
 * constants a host needs to compute a TPM2_PolicyPCR digest (Part 3 §23.7)
 * the way a TPM's trial session would. TPM structures are serialized
 * big-endian and unpadded (Part 1 §18.2), so they are described here by their
 * wire sizes rather than as C structs.
 */
#ifndef TPM2_TPM2_H
#define TPM2_TPM2_H

/* Part 2 §6.3 TPM_ALG_ID */
#define TPM_ALG_SHA1 0x0004u
#define TPM_ALG_SHA256 0x000Bu
#define TPM_ALG_SHA384 0x000Cu
#define TPM_ALG_SHA512 0x000Du

/* Part 2 §6.5.2 TPM_CC */
#define TPM_CC_PolicyPCR 0x0000017Fu

/* Part 2 §10.6.1 TPMS_PCR_SELECTION: hash (TPMI_ALG_HASH, 2 bytes),
 * sizeofSelect (1 byte), pcrSelect[sizeofSelect]; a PC Client TPM has 24
 * PCRs, so sizeofSelect is PCR_SELECT_MIN = 3 (PC Client PTP §4.3). */
#define TPM_PCR_SELECT_SIZE 3u
#define TPMS_PCR_SELECTION_SIZE (2u + 1u + TPM_PCR_SELECT_SIZE)
/* Part 2 §10.9.7 TPML_PCR_SELECTION: count (4 bytes), then the selections. */
#define TPML_PCR_SELECTION_SIZE(n) (4u + (n) * TPMS_PCR_SELECTION_SIZE)
_Static_assert(TPML_PCR_SELECTION_SIZE(1) == 10, "TPM 2.0 Part 2 §10.9.7: one selection of 24 PCRs");

#endif
