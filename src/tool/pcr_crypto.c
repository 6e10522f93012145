/* What signed PCR policies need from libcrypto (OpenSSL 3): the SHA-1/384/512
 * banks, PEM keys, their fingerprint and the signatures, made as
 * systemd-measure makes them (src/boot/measure.c: EVP_DigestSign with the
 * bank's digest over the policy digest; pkfp the SHA-256 of i2d_PublicKey()).
 * The loaders and the stub never link this: it is host-tool only. */
#include "pcr.h"
#include "core/pcrsig.h"
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define KEY_READ_MAX (1u << 20)

struct pcr_key {
	EVP_PKEY *priv, *pub;
	uint8_t *pem;
	size_t pem_size;
	uint8_t fp[SHA256_DIGEST_SIZE];
};

static void evp_parts(const char *md_name, const struct pcr_part *parts, size_t n, uint8_t *ret)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	bool ok = ctx && EVP_DigestInit_ex(ctx, EVP_get_digestbyname(md_name), NULL) == 1;

	for (size_t i = 0; ok && i < n; i++)
		ok = EVP_DigestUpdate(ctx, parts[i].data, parts[i].size) == 1;
	if (!ok || EVP_DigestFinal_ex(ctx, ret, NULL) != 1) {
		fprintf(stderr, "handoff: libcrypto: %s failed\n", md_name);
		exit(EXIT_FAIL); /* a digest libcrypto has cannot fail but for lack of memory */
	}
	EVP_MD_CTX_free(ctx);
}

static void sha1_parts(const struct pcr_part *p, size_t n, uint8_t *ret) { evp_parts("sha1", p, n, ret); }
static void sha384_parts(const struct pcr_part *p, size_t n, uint8_t *ret) { evp_parts("sha384", p, n, ret); }
static void sha512_parts(const struct pcr_part *p, size_t n, uint8_t *ret) { evp_parts("sha512", p, n, ret); }

static const struct pcr_bank bank_sha1 = { "sha1", TPM_ALG_SHA1, 20, sha1_parts };
static const struct pcr_bank bank_sha384 = { "sha384", TPM_ALG_SHA384, 48, sha384_parts };
static const struct pcr_bank bank_sha512 = { "sha512", TPM_ALG_SHA512, 64, sha512_parts };

const struct pcr_bank *pcr_bank_find(const char *name)
{
	static const struct pcr_bank *const banks[] = { &bank_sha1, &pcr_bank_sha256, &bank_sha384, &bank_sha512 };

	for (size_t i = 0; i < ARRAY_SIZE(banks); i++)
		if (strcasecmp(banks[i]->name, name) == 0)
			return banks[i];
	return NULL;
}

/* libcrypto's default would prompt on the terminal: refuse instead, and say why. */
static int no_passphrase(char *buf, int size, int rwflag, void *userdata)
{
	*(bool *)userdata = true;
	return -1;
}

static EVP_PKEY *pem_key(const char *path, bool private_key)
{
	uint8_t *buf;
	size_t len;
	BIO *bio;
	EVP_PKEY *k;
	bool encrypted = false;

	if (read_file(path, KEY_READ_MAX, &buf, &len) < 0)
		return NULL;
	bio = BIO_new_mem_buf(buf, (int)len);
	if (!bio)
		return free(buf), tool_fail("%s: out of memory", path), NULL;
	k = private_key ? PEM_read_bio_PrivateKey(bio, NULL, no_passphrase, &encrypted)
			: PEM_read_bio_PUBKEY(bio, NULL, no_passphrase, &encrypted);
	BIO_free(bio);
	free(buf);
	ERR_clear_error();
	if (!k && encrypted)
		tool_fail("%s: the private key is encrypted: give it without a passphrase (openssl pkey)", path);
	else if (!k)
		tool_fail("%s: no PEM %s key in it (-----BEGIN %s-----)", path, private_key ? "private" : "public",
			  private_key ? "PRIVATE KEY" : "PUBLIC KEY");
	return k;
}

/* RSA, or EC on a curve TPM 2.0 verifies (TPM_ECC_NIST_P256/P384/P521). */
static int check_type(EVP_PKEY *k, const char *path)
{
	char curve[64] = "";

	if (EVP_PKEY_is_a(k, "RSA")) {
		if (EVP_PKEY_get_size(k) <= (int)PCRSIG_SIG_MAX)
			return 0;
		tool_fail("%s: RSA key of %d bits: .pcrsig takes signatures of up to %u bytes", path,
			  EVP_PKEY_get_bits(k), PCRSIG_SIG_MAX);
		return -1;
	}
	if (EVP_PKEY_is_a(k, "EC") && EVP_PKEY_get_group_name(k, curve, sizeof(curve), NULL) == 1 &&
	    (strcmp(curve, "prime256v1") == 0 || strcmp(curve, "secp384r1") == 0 || strcmp(curve, "secp521r1") == 0))
		return 0;
	tool_fail("%s: type %s%s%s: PCR policies are signed with RSA or EC (NIST P-256, P-384, P-521) keys", path,
		  EVP_PKEY_get0_type_name(k), *curve ? " " : "", curve);
	return -1;
}

/* .pcrpkey (PEM SubjectPublicKeyInfo) and the fingerprint of the public key. */
static int key_encode(struct pcr_key *k, const char *priv_path)
{
	BIO *bio = BIO_new(BIO_s_mem());
	uint8_t *der = NULL;
	char *pem;
	long n;
	int der_len;

	if (!bio || PEM_write_bio_PUBKEY(bio, k->pub) != 1 || (n = BIO_get_mem_data(bio, &pem)) <= 0 ||
	    (der_len = i2d_PublicKey(k->pub, &der)) <= 0) {
		BIO_free(bio);
		ERR_clear_error();
		return tool_fail("%s: cannot encode its public key", priv_path), -1;
	}
	k->pem = xmalloc((size_t)n);
	memcpy(k->pem, pem, (size_t)n);
	k->pem_size = (size_t)n;
	sha256(der, (size_t)der_len, k->fp);
	OPENSSL_free(der);
	BIO_free(bio);
	return 0;
}

int pcr_key_load(const char *priv_path, const char *pub_path, struct pcr_key **ret)
{
	struct pcr_key *k = xmalloc(sizeof(*k));

	memset(k, 0, sizeof(*k));
	k->priv = pem_key(priv_path, true);
	if (!k->priv || check_type(k->priv, priv_path) < 0)
		goto fail;
	if (pub_path) {
		k->pub = pem_key(pub_path, false);
		if (!k->pub)
			goto fail;
		if (EVP_PKEY_eq(k->priv, k->pub) != 1) {
			tool_fail("%s: not the public key of %s", pub_path, priv_path);
			goto fail;
		}
	} else if (EVP_PKEY_up_ref(k->priv) == 1) {
		k->pub = k->priv;
	}
	if (!k->pub || key_encode(k, priv_path) < 0)
		goto fail;
	*ret = k;
	return 0;
fail:
	ERR_clear_error();
	pcr_key_free(k);
	return -1;
}

const uint8_t *pcr_key_pem(const struct pcr_key *k, size_t *ret_size)
{
	*ret_size = k->pem_size;
	return k->pem;
}

void pcr_key_free(struct pcr_key *k)
{
	if (!k)
		return;
	EVP_PKEY_free(k->priv);
	EVP_PKEY_free(k->pub);
	free(k->pem);
	free(k);
}

static int sign(const struct pcr_key *k, const char *md_name, const uint8_t *data, size_t len, uint8_t *sig,
		size_t *sig_size)
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	size_t need = 0;
	bool ok = ctx && EVP_DigestSignInit(ctx, NULL, EVP_get_digestbyname(md_name), NULL, k->priv) == 1 &&
		  EVP_DigestSign(ctx, NULL, &need, data, len) == 1 && need <= *sig_size &&
		  EVP_DigestSign(ctx, sig, sig_size, data, len) == 1;

	EVP_MD_CTX_free(ctx);
	ERR_clear_error();
	if (!ok)
		return tool_fail("%s policy: signing failed (signatures of up to %u bytes)", md_name, PCRSIG_SIG_MAX),
		       -1;
	return 0;
}

int pcr_sign(const struct pcr_prediction *p, const struct pcr_opts *o, const struct pcr_key *k, char **ret)
{
	size_t n = o->n_banks * o->phases.n;
	struct pcrsig_entry *e = xmalloc(n * sizeof(*e));
	uint8_t (*sigs)[PCRSIG_SIG_MAX] = xmalloc(n * sizeof(*sigs));
	int r = 0;

	for (size_t b = 0, i = 0; r == 0 && b < o->n_banks; b++)
		for (size_t ph = 0; r == 0 && ph < o->phases.n; ph++, i++) {
			e[i] = (struct pcrsig_entry){ .bank = o->banks[b]->name, .sig = sigs[i],
						      .sig_size = PCRSIG_SIG_MAX };
			memcpy(e[i].pkfp, k->fp, sizeof(e[i].pkfp));
			pcr_policy_pcr11(o->banks[b], p->value[b][ph], e[i].pol);
			r = sign(k, o->banks[b]->name, e[i].pol, sizeof(e[i].pol), sigs[i], &e[i].sig_size);
		}
	if (r == 0 && !(*ret = pcrsig_json(e, n)))
		r = -1; /* logged by pcrsig_json() */
	free(sigs);
	free(e);
	return r;
}
