/* The loader image written to the ESP (loader_src.h). Signed means an
 * Authenticode signature in the PE certificate table (PE/COFF spec §4.7)
 * that verifies over the image (pe_verify.c), as sbsign and the
 * distribution's signing service write it; with handoff.conf's keys set, a
 * signature by them, nothing less. pe_sig.c tells the same image apart from
 * its signature. */
#include "loader_src.h"
#include "cert.h"
#include "handoff_conf.h"
#include "pe_sig.h"
#include "pe_verify.h"
#include "sign.h"
#include "core/pe.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>

void loader_src_free(struct loader_src *src)
{
	free(src->buf);
	free(src->path);
	*src = (struct loader_src){ 0 };
}

static int check_app(const struct loader_src *s, uint16_t machine)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	EFI_STATUS err = pe_parse(s->buf, s->len, s->path, pe);
	bool ok = err == EFI_SUCCESS && pe_is_efi_app(pe, machine);

	free(pe);
	if (err == EFI_LOAD_ERROR)
		return -1; /* pe_parse said why */
	if (!ok)
		return -tool_fail("%s: not an %s EFI application", s->path,
				  machine == PE_MACHINE_X64    ? "x86-64"
				  : machine == PE_MACHINE_AA64 ? "AArch64"
							       : "IA-32");
	return 0;
}

/* Is the shipped @path.signed usable? It must verify over its image, and
 * with handoff.conf's keys set, be signed by them: the owner's db holds no
 * distribution's key. */
static bool signed_usable(const char *path, const struct cert_set *trust)
{
	uint8_t *buf = NULL;
	size_t len = 0;
	char *signer = NULL;
	enum pe_sig_state st = PE_SIG_NONE;

	if (read_file(path, TOOL_READ_MAX, &buf, &len) == 0)
		st = pe_sig_verify(buf, len, path, trust, &signer);
	if (st == PE_SIG_BAD || st == PE_SIG_NONE)
		tool_note("not using %s: %s", path, st == PE_SIG_BAD ? "its signature does not verify" : "not signed");
	else if (trust && st != PE_SIG_TRUSTED)
		tool_note("not using %s: signed by %s, not by sign-cert= of %s/%s", path,
			  signer ? signer : "another key", conf_dir(), HANDOFF_CONF_NAME);
	free(signer);
	free(buf);
	return st == PE_SIG_TRUSTED || (!trust && st == PE_SIG_OTHER);
}

/* The shipped loader @path, or @path.signed beside it when that may be used. */
static char *shipped(char *path, const struct cert_set *trust)
{
	char *real = realpath(path, NULL), *signed_path;

	if (real) { /* named plainly in messages, not as /usr/bin/../lib/... */
		free(path);
		path = real;
	}
	signed_path = xasprintf("%s.signed", path);
	if (is_file(signed_path) && signed_usable(signed_path, trust)) {
		free(path);
		return signed_path;
	}
	free(signed_path);
	return path;
}

static int conf_trust(struct cert_set **ret)
{
	struct handoff_conf conf;
	int r;

	if (handoff_conf_load(&conf) < 0)
		return -1;
	r = sign_trust_load(&conf, ret);
	handoff_conf_free(&conf);
	return r;
}

int loader_src_load(const char *opt, char *(*find)(const char *opt), uint16_t machine, struct loader_src *ret)
{
	char *path = find(opt);
	struct cert_set *trust = NULL;

	*ret = (struct loader_src){ 0 };
	if (!path || conf_trust(&trust) < 0) {
		free(path);
		return -1;
	}
	ret->path = opt ? path : shipped(path, trust);
	if (read_file(ret->path, TOOL_READ_MAX, &ret->buf, &ret->len) < 0 || check_app(ret, machine) < 0) {
		loader_src_free(ret);
		cert_set_free(trust);
		return -1;
	}
	ret->sig = pe_sig_verify(ret->buf, ret->len, ret->path, trust, NULL);
	cert_set_free(trust);
	return 0;
}

static void take(struct loader_src *src, uint8_t *buf, size_t len, enum pe_sig_state sig)
{
	free(src->buf);
	src->buf = buf;
	src->len = len;
	src->sig = sig;
}

/* What may go to the ESP: signed by handoff.conf's key when it is set, else anything that verifies. */
static bool acceptable(enum pe_sig_state sig, const struct cert_set *trust)
{
	return sig == PE_SIG_TRUSTED || (!trust && sig == PE_SIG_OTHER);
}

int loader_src_for(struct loader_src *src, const char *dest, const uint8_t *old, size_t old_len)
{
	struct handoff_conf conf;
	struct cert_set *trust = NULL;
	enum pe_sig_state old_sig;
	int r = -1;

	if (handoff_conf_load(&conf) < 0)
		return -1;
	if (sign_trust_load(&conf, &trust) < 0)
		goto out;
	old_sig = old ? pe_sig_verify(old, old_len, dest, trust, NULL) : PE_SIG_NONE;
	if (acceptable(old_sig, trust) && !acceptable(src->sig, trust) &&
	    pe_same_image(old, old_len, src->buf, src->len)) {
		uint8_t *copy = xmalloc(old_len);

		take(src, memcpy(copy, old, old_len), old_len, old_sig); /* a second run changes nothing */
		r = 0;
	} else if (trust && !acceptable(src->sig, trust)) {
		r = sign_image_with_conf(&conf, dest, &src->buf, &src->len);
		src->sig = r == 0 ? PE_SIG_TRUSTED : PE_SIG_NONE;
	} else if (old_sig >= PE_SIG_OTHER && src->sig < PE_SIG_OTHER) {
		tool_fail("%s is signed for Secure Boot and %s is not: not replaced (Secure Boot would refuse it); set "
			  "sign-key= and sign-cert= in %s/%s (sbsign signs the new loader), or put a signed %s.signed "
			  "beside it", dest, src->path, conf_dir(), HANDOFF_CONF_NAME, src->path);
	} else {
		r = 0;
	}
out:
	cert_set_free(trust);
	handoff_conf_free(&conf);
	return r;
}
