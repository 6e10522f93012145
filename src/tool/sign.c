/* sbsign runs (sign.h): the key and certificate are given to it as they
 * are (an encrypted key cannot be used: sbsign would ask for the pass
 * phrase on a terminal, and stdin is /dev/null). */
#include "sign.h"
#include "cert.h"
#include "pe_sig.h"
#include "pe_verify.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sign_file(const char *what, const char *key, const char *cert, const char *in, const char *out)
{
	char *sbsign = find_program("sbsign");

	if (!sbsign)
		return tool_fail("%s: cannot sign with %s: sbsign is not installed (Debian package sbsigntool)", what,
				 key), -1;
	free(sbsign);
	return run_command(what, (char *[]){ "sbsign", "--key", (char *)key, "--cert", (char *)cert, "--output",
					     (char *)out, (char *)in, NULL });
}

int sign_buffer(const char *what, const char *key, const char *cert, const uint8_t *data, size_t len, uint8_t **ret,
		size_t *ret_len)
{
	char *dir = tmpdir_create("sign"), *in, *out;
	int r = -1;

	*ret = NULL;
	if (!dir)
		return -1;
	in = path_join(dir, "unsigned.efi");
	out = path_join(dir, "signed.efi");
	if (write_file_atomic(in, data, len, 0600) == 0 && sign_file(what, key, cert, in, out) == 0)
		r = read_file(out, TOOL_READ_MAX, ret, ret_len);
	rm_rf(dir);
	free(out);
	free(in);
	free(dir);
	return r;
}

/* The unsigned image and sbsign's output are temporary files beside OUT,
 * renamed over it at the end. */
int write_image_signed(const char *out, const char *key, const char *cert, const uint8_t *data, size_t len)
{
	char *unsigned_path, *signed_path;
	int r;

	if (!key)
		return write_file_atomic(out, data, len, 0644);
	unsigned_path = xasprintf("%s.unsigned-tmp", out);
	signed_path = xasprintf("%s.signed-tmp", out);
	r = write_file_atomic(unsigned_path, data, len, 0644);
	if (r == 0)
		r = sign_file(out, key, cert, unsigned_path, signed_path);
	if (r == 0 && rename(signed_path, out) < 0) {
		tool_fail("%s: rename: %s", out, strerror(errno));
		r = -1;
	}
	unlink(unsigned_path);
	unlink(signed_path);
	free(unsigned_path);
	free(signed_path);
	return r;
}

int sign_image_with_conf(const struct handoff_conf *conf, const char *what, uint8_t **img, size_t *len)
{
	uint8_t *out;
	size_t out_len;

	*len = pe_sig_strip(*img, *len); /* sbsign signs the image, not another signature */
	if (sign_buffer(what, conf->sign_key, conf->sign_cert, *img, *len, &out, &out_len) < 0)
		return -1;
	free(*img);
	*img = out;
	*len = out_len;
	return 0;
}

int sign_trust_load(const struct handoff_conf *conf, struct cert_set **ret)
{
	*ret = NULL;
	if (!handoff_conf_signs(conf))
		return 0;
	*ret = cert_set_new();
	if (cert_set_add_pem(*ret, conf->sign_cert) < 0) {
		cert_set_free(*ret);
		*ret = NULL;
		return -1;
	}
	return 0;
}

bool sign_is_owners(const uint8_t *img, size_t len, const char *name, const struct cert_set *trust)
{
	return pe_sig_verify(img, len, name, trust, NULL) == PE_SIG_TRUSTED;
}
