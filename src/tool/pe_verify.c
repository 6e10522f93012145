/* Authenticode signatures verified (pe_verify.h): each PKCS#7 SignedData of
 * the certificate table (PE/COFF §4.7) must sign an SpcIndirectDataContent
 * whose SHA-256 digest is the image's own (pe_authenticode_sha256()), with a
 * signature libcrypto verifies over that content's DER contents octets, as
 * UEFI's image verification does (UEFI 2.10 §32.5.3.3). Whether the signer
 * is trusted is then a chain to the given set, partial chains allowed,
 * validity dates ignored (firmware has no trusted clock). */
#include "pe_verify.h"
#include "cert.h"
#include "pe_sig.h"
#include <openssl/err.h>
#include <openssl/pkcs7.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>

/* SPC_INDIRECT_DATA_OBJID: 1.3.6.1.4.1.311.2.1.4 */
#define SPC_INDIRECT_DATA_OID "1.3.6.1.4.1.311.2.1.4"

struct verify_ctx {
	const uint8_t *digest;        /* the image's Authenticode SHA-256 */
	const struct cert_set *trust; /* NULL: integrity only */
	enum pe_sig_state state;
	char *signer;
};

/* The DER SpcIndirectDataContent @p7 signs, or NULL. */
static const ASN1_STRING *spc_content(const PKCS7 *p7)
{
	const PKCS7 *inner = PKCS7_type_is_signed(p7) ? p7->d.sign->contents : NULL;
	char oid[64];

	if (!inner || !inner->type || OBJ_obj2txt(oid, sizeof(oid), inner->type, 1) <= 0 ||
	    strcmp(oid, SPC_INDIRECT_DATA_OID) != 0 || !inner->d.other || inner->d.other->type != V_ASN1_SEQUENCE)
		return NULL;
	return inner->d.other->value.sequence;
}

/* The content is read through a buffering BIO: given a memory BIO,
 * PKCS7_verify() makes a temporary one that OpenSSL 3.0 leaks when the
 * signature names a digest it does not know. */
static bool pkcs7_verifies(PKCS7 *p7, const struct pe_spc *spc, X509_STORE *store, int flags)
{
	BIO *mem = BIO_new_mem_buf(spc->content, (int)spc->content_len), *buf = BIO_new(BIO_f_buffer());
	bool ok = false;

	if (mem && buf) {
		ok = PKCS7_verify(p7, NULL, store, BIO_push(buf, mem), NULL, flags | PKCS7_BINARY) == 1;
		BIO_free_all(buf);
	} else {
		BIO_free(buf);
		BIO_free(mem);
	}
	ERR_clear_error();
	return ok;
}

static char *signer_name(PKCS7 *p7)
{
	STACK_OF(X509) *signers = PKCS7_get0_signers(p7, NULL, 0);
	X509 *x = signers && sk_X509_num(signers) > 0 ? sk_X509_value(signers, 0) : NULL;
	uint8_t *der = NULL;
	int n = x ? i2d_X509(x, &der) : 0;
	char *name = n > 0 ? cert_name(der, (size_t)n) : NULL;

	OPENSSL_free(der);
	sk_X509_free(signers);
	ERR_clear_error();
	return name;
}

/* One signature: what it says of the image. */
static enum pe_sig_state check_one(const uint8_t *sig, size_t size, const struct verify_ctx *c, char **ret_signer)
{
	const unsigned char *p = sig;
	PKCS7 *p7 = size <= INT32_MAX ? d2i_PKCS7(NULL, &p, (long)size) : NULL;
	const ASN1_STRING *content = p7 ? spc_content(p7) : NULL;
	struct pe_spc spc;
	enum pe_sig_state state = PE_SIG_BAD;
	X509_STORE *none = X509_STORE_new();

	if (content && pe_spc_digest(ASN1_STRING_get0_data(content), (size_t)ASN1_STRING_length(content), &spc) &&
	    spc.sha256 && spc.digest_len == SHA256_DIGEST_SIZE && memcmp(spc.digest, c->digest, spc.digest_len) == 0 &&
	    spc.content_len <= INT32_MAX && none && pkcs7_verifies(p7, &spc, none, PKCS7_NOVERIFY)) {
		state = c->trust && pkcs7_verifies(p7, &spc, cert_set_store(c->trust), 0) ? PE_SIG_TRUSTED
											   : PE_SIG_OTHER;
		*ret_signer = signer_name(p7);
	}
	X509_STORE_free(none);
	PKCS7_free(p7);
	ERR_clear_error();
	return state;
}

/* The best of the image's signatures wins: one trusted signature is enough. */
static void each_signature(const uint8_t *sig, size_t size, void *ctx)
{
	struct verify_ctx *c = ctx;
	char *signer = NULL;
	enum pe_sig_state s = check_one(sig, size, c, &signer);

	if (s > c->state) {
		c->state = s;
		free(c->signer);
		c->signer = TAKE_PTR(signer);
	}
	free(signer);
}

enum pe_sig_state pe_sig_verify(const uint8_t *img, size_t len, const char *name, const struct cert_set *trust,
				char **ret_signer)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	uint8_t digest[SHA256_DIGEST_SIZE];
	struct verify_ctx c = { .digest = digest, .trust = trust, .state = PE_SIG_NONE };
	bool is_signed = false;

	if (pe_parse(img, len, name, pe) == EFI_SUCCESS &&
	    pe_cert_table_check(img, pe, name, &is_signed) == EFI_SUCCESS && is_signed) {
		c.state = PE_SIG_BAD;
		if (pe_authenticode_sha256(img, len, pe, digest))
			pe_cert_table_walk(img, pe, name, each_signature, &c); /* checked just above */
	}
	free(pe);
	if (ret_signer)
		*ret_signer = TAKE_PTR(c.signer);
	free(c.signer);
	return c.state;
}

const char *pe_sig_state_name(enum pe_sig_state s)
{
	static const char *const names[] = { "unsigned", "bad signature", "signed", "signed (trusted)" };

	return s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}
