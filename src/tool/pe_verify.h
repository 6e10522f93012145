/* Authenticode signatures verified for real (pe_verify.c, libcrypto): a
 * certificate table is not enough, the signature must be over this very
 * image, and "trusted" means by a chain to a given set of certificates (the
 * owner's db certificate, a machine's db). install, update, the kernel hooks
 * and status use it; tests/fuzz/fuzz_pe_verify.c fuzzes it. */
#ifndef TOOL_PE_VERIFY_H
#define TOOL_PE_VERIFY_H

#include "tool.h"

struct cert_set;

/* In increasing order of worth: an image's best signature decides. */
enum pe_sig_state {
	PE_SIG_NONE,    /* no Authenticode signature */
	PE_SIG_BAD,     /* signatures, none valid over this image (corrupt, tampered, grafted) */
	PE_SIG_OTHER,   /* a valid signature, but not by @trust */
	PE_SIG_TRUSTED, /* a valid signature by a certificate of @trust, or one that chains to it */
};

/**
 * pe_sig_verify() - verify @img's (@len bytes) Authenticode signatures:
 * each PKCS#7 SignedData of the certificate table over an
 * SpcIndirectDataContent whose SHA-256 digest is the image's, its signature
 * valid; then, with @trust, its signer chained to one of @trust's
 * certificates. A malformed image is PE_SIG_NONE (pe_parse() logs why, with
 * @name). *@ret_signer (when not NULL): the best signature's signer's name
 * (cert_name()), or NULL. Return: the state.
 */
enum pe_sig_state pe_sig_verify(const uint8_t *img, size_t len, const char *name, const struct cert_set *trust,
				char **ret_signer);

/** pe_sig_state_name() - "unsigned", "bad signature", "signed", "signed (trusted)". */
const char *pe_sig_state_name(enum pe_sig_state s);

#endif
