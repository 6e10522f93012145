/* Building a UKI in memory (uki_make.h): the inputs read whole, the sections
 * laid out by src/core/uki.c; with a PCR key, .pcrsig signs PCR 11 as the
 * stub will measure it, predicted from the image just built (.pcrpkey in
 * it), which is then built again with .pcrsig added. The stub does not
 * measure .pcrsig, so both images measure the same. */
#include "uki_make.h"
#include "core/arm64_image.h"
#include "core/uki.h"
#include <stdio.h>
#include <stdlib.h>

/* The signed policies of @profile (UKI_PROFILE_BASE: the base) of the image @out. */
static int sign_profile(const struct uki_spec *s, const struct pcr_key *key, const uint8_t *out, size_t out_len,
			uint32_t profile, char **ret)
{
	struct pcr_prediction *p = xmalloc(sizeof(*p));
	int r = pcr_predict(out, out_len, s->out, profile, s->pcr, p);

	if (r == 0)
		r = pcr_sign(p, s->pcr, key, ret);
	free(p);
	return r;
}

/* @in->profiles is @profiles, whose .pcrsig are set here (freed by the caller). */
static int add_pcrsig(const struct uki_spec *s, struct uki_input *in, struct uki_profile_input *profiles,
		      const struct pcr_key *key, uint8_t **out, size_t *out_len)
{
	char *json = NULL;

	if (sign_profile(s, key, *out, *out_len, UKI_PROFILE_BASE, &json) < 0)
		return -1;
	in->pcrsig = json;
	for (size_t i = 0; i < s->n_profiles; i++)
		if (sign_profile(s, key, *out, *out_len, (uint32_t)i, (char **)&profiles[i].pcrsig) < 0)
			return -1;
	free(*out);
	*out = NULL;
	return uki_build(in, out, out_len) == EFI_SUCCESS ? 0 : -1;
}

int uki_image(const struct uki_spec *s, uint8_t **ret, size_t *ret_len)
{
	struct uki_input in = { .stub_name = s->stub, .linux_name = s->linux_path, .uname = s->uname,
				.os_release_name = s->os_release_name, .cmdline = s->cmdline,
				.os_release = s->os_release };
	struct uki_blob initrds[UKI_MAX_INITRDS] = { 0 };
	uint8_t *out = NULL, *splash = NULL, *ucode = NULL;
	size_t out_len = 0, splash_len = 0, ucode_len = 0;
	struct pcr_key *key = NULL;
	struct uki_profile_input *profiles = xmalloc((s->n_profiles + 1) * sizeof(*profiles));
	int r = -1;

	if ((s->pcr_key && pcr_key_load(s->pcr_key, s->pcr_pub, &key) < 0) ||
	    read_file(s->stub, TOOL_READ_MAX, (uint8_t **)&in.stub, &in.stub_size) < 0 ||
	    read_file(s->linux_path, TOOL_READ_MAX, (uint8_t **)&in.linux_image, &in.linux_size) < 0 ||
	    (s->splash && read_file(s->splash, TOOL_READ_MAX, &splash, &splash_len) < 0) ||
	    (s->microcode && read_file(s->microcode, TOOL_READ_MAX, &ucode, &ucode_len) < 0))
		goto out;
	for (size_t i = 0; i < s->n_initrds; i++)
		if (read_file(s->initrds[i], TOOL_READ_MAX, (uint8_t **)&initrds[i].data, &initrds[i].size) < 0)
			goto out;
	in.initrds = initrds;
	in.n_initrds = s->n_initrds;
	in.splash = splash;
	in.splash_size = splash_len;
	in.ucode = ucode;
	in.ucode_size = ucode_len;
	if (key)
		in.pcrpkey = pcr_key_pem(key, &in.pcrpkey_size);
	memcpy(profiles, s->profiles, s->n_profiles * sizeof(*profiles));
	in.profiles = profiles;
	in.n_profiles = s->n_profiles;
	/* a failure is logged once, where it was found */
	if (uki_build(&in, &out, &out_len) != EFI_SUCCESS ||
	    (key && add_pcrsig(s, &in, profiles, key, &out, &out_len) < 0))
		goto out;
	*ret = out;
	*ret_len = out_len;
	out = NULL;
	r = 0;
out:
	pcr_key_free(key);
	free((void *)in.pcrsig);
	for (size_t i = 0; i < s->n_profiles && key; i++)
		free((void *)profiles[i].pcrsig);
	free(profiles);
	for (size_t i = 0; i < s->n_initrds; i++)
		free((void *)initrds[i].data);
	free((void *)in.stub);
	free((void *)in.linux_image);
	free(splash);
	free(ucode);
	free(out);
	return r;
}

/* The kernel's machine from its first bytes; one that cannot be read is
 * said by uki_image(), which reads it whole. */
char *uki_stub_find(const char *opt, const char *linux_path)
{
	uint8_t head[ARM64_IMAGE_MAGIC_OFFSET + 4];
	FILE *f;
	size_t n = 0;

	if (opt)
		return stub_find(opt);
	f = fopen(linux_path, "rb");
	if (f) {
		n = fread(head, 1, sizeof(head), f);
		fclose(f);
	}
	return arm64_image_is(head, n) ? stubaa64_find(NULL) : stub_find(NULL);
}
