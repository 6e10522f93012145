/* layout=uki (handoff.conf or kernel-install's install.conf): a kernel
 * becomes one unified kernel image, ESP/EFI/Linux/<token>-<version>.efi
 * (UAPI.1 Type #2 entry; "+TRIES" before ".efi" to count boots), built with
 * handoff's stub from the kernel, its initrds, the command line and
 * os-release, signed with handoff.conf's keys (sbsign), with signed PCR 11
 * policies when PCR keys are set. The same image again keeps its file and
 * so its boot counter: as it is when signed as it must be (by handoff.conf's
 * key, verified: pe_verify.c; or not at all without one), else signed anew
 * under the same name (a key rotated out). Any other file of the entry
 * goes: an older UKI of it, and its Type #1 entry and copies. */
#include "entry.h"
#include "cert.h"
#include "handoff_conf.h"
#include "pe_sig.h"
#include "sign.h"
#include "uki_make.h"
#include "core/bls_count.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UKI_DIR "EFI/Linux"
#define OSREL_MAX (64u << 10)

/* The image of @s, unsigned: the stub, the kernel, the initrds, the options, @root's os-release. */
static int build_unsigned(const struct entry_spec *s, const struct handoff_conf *conf, const char *root,
			  const char *out, uint8_t **ret, size_t *ret_len)
{
	static const char *const osrel_files[] = { "etc/os-release", "usr/lib/os-release" };
	struct uki_spec u = { .linux_path = s->linux_path, .cmdline = s->options, .pcr_key = conf->pcr_private_key,
			      .pcr_pub = conf->pcr_public_key, .out = out };
	struct pcr_opts pcr = { 0 };
	uint8_t *osrel = NULL;
	size_t n = 0;
	char *stub = uki_stub_find(NULL, s->linux_path), *path = NULL;
	int r = -1;

	if (s->n_initrds > UKI_MAX_INITRDS) {
		tool_fail("%s: at most %d initrds", out, UKI_MAX_INITRDS);
		goto out;
	}
	for (size_t i = 0; i < sizeof(osrel_files) / sizeof(osrel_files[0]) && !osrel; i++) {
		free(path);
		path = path_join(root, osrel_files[i]);
		if (read_file_opt(path, OSREL_MAX, &osrel, &n) < 0)
			goto out;
	}
	memcpy(u.initrds, s->initrds, s->n_initrds * sizeof(char *));
	u.n_initrds = s->n_initrds;
	u.os_release = (const char *)osrel; /* read_file NUL-terminates */
	u.os_release_name = osrel ? path : NULL;
	u.stub = stub;
	u.pcr = &pcr;
	if (stub && pcr_opts_finish(&pcr) == 0)
		r = uki_image(&u, ret, ret_len);
out:
	pcr_opts_free(&pcr);
	free(osrel);
	free(path);
	free(stub);
	return r;
}

/* A file of entry @id in @dir holding @img but for its signature (its name,
 * malloc'd, or NULL); *@ret_good: its signature is as it must be, by
 * handoff.conf's key when @trust, else none at all. */
static char *find_same_uki(const char *dir, const char *id, const uint8_t *img, size_t len,
			   const struct cert_set *trust, bool *ret_good)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	while (d && !found && (e = readdir(d))) {
		char *path;
		uint8_t *cur = NULL;
		size_t cur_len = 0;

		if (!bls_count_same_entry(e->d_name, ".efi", id))
			continue;
		path = path_join(dir, e->d_name);
		if (read_file(path, TOOL_READ_MAX, &cur, &cur_len) == 0 && pe_same_image(cur, cur_len, img, len)) {
			found = xstrdup(e->d_name);
			*ret_good = trust ? sign_is_owners(cur, cur_len, path, trust)
					  : !pe_is_signed(cur, cur_len, path);
		}
		free(cur);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}

/* Every other file of @id: UKIs but @name, Type #1 entries and their copies. */
static int remove_others(const struct entry_spec *s, const char *id, const char *name)
{
	if (uki_remove_id(s->esp, id, name) < 0 || entry_remove_id(s->esp, id, NULL, /* files= */ true) < 0)
		return -1;
	if (s->boot && is_dir(s->boot) && !same_file(s->boot, s->esp) &&
	    entry_remove_id(s->boot, id, NULL, /* files= */ false) < 0)
		return -1;
	return 0;
}

/* The UKI of @s at @dir/@name, from @img: kept when it is there and signed as
 * it must be, else written (over the same image with a rotated-out key's
 * signature too, so that its boot counter stays). Return: the name, or NULL. */
static char *put_uki(const struct entry_spec *s, const struct handoff_conf *conf, const char *dir, const char *id,
		     const char *name, uint8_t **img, size_t *len)
{
	struct cert_set *trust = NULL;
	bool good = false;
	char *same, *out;
	int r = -1;

	if (sign_trust_load(conf, &trust) < 0)
		return NULL;
	same = find_same_uki(dir, id, *img, *len, trust, &good);
	out = path_join(dir, same ? same : name);
	if (same && good)
		r = 0;
	else if (!trust || sign_image_with_conf(conf, out, img, len) == 0)
		r = install_file(out, *img, *len, 0644) < 0 ? -1 : 0;
	if (r == 0 && s->print_path)
		printf("%s\n", out);
	cert_set_free(trust);
	free(out);
	if (r < 0)
		free(TAKE_PTR(same));
	return r < 0 ? NULL : same ? same : xstrdup(name);
}

/* --pin: the UKI @name in the tree's entries.list. */
static int pin_uki(const char *root, const char *name)
{
	char *path = xasprintf(UKI_DIR "/%s", name);
	struct netlist_pins pins = { .set = &path, .n_set = 1 };
	int r = netlist_update(root, /* create= */ false, &pins);

	free(path);
	return r;
}

int entry_install_uki(const struct entry_spec *s, const struct handoff_conf *conf, const char *root)
{
	char *id = xasprintf("%s-%s", s->token, s->version), *dir = path_join(s->esp, UKI_DIR);
	char *name = s->counted ? xasprintf("%s+%u.efi", id, s->tries) : xasprintf("%s.efi", id);
	char *kept = NULL, *out = path_join(dir, name);
	uint8_t *img = NULL;
	size_t len = 0;
	int r = -1;

	if (mkdir_p(dir, 0755) == 0 && build_unsigned(s, conf, root, out, &img, &len) == 0 &&
	    (kept = put_uki(s, conf, dir, id, name, &img, &len)) && remove_others(s, id, kept) == 0)
		r = s->pin ? pin_uki(s->esp, kept) : 0;
	free(img);
	free(kept);
	free(out);
	free(name);
	free(dir);
	free(id);
	return r;
}
