/* Signed PCR 11 policies for `handoff uki --pcr-private-key` and the PCR 11
 * prediction of `handoff inspect --pcrs`: the options both take, the PCR 11
 * values a UKI file leads to (src/core/pcr.c over the file's own sections),
 * and, through libcrypto, the keys, fingerprints and signatures
 * (pcr_crypto.c, one of the tool's few libcrypto files). */
#ifndef TOOL_PCR_H
#define TOOL_PCR_H

#include "core/pcr.h"
#include "tool.h"

#define PCR_BANKS_MAX 4u /* sha1, sha256, sha384, sha512 */

struct pcr_opts {
	const struct pcr_bank *banks[PCR_BANKS_MAX];
	size_t n_banks;
	struct pcr_phases phases;
	bool given;            /* any of --pcr-banks/--phases was given */
};

/** pcr_opts_add_banks() - --pcr-banks LIST: comma- or blank-separated bank names, any case. Return: 0 or EXIT_USAGE. */
int pcr_opts_add_banks(struct pcr_opts *o, const char *arg);
/** pcr_opts_add_phases() - --phases LIST (pcr_phases_add()). Return: 0 or EXIT_USAGE (printed). */
int pcr_opts_add_phases(struct pcr_opts *o, const char *arg);
/** pcr_opts_finish() - the defaults (sha256; systemd's phases), in systemd-measure's order. Return: 0 or EXIT_FAIL. */
int pcr_opts_finish(struct pcr_opts *o);
void pcr_opts_free(struct pcr_opts *o);

/* PCR 11 of a UKI: after the stub (@base) and after each phase, per bank. */
struct pcr_prediction {
	uint8_t base[PCR_BANKS_MAX][PCR_DIGEST_MAX];
	uint8_t value[PCR_BANKS_MAX][PCR_PHASES_MAX][PCR_DIGEST_MAX];
};

/**
 * pcr_predict() - PCR 11 for the UKI file @img (@len bytes, @name in
 * messages) booted with profile @profile (UKI_PROFILE_BASE: its base alone)
 * as the stub measures it (uki_measure_sections()), then each of @o's
 * phases. Return: 0, or -1 when it is no sound UKI (printed).
 */
int pcr_predict(const uint8_t *img, size_t len, const char *name, uint32_t profile, const struct pcr_opts *o,
		struct pcr_prediction *ret);

/** pcr_render_text() - "11:sha256=HEX" per phase, as systemd-measure calculate prints them, after the stub's value. */
void pcr_render_text(const struct pcr_prediction *p, const struct pcr_opts *o, struct strbuf *out);
/** pcr_render_json() - systemd-measure calculate's JSON: {"sha256":[{"phase":P,"pcr":11,"hash":HEX},...]}. */
void pcr_render_json(const struct pcr_prediction *p, const struct pcr_opts *o, struct strbuf *out);

/* ---- libcrypto (pcr_crypto.c) ---- */

/** pcr_bank_find() - the bank called @name (sha1, sha256, sha384, sha512; any case), or NULL. */
const struct pcr_bank *pcr_bank_find(const char *name);

struct pcr_key;

/**
 * pcr_key_load() - the PEM private key @priv_path (RSA, or EC on NIST P-256,
 * P-384 or P-521: what a TPM verifies) and the PEM public key @pub_path, or,
 * when @pub_path is NULL, the private key's own. A public key that is not
 * the private key's, a wrong type, an encrypted key: refused, naming the
 * file. Return: 0 with *@ret, or -1 (printed).
 */
int pcr_key_load(const char *priv_path, const char *pub_path, struct pcr_key **ret);
/** pcr_key_pem() - the public key as PEM SubjectPublicKeyInfo: .pcrpkey. */
const uint8_t *pcr_key_pem(const struct pcr_key *k, size_t *ret_size);
void pcr_key_free(struct pcr_key *k);

/**
 * pcr_sign() - the .pcrsig JSON for @p: per bank and phase, the PolicyPCR
 * digest, signed with @k as systemd-measure signs it (the bank's digest;
 * RSASSA-PKCS1-v1_5 or ECDSA), and the key's fingerprint (SHA-256 of its
 * DER: PKCS#1 RSAPublicKey, or the EC point). Return: 0 with *@ret (malloc'd), or -1.
 */
int pcr_sign(const struct pcr_prediction *p, const struct pcr_opts *o, const struct pcr_key *k, char **ret);

#endif
