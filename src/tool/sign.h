/* Signing for Secure Boot with sbsign (sbsigntool), as `handoff uki
 * --sign-key` does and as install and update do with the keys of
 * /etc/handoff/handoff.conf (sign.c). */
#ifndef TOOL_SIGN_H
#define TOOL_SIGN_H

#include "tool.h"

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

#endif
