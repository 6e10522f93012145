/* X.509 certificates the host tool reads (cert.c, through libcrypto): a set
 * of trusted certificates to verify signatures against (the db certificate
 * of handoff.conf, a machine's db), and a certificate's name for people.
 * Certificates come from files and from firmware variables: any DER is
 * parsed by libcrypto, never by hand, and names are made printable. */
#ifndef TOOL_CERT_H
#define TOOL_CERT_H

#include "tool.h"

struct cert_set;
struct x509_store_st; /* libcrypto's X509_STORE */

/* Longest name cert_name() gives, in bytes (longer ones end in "..."). */
#define CERT_NAME_MAX 128

/** cert_set_new() - an empty set. */
struct cert_set *cert_set_new(void);
void cert_set_free(struct cert_set *s);
/** cert_set_add_der() - add the DER certificate @der (@len bytes). Return: false when it is none. */
bool cert_set_add_der(struct cert_set *s, const uint8_t *der, size_t len);
/** cert_set_add_pem() - add the PEM certificate in @path. Return: 0 or -1 (printed, naming @path). */
int cert_set_add_pem(struct cert_set *s, const char *path);
/** cert_set_has_der() - @der (@len bytes) is, byte for byte, one of @s's certificates. */
bool cert_set_has_der(const struct cert_set *s, const uint8_t *der, size_t len);
/** cert_set_count() - how many certificates @s holds. */
size_t cert_set_count(const struct cert_set *s);
/**
 * cert_set_store() - @s as a libcrypto store for verification: partial
 * chains accepted (a self-signed db certificate is its own anchor), any
 * purpose, no validity dates (firmware checks none: UEFI 2.10 §32.5).
 */
struct x509_store_st *cert_set_store(const struct cert_set *s);

/**
 * cert_name() - the subject of the DER certificate @der (@len bytes): its
 * common name, else the whole subject, with control characters and
 * ill-formed UTF-8 shown as \xNN, at most CERT_NAME_MAX bytes.
 * Return: malloc'd text, or NULL when @der is no certificate.
 */
char *cert_name(const uint8_t *der, size_t len);

/**
 * cert_pem_der() - the DER of the PEM certificate in @path.
 * Return: 0 with *@ret (malloc'd), or -1 (printed).
 */
int cert_pem_der(const char *path, uint8_t **ret, size_t *ret_len);

#endif
