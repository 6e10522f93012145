/* Signing for Secure Boot with sbsign (sbsigntool), as `handoff uki
 * --sign-key` does and as install and update do with the keys of
 * /etc/handoff/handoff.conf (sign.c). */
#ifndef TOOL_SIGN_H
#define TOOL_SIGN_H

#include "handoff_conf.h"
#include "tool.h"

struct cert_set;

/**
 * sign_file() - sign the PE image @in into @out (replaced) with the PEM
 * private key @key and certificate @cert. sbsign missing is said plainly
 * (Debian package sbsigntool), naming @what. Return: 0 or -1 (printed).
 */
int sign_file(const char *what, const char *key, const char *cert, const char *in, const char *out);

/**
 * sign_buffer() - @data (@len bytes) signed: a new buffer *@ret of *@ret_len
 * bytes (through temporary files). Return: 0 or -1 (printed).
 */
int sign_buffer(const char *what, const char *key, const char *cert, const uint8_t *data, size_t len, uint8_t **ret,
		size_t *ret_len);

/**
 * sign_image_with_conf() - replace *@img (*@len bytes, malloc'd) by the same
 * image signed with @conf's sign-key= and sign-cert= (which must be set):
 * any signature it had is removed first (pe_sig_strip()). @what names it
 * in messages. Return: 0 or -1 (printed; *@img may have lost its signature).
 */
int sign_image_with_conf(const struct handoff_conf *conf, const char *what, uint8_t **img, size_t *len);

/**
 * sign_trust_load() - the certificate @conf signs with (sign-cert=) as a set
 * to verify against; *@ret NULL when @conf does not sign.
 * Return: 0, or -1 when the certificate cannot be read (printed).
 */
int sign_trust_load(const struct handoff_conf *conf, struct cert_set **ret);

/**
 * sign_is_owners() - @img (@len bytes) carries a valid signature by (a chain
 * to) a certificate of @trust (pe_sig_verify()): what the owner's keys signed.
 */
bool sign_is_owners(const uint8_t *img, size_t len, const char *name, const struct cert_set *trust);

#endif
