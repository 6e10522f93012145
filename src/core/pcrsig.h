/* The .pcrsig section of a UKI: signed PCR policies in systemd's JSON format
 * (systemd-measure sign, read by systemd-cryptsetup/systemd-cryptenroll's
 * tpm2-pcr-signature.json): one array per PCR bank, one object per boot phase
 *   {"sha256":[{"pcrs":[11],"pkfp":HEX,"pol":HEX,"sig":BASE64},...]}
 * written byte for byte as systemd-measure --json=short writes it. */
#ifndef CORE_PCRSIG_H
#define CORE_PCRSIG_H

#include "sha256.h"

/* Larger than any RSA (up to 8192 bits) or ECDSA signature. */
#define PCRSIG_SIG_MAX 1024u
/* Policies in one .pcrsig: 4 banks of up to 32 phases (PCR_PHASES_MAX). */
#define PCRSIG_ENTRIES_MAX 128u

struct pcrsig_entry {
	const char *bank;                 /* "sha256"; the entries of one bank are adjacent */
	uint8_t pkfp[SHA256_DIGEST_SIZE]; /* SHA-256 of the public key (see the tool's pcr_key_load()) */
	uint8_t pol[SHA256_DIGEST_SIZE];  /* pcr_policy_pcr11() of the phase's PCR 11 value */
	const uint8_t *sig;               /* the signature of @pol */
	size_t sig_size;
};

/**
 * pcrsig_json() - the JSON text of @n entries (n >= 1), newline-terminated.
 * Return: a mem_alloc'd NUL-terminated string, or NULL, logged: more than
 * PCRSIG_ENTRIES_MAX entries, a signature over PCRSIG_SIG_MAX bytes, a bank
 * name that is not a plain lower-case name, a bank that comes back after
 * another, no memory.
 */
char *pcrsig_json(const struct pcrsig_entry *e, size_t n);

/** base64_encode() - RFC 4648 §4 with padding into @ret (4 * ceil(@n / 3) + 1 bytes, NUL-terminated). */
void base64_encode(const uint8_t *data, size_t n, char *ret);

#endif
