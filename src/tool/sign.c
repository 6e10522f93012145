/* sbsign runs (sign.h): the key and certificate are given to it as they
 * are (an encrypted key cannot be used: sbsign would ask for the pass
 * phrase on a terminal, and stdin is /dev/null). Its input and output live
 * in a private directory of their own (tmpdir_create(), mode 0700), never
 * beside the file written: whoever can write there could otherwise swap the
 * image between writing and signing, or plant a link for sbsign to write
 * through. The signed image then replaces the output atomically. Whether an
 * image is already signed by handoff.conf's key is verified (pe_verify.c);
 * signing it again removes its other signatures first. */
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

/* A private key others can read is no longer the owner's alone: say so (and sign anyway). */
static void check_key_mode(const char *key)
{
	struct stat st;

	if (stat(key, &st) == 0 && (st.st_mode & (S_IRWXG | S_IRWXO)))
		tool_note("warning: %s: the private key is readable by %s (mode %04o): chmod 600 it", key,
			  st.st_mode & S_IRWXO ? "every user" : "its group", (unsigned)(st.st_mode & 07777));
}

int sign_file(const char *what, const char *key, const char *cert, const char *in, const char *out)
{
	char *sbsign = find_program("sbsign");

	if (!sbsign)
		return tool_fail("%s: cannot sign with %s: sbsign is not installed (Debian package sbsigntool)", what,
				 key), -1;
	free(sbsign);
	check_key_mode(key);
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

/* A link at @out is refused rather than replaced or followed: the user named a file. */
static int refuse_link(const char *out)
{
	struct stat st;

	if (lstat(out, &st) == 0 && S_ISLNK(st.st_mode))
		return tool_fail("%s: is a symbolic link: not written (name the file itself)", out), -1;
	return 0;
}

int write_image_signed(const char *out, const char *key, const char *cert, const uint8_t *data, size_t len)
{
	uint8_t *signed_img = NULL;
	size_t signed_len = 0;
	int r;

	if (refuse_link(out) < 0)
		return -1;
	if (!key)
		return write_file_atomic(out, data, len, 0644);
	r = sign_buffer(out, key, cert, data, len, &signed_img, &signed_len);
	if (r == 0)
		r = write_file_atomic(out, signed_img, signed_len, 0644);
	free(signed_img);
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
