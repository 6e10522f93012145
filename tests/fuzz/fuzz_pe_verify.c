/* libFuzzer: Authenticode verification (src/tool/pe_verify.c over
 * libcrypto's PKCS#7 and X.509 readers) and the pure pieces it rests on
 * (pe_sig.c: the Authenticode digest, the SpcIndirectDataContent reader),
 * and a certificate's printable name (cert.c), as install, update, the
 * kernel hooks and status run them on images and variables they did not
 * write. A state is one of the four; no image is trusted by an empty set;
 * a name is well-formed UTF-8 without control characters, of bounded size. */
#include "tool/cert.h"
#include "tool/pe_sig.h"
#include "tool/pe_verify.h"
#include "core/str16.h"
#include <stdlib.h>
#include <string.h>

static void check_name(const char *s)
{
	size_t n;

	if (!s)
		return;
	n = strlen(s);
	if (n > CERT_NAME_MAX || !utf8_check(s, n, NULL))
		abort();
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)s[i] < 0x20 || s[i] == 0x7f)
			abort();
}

static void check_spc(const uint8_t *data, size_t size)
{
	struct pe_spc spc;

	if (pe_spc_digest(data, size, &spc) &&
	    (spc.content < data || spc.content + spc.content_len > data + size || spc.digest < spc.content ||
	     spc.digest + spc.digest_len > spc.content + spc.content_len))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cert_set *none;
	char *signer = NULL, *name = cert_name(data, size);
	enum pe_sig_state s;

	if (!none)
		none = cert_set_new();
	s = pe_sig_verify(data, size, "fuzz", none, &signer);
	if (s > PE_SIG_OTHER || (s < PE_SIG_OTHER && signer))
		abort(); /* nothing is trusted by no certificate; only a valid signature has a signer */
	check_name(signer);
	check_name(name);
	check_spc(data, size);
	free(signer);
	free(name);
	return 0;
}
