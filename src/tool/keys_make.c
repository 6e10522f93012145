/* The Secure Boot keys themselves, through libcrypto (keys.h): RSA 2048
 * keys (what every firmware verifies), self-signed X.509 certificates with
 * the extensions of OVMF's own test key (subject and authority key
 * identifiers, basicConstraints CA:TRUE), and the PKCS#7 SignedData an
 * authenticated variable write carries (UEFI 2.10 §8.2.2 step 4: SHA-256,
 * RSASSA-PKCS1-v1_5, no authenticated attributes, the content detached, the
 * signer's certificate included, SignedData without a ContentInfo around it
 * as efitools and sbvarsign write it). */
#include "keys.h"
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs7.h>
#include <openssl/rsa.h>
#include <openssl/x509v3.h>
#include <stdlib.h>
#include <string.h>

#define RSA_BITS 2048
#define SERIAL_BYTES 16
#define KEY_FILE_MAX (1u << 20)
/* RFC 5280 §4.1.2.5: "no well-defined expiration date"; firmware ignores validity anyway. */
#define NOT_AFTER "99991231235959Z"

struct sb_key {
	EVP_PKEY *pkey;
	X509 *cert;
};

void sb_key_free(struct sb_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->pkey);
	X509_free(k->cert);
	free(k);
}

static bool add_ext(X509 *x, int nid, const char *value)
{
	X509V3_CTX ctx;
	X509_EXTENSION *ext;
	bool ok;

	X509V3_set_ctx_nodb(&ctx);
	X509V3_set_ctx(&ctx, x, x, NULL, NULL, 0);
	ext = X509V3_EXT_conf_nid(NULL, &ctx, nid, value);
	ok = ext && X509_add_ext(x, ext, -1) == 1;
	X509_EXTENSION_free(ext);
	return ok;
}

/* A positive random serial (RFC 5280 §4.1.2.2: at most 20 bytes). */
static bool set_serial(X509 *x)
{
	uint8_t b[SERIAL_BYTES];
	BIGNUM *bn;
	bool ok;

	if (random_bytes(b, sizeof(b)) < 0)
		return false;
	b[0] &= 0x7f;
	b[0] |= 0x40;
	bn = BN_bin2bn(b, sizeof(b), NULL);
	ok = bn && BN_to_ASN1_INTEGER(bn, X509_get_serialNumber(x));
	BN_free(bn);
	return ok;
}

static X509 *make_cert(EVP_PKEY *pkey, const char *cn)
{
	X509 *x = X509_new();
	X509_NAME *name = x ? X509_get_subject_name(x) : NULL;
	bool ok = name && X509_set_version(x, X509_VERSION_3) == 1 && set_serial(x) &&
		  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)cn, -1, -1, 0) == 1 &&
		  X509_set_issuer_name(x, name) == 1 && X509_gmtime_adj(X509_getm_notBefore(x), 0) &&
		  ASN1_TIME_set_string(X509_getm_notAfter(x), NOT_AFTER) == 1 && X509_set_pubkey(x, pkey) == 1 &&
		  add_ext(x, NID_subject_key_identifier, "hash") &&
		  add_ext(x, NID_authority_key_identifier, "keyid:always") &&
		  add_ext(x, NID_basic_constraints, "critical,CA:TRUE") && X509_sign(x, pkey, EVP_sha256()) > 0;

	if (!ok) {
		X509_free(x);
		return NULL;
	}
	return x;
}

int sb_key_generate(const char *cn, struct sb_key **ret)
{
	struct sb_key *k = xmalloc(sizeof(*k));

	k->pkey = EVP_RSA_gen(RSA_BITS);
	k->cert = k->pkey ? make_cert(k->pkey, cn) : NULL;
	ERR_clear_error();
	if (!k->cert) {
		sb_key_free(k);
		return tool_fail("%s: cannot make an RSA %d key and its certificate (libcrypto)", cn, RSA_BITS), -1;
	}
	*ret = k;
	return 0;
}

/* The first PEM object of @path read by @reader, or NULL (said why). */
static void *pem_read(const char *path, const char *what, void *(*reader)(BIO *))
{
	uint8_t *buf;
	size_t len;
	BIO *bio;
	void *obj = NULL;

	if (read_file(path, KEY_FILE_MAX, &buf, &len) < 0)
		return NULL;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (bio)
		obj = reader(bio);
	BIO_free(bio);
	free(buf);
	ERR_clear_error();
	if (!obj)
		tool_fail("%s: no PEM %s in it (unencrypted)", path, what);
	return obj;
}

static void *read_key(BIO *b) { return PEM_read_bio_PrivateKey(b, NULL, NULL, (void *)""); }
static void *read_cert(BIO *b) { return PEM_read_bio_X509(b, NULL, NULL, NULL); }

int sb_key_load(const char *key_path, const char *cert_path, struct sb_key **ret)
{
	struct sb_key *k = xmalloc(sizeof(*k));

	k->pkey = pem_read(key_path, "private key", read_key);
	k->cert = k->pkey ? pem_read(cert_path, "certificate", read_cert) : NULL;
	if (k->cert && X509_check_private_key(k->cert, k->pkey) != 1) {
		ERR_clear_error();
		tool_fail("%s: not the certificate of %s", cert_path, key_path);
		X509_free(TAKE_PTR(k->cert));
	}
	if (!k->cert) {
		sb_key_free(k);
		return -1;
	}
	*ret = k;
	return 0;
}

/* What a memory BIO holds, copied out (with a NUL after it). */
static int bio_take(BIO *bio, bool ok, uint8_t **ret, size_t *ret_len)
{
	char *p;
	long n = ok ? BIO_get_mem_data(bio, &p) : 0;

	if (n <= 0) {
		BIO_free(bio);
		ERR_clear_error();
		return tool_fail("libcrypto: cannot encode a key or certificate"), -1;
	}
	*ret = xmalloc((size_t)n + 1);
	memcpy(*ret, p, (size_t)n);
	(*ret)[n] = 0;
	*ret_len = (size_t)n;
	BIO_free(bio);
	return 0;
}

int sb_key_key_pem(const struct sb_key *k, uint8_t **ret, size_t *ret_len)
{
	BIO *bio = BIO_new(BIO_s_mem());

	return bio_take(bio, bio && PEM_write_bio_PrivateKey(bio, k->pkey, NULL, NULL, 0, NULL, NULL) == 1, ret,
			ret_len);
}

int sb_key_cert_pem(const struct sb_key *k, uint8_t **ret, size_t *ret_len)
{
	BIO *bio = BIO_new(BIO_s_mem());

	return bio_take(bio, bio && PEM_write_bio_X509(bio, k->cert) == 1, ret, ret_len);
}

int sb_key_cert_der(const struct sb_key *k, uint8_t **ret, size_t *ret_len)
{
	BIO *bio = BIO_new(BIO_s_mem());

	return bio_take(bio, bio && i2d_X509_bio(bio, k->cert) == 1, ret, ret_len);
}

/* The DER of @p7's SignedData alone (the spec allows it with or without the ContentInfo). */
static int signed_data_der(PKCS7 *p7, uint8_t **ret, size_t *ret_len)
{
	int n = i2d_PKCS7_SIGNED(p7->d.sign, NULL);
	uint8_t *p;

	if (n <= 0)
		return tool_fail("libcrypto: cannot encode a PKCS#7 signature"), -1;
	*ret = p = xmalloc((size_t)n);
	*ret_len = (size_t)i2d_PKCS7_SIGNED(p7->d.sign, &p);
	return 0;
}

int sb_key_sign(const struct sb_key *k, const uint8_t *data, size_t len, uint8_t **ret, size_t *ret_len)
{
	const int flags = PKCS7_BINARY | PKCS7_DETACHED | PKCS7_NOATTR | PKCS7_PARTIAL;
	BIO *in = len <= INT32_MAX ? BIO_new_mem_buf(data, (int)len) : NULL;
	PKCS7 *p7 = in ? PKCS7_sign(NULL, NULL, NULL, NULL, flags) : NULL;
	bool ok = p7 && PKCS7_sign_add_signer(p7, k->cert, k->pkey, EVP_sha256(), flags) &&
		  PKCS7_final(p7, in, flags) == 1;
	int r = ok ? signed_data_der(p7, ret, ret_len) : -1;

	ERR_clear_error();
	if (!ok)
		tool_fail("libcrypto: cannot sign with the key of %s", sb_key_cn(k));
	PKCS7_free(p7);
	BIO_free(in);
	return r;
}

const char *sb_key_cn(const struct sb_key *k)
{
	X509_NAME *name = X509_get_subject_name(k->cert);
	int i = name ? X509_NAME_get_index_by_NID(name, NID_commonName, -1) : -1;
	ASN1_STRING *s = i >= 0 ? X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, i)) : NULL;

	return s ? (const char *)ASN1_STRING_get0_data(s) : "?";
}
