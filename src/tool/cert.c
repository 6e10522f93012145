/* X.509 certificates through libcrypto (cert.h): trusted sets and
 * printable names. A set keeps each certificate's DER (to tell the owner's
 * own from others by their bytes) and a store that verification uses. */
#include "cert.h"
#include "core/array.h"
#include "core/str16.h"
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

#define CERT_FILE_MAX (1u << 20)

struct der {
	uint8_t *buf;
	size_t len;
};

struct cert_set {
	X509_STORE *store;
	struct der *ders;
	size_t n;
};

struct cert_set *cert_set_new(void)
{
	struct cert_set *s = xmalloc(sizeof(*s));
	X509_VERIFY_PARAM *p;

	*s = (struct cert_set){ .store = X509_STORE_new() };
	p = s->store ? X509_STORE_get0_param(s->store) : NULL;
	if (!p || X509_VERIFY_PARAM_set_flags(p, X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_NO_CHECK_TIME) != 1 ||
	    X509_VERIFY_PARAM_set_purpose(p, X509_PURPOSE_ANY) != 1) {
		fputs("handoff: libcrypto: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return s;
}

void cert_set_free(struct cert_set *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->ders[i].buf);
	free(s->ders);
	X509_STORE_free(s->store);
	free(s);
}

bool cert_set_add_der(struct cert_set *s, const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *x = len <= INT32_MAX ? d2i_X509(NULL, &p, (long)len) : NULL;
	struct der d;
	bool ok = x && p == der + len && X509_STORE_add_cert(s->store, x) == 1;

	X509_free(x);
	ERR_clear_error();
	if (!ok)
		return false;
	d = (struct der){ xmalloc(len ? len : 1), len };
	memcpy(d.buf, der, len);
	if (array_append(&s->ders, &s->n, sizeof(d), &d) != EFI_SUCCESS) {
		fputs("handoff: out of memory\n", stderr);
		exit(EXIT_FAIL);
	}
	return true;
}

int cert_pem_der(const char *path, uint8_t **ret, size_t *ret_len)
{
	uint8_t *buf, *der = NULL;
	size_t len;
	BIO *bio;
	X509 *x = NULL;
	int n = 0;

	if (read_file(path, CERT_FILE_MAX, &buf, &len) < 0)
		return -1;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (bio)
		x = PEM_read_bio_X509(bio, NULL, NULL, NULL);
	if (x)
		n = i2d_X509(x, &der);
	X509_free(x);
	BIO_free(bio);
	free(buf);
	ERR_clear_error();
	if (n <= 0)
		return tool_fail("%s: no PEM certificate in it (-----BEGIN CERTIFICATE-----)", path), -1;
	*ret = xmalloc((size_t)n);
	memcpy(*ret, der, (size_t)n);
	*ret_len = (size_t)n;
	OPENSSL_free(der);
	return 0;
}

int cert_set_add_pem(struct cert_set *s, const char *path)
{
	uint8_t *der;
	size_t len;
	bool ok;

	if (cert_pem_der(path, &der, &len) < 0)
		return -1;
	ok = cert_set_add_der(s, der, len);
	free(der);
	return ok ? 0 : (tool_fail("%s: libcrypto refused the certificate", path), -1);
}

bool cert_set_has_der(const struct cert_set *s, const uint8_t *der, size_t len)
{
	for (size_t i = 0; i < s->n; i++)
		if (s->ders[i].len == len && memcmp(s->ders[i].buf, der, len) == 0)
			return true;
	return false;
}

size_t cert_set_count(const struct cert_set *s)
{
	return s->n;
}

struct x509_store_st *cert_set_store(const struct cert_set *s)
{
	return s->store;
}

/* @s (@n bytes) as printable text: well-formed UTF-8 kept but for control characters, the rest \xNN. */
static char *printable(const uint8_t *s, size_t n)
{
	struct strbuf sb = { 0 };

	for (size_t i = 0, l; i < n && sb.len < CERT_NAME_MAX - 8; i += l) {
		uint32_t cp;

		l = utf8_decode(s + i, n - i, &cp);
		if (l == 0 || cp < 0x20 || cp == 0x7f || cp == '\\') {
			sb_printf(&sb, "\\x%02x", s[i]);
			l = 1;
		} else {
			sb_putn(&sb, (const char *)s + i, l);
		}
	}
	if (sb.len >= CERT_NAME_MAX - 8)
		sb_puts(&sb, "...");
	sb_puts(&sb, "");
	return sb.buf;
}

/* The subject's last CN as UTF-8, else the whole subject (RFC 2253). */
static char *subject_text(X509 *x)
{
	X509_NAME *name = X509_get_subject_name(x);
	int i = X509_NAME_get_index_by_NID(name, NID_commonName, -1), last = i;
	unsigned char *utf8 = NULL;
	char *text = NULL;
	int n = -1;

	while (i >= 0 && (i = X509_NAME_get_index_by_NID(name, NID_commonName, i)) >= 0)
		last = i;
	if (last >= 0)
		n = ASN1_STRING_to_UTF8(&utf8, X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, last)));
	if (n >= 0) {
		text = printable(utf8, (size_t)n);
	} else {
		BIO *bio = BIO_new(BIO_s_mem());
		char *p;
		long len = -1;

		if (bio && X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253) >= 0)
			len = BIO_get_mem_data(bio, &p);

		text = printable(len > 0 ? (const uint8_t *)p : (const uint8_t *)"", len > 0 ? (size_t)len : 0);
		BIO_free(bio);
	}
	OPENSSL_free(utf8);
	return text;
}

char *cert_name(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;
	X509 *x = len <= INT32_MAX ? d2i_X509(NULL, &p, (long)len) : NULL;
	char *text = x ? subject_text(x) : NULL;

	X509_free(x);
	ERR_clear_error();
	return text;
}
