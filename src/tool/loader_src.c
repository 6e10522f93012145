/* The loader image written to the ESP (loader_src.h). Signed means an
 * Authenticode signature in the PE certificate table (PE/COFF spec §4.7),
 * as sbsign and the distribution's signing service write it; pe_sig.c
 * tells, and tells the same image apart from its signature. */
#include "loader_src.h"
#include "handoff_conf.h"
#include "pe_sig.h"
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
				  machine == PE_MACHINE_X64 ? "x86-64" : "IA-32");
	return 0;
}

int loader_src_load(const char *opt, char *(*find)(const char *opt), uint16_t machine, struct loader_src *ret)
{
	char *path = find(opt), *signed_path;

	*ret = (struct loader_src){ 0 };
	if (!path)
		return -1;
	if (!opt) { /* the shipped one: named plainly in messages, not as /usr/bin/../lib/... */
		char *real = realpath(path, NULL);

		if (real) {
			free(path);
			path = real;
		}
	}
	signed_path = xasprintf("%s.signed", path);
	if (!opt && is_file(signed_path)) {
		free(path);
		path = signed_path;
	} else {
		free(signed_path);
	}
	ret->path = path;
	if (read_file(path, TOOL_READ_MAX, &ret->buf, &ret->len) < 0 || check_app(ret, machine) < 0) {
		loader_src_free(ret);
		return -1;
	}
	ret->is_signed = pe_is_signed(ret->buf, ret->len, path);
	return 0;
}

static void take(struct loader_src *src, uint8_t *buf, size_t len)
{
	free(src->buf);
	src->buf = buf;
	src->len = len;
	src->is_signed = true;
}

static int sign_with_conf(struct loader_src *src, const char *dest)
{
	struct handoff_conf conf;
	uint8_t *buf;
	size_t len;
	int r = 0;

	if (handoff_conf_load(&conf) < 0)
		return -1;
	if (handoff_conf_signs(&conf)) {
		r = sign_buffer(dest, conf.sign_key, conf.sign_cert, src->buf, src->len, &buf, &len);
		if (r == 0)
			take(src, buf, len);
	}
	handoff_conf_free(&conf);
	return r;
}

int loader_src_for(struct loader_src *src, const char *dest, const uint8_t *old, size_t old_len)
{
	bool old_signed = old && pe_is_signed(old, old_len, dest);

	if (old_signed && !src->is_signed && pe_same_image(old, old_len, src->buf, src->len)) {
		uint8_t *copy = xmalloc(old_len);

		take(src, memcpy(copy, old, old_len), old_len);
		return 0;
	}
	if (!src->is_signed && sign_with_conf(src, dest) < 0)
		return -1;
	if (old_signed && !src->is_signed)
		return -tool_fail("%s is signed for Secure Boot and %s is not: not replaced (Secure Boot would refuse "
				  "it); set sign-key= and sign-cert= in %s/%s (sbsign signs the new loader), or put "
				  "a signed %s.signed beside it", dest, src->path, conf_dir(), HANDOFF_CONF_NAME,
				  src->path);
	return 0;
}
