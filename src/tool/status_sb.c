/* handoff status, Secure Boot (status_sb.h): the mode (UEFI 2.10 §32.3:
 * SecureBoot, SetupMode, AuditMode, DeployedMode), the certificates PK, KEK
 * and db hold (§32.4.1 signature lists, read by src/core/siglist.c), each
 * told as the owner's (the same certificate as /etc/handoff/keys/NAME.crt),
 * Microsoft's (its SignatureOwner) or another's, and whether the loaders and
 * UKIs on the ESP are signed by a key in db and by the owner's db key
 * (pe_verify.c). What the variables hold is the firmware's, so a malformed
 * list is shown, not fatal. */
#include "status_sb.h"
#include "cert.h"
#include "efivarfs.h"
#include "keys.h"
#include "core/gpt.h"
#include "core/guid.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const mode_vars[SB_MODE_VARS] = { "SecureBoot", "SetupMode", "AuditMode", "DeployedMode" };
static const char *const loaders[] = { "EFI/handoff/handoffx64.efi", "EFI/handoff/handoffia32.efi",
				       "EFI/BOOT/BOOTX64.EFI", "EFI/BOOT/BOOTIA32.EFI" };

static int global_u8(const char *name)
{
	size_t len = 0;
	uint8_t *v = efivar_read(name, EFI_GLOBAL_GUID_STR, &len);
	int r = v && len == 1 ? v[0] : -1;

	free(v);
	return r;
}

/* The owner's certificates (their DER), when /etc/handoff/keys has them. */
static struct cert_set *own_certs(enum sb_var_id only, bool all)
{
	struct cert_set *s = cert_set_new();
	struct diag_capture quiet; /* no keys made: nothing is the owner's */

	diag_capture_begin(&quiet);
	for (int v = 0; v < SB_VARS; v++)
		if (all || v == (int)only) {
			char *crt = keys_file(sb_vars[v].name, ".crt");

			if (is_file(crt))
				cert_set_add_pem(s, crt);
			free(crt);
		}
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	return s;
}

static void add_entry(struct sb_status *s, enum sb_var_id v, const struct siglist_entry *e, const struct cert_set *own,
		      struct cert_set *db)
{
	static const EFI_GUID x509 = EFI_CERT_X509_GUID, microsoft = MICROSOFT_SIGNATURE_OWNER_GUID;
	static const EFI_GUID sha256 = EFI_CERT_SHA256_GUID;
	bool is_x509 = guid_equal(&e->type, &x509);
	struct sb_key_entry k = { .var = v };

	guid_format(&e->owner, k.owner);
	k.name = is_x509 ? cert_name(e->data, e->size) : NULL;
	if (!k.name && is_x509)
		k.name = xstrdup("(a malformed certificate)");
	else if (!k.name)
		k.name = xstrdup(guid_equal(&e->type, &sha256) ? "(an image hash)" : "(another type)");
	if (is_x509 && cert_set_has_der(own, e->data, e->size))
		k.kind = "yours";
	else
		k.kind = guid_equal(&e->owner, &microsoft) ? "Microsoft" : "other";
	if (is_x509 && v == SB_DB)
		cert_set_add_der(db, e->data, e->size);
	s->keys = xrealloc(s->keys, (s->n_keys + 1) * sizeof(*s->keys));
	s->keys[s->n_keys++] = k;
}

/* PK, KEK and db as the firmware holds them; db's certificates into @db. */
static void load_keys(struct sb_status *s, struct cert_set *db)
{
	struct cert_set *own = own_certs(SB_PK, /* all= */ true);

	for (int v = 0; v < SB_VARS; v++) {
		size_t len = 0, n = 0;
		uint8_t *buf = efivar_read(sb_vars[v].name, sb_vars[v].vendor_str, &len);
		struct siglist_entry *e = NULL;
		struct diag_capture cap;

		diag_capture_begin(&cap);
		if (buf && siglist_parse(buf, len, sb_vars[v].name, &e, &n) != EFI_SUCCESS)
			s->problem[v] = xstrdup(cap.n ? cap.lines[cap.n - 1] : "malformed");
		diag_capture_end(&cap);
		diag_capture_free(&cap);
		for (size_t i = 0; i < n; i++)
			add_entry(s, v, &e[i], own, db);
		free(e);
		free(buf);
	}
	cert_set_free(own);
}

static void check_image(struct sb_status *s, const char *esp, const char *rel, const struct cert_set *db,
			const struct cert_set *own_db)
{
	char *path = path_join(esp, rel);
	uint8_t *buf = NULL;
	size_t len = 0;
	struct sb_image im = { .path = xstrdup(rel) };
	struct diag_capture quiet; /* a file that is no image is shown as unsigned */

	diag_capture_begin(&quiet);
	if (read_file(path, TOOL_READ_MAX, &buf, &len) == 0) {
		im.by_db = pe_sig_verify(buf, len, path, db, &im.signer);
		im.yours = cert_set_count(own_db) && pe_sig_verify(buf, len, path, own_db, NULL) == PE_SIG_TRUSTED;
	}
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	s->images = xrealloc(s->images, (s->n_images + 1) * sizeof(*s->images));
	s->images[s->n_images++] = im;
	free(buf);
	free(path);
}

/* The installed loaders, then ESP/EFI/Linux's UKIs. */
static void load_images(struct sb_status *s, const char *esp, const struct cert_set *db)
{
	struct cert_set *own_db = own_certs(SB_DB, /* all= */ false);
	char *dir = path_join(esp, "EFI/Linux");
	DIR *d = opendir(dir);
	struct dirent *e;

	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++) {
		char *path = path_join(esp, loaders[i]);

		if (is_file(path))
			check_image(s, esp, loaders[i], db, own_db);
		free(path);
	}
	while (d && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char *rel = xasprintf("EFI/Linux/%s", e->d_name), *path = path_join(esp, rel);

		if (n > 4 && strcasecmp(e->d_name + n - 4, ".efi") == 0 && is_file(path))
			check_image(s, esp, rel, db, own_db);
		free(path);
		free(rel);
	}
	if (d)
		closedir(d);
	free(dir);
	cert_set_free(own_db);
}

void sb_status_load(struct sb_status *s, bool efi, const char *esp)
{
	struct cert_set *db = cert_set_new();

	*s = (struct sb_status){ .efi = efi };
	for (int i = 0; i < SB_MODE_VARS; i++)
		s->mode[i] = efi ? global_u8(mode_vars[i]) : -1;
	if (efi)
		load_keys(s, db);
	if (esp)
		load_images(s, esp, db);
	cert_set_free(db);
}

void sb_status_free(struct sb_status *s)
{
	for (size_t i = 0; i < s->n_keys; i++)
		free(s->keys[i].name);
	for (size_t i = 0; i < s->n_images; i++) {
		free(s->images[i].path);
		free(s->images[i].signer);
	}
	for (int v = 0; v < SB_VARS; v++)
		free(s->problem[v]);
	free(s->keys);
	free(s->images);
	*s = (struct sb_status){ 0 };
}

const char *sb_status_mode_text(const struct sb_status *s)
{
	if (s->mode[SB_MODE_DEPLOYED] == 1)
		return "deployed mode";
	if (s->mode[SB_MODE_AUDIT] == 1)
		return "audit mode";
	if (s->mode[SB_MODE_SETUP] == 1)
		return "setup mode";
	return s->mode[SB_MODE_SETUP] == 0 ? "user mode" : "unknown mode";
}

/* What Secure Boot makes of an image, in words. */
static char *image_text(const struct sb_status *s, const struct sb_image *im)
{
	const char *signer = im->signer ? im->signer : "?";

	if (im->by_db == PE_SIG_TRUSTED)
		return im->yours ? xstrdup("signed by your db key") : xasprintf("signed by a key in db (%s)", signer);
	if (im->yours)
		return xstrdup("signed by your db key, which db does not hold (not enrolled)");
	if (im->by_db == PE_SIG_OTHER)
		return s->efi ? xasprintf("signed by %s, no key in db: Secure Boot refuses it", signer)
			      : xasprintf("signed by %s", signer);
	return xstrdup(im->by_db == PE_SIG_BAD ? "a signature that does not verify: Secure Boot refuses it"
					       : "unsigned");
}

void sb_status_render_text(const struct sb_status *s, struct strbuf *sb)
{
	if (s->efi) {
		sb_puts(sb, "\nSecure Boot keys:\n");
		for (int v = 0; v < SB_VARS; v++) {
			const char *sep = "";

			sb_printf(sb, "  %16s:", sb_vars[v].name);
			for (size_t i = 0; i < s->n_keys; i++)
				if (s->keys[i].var == (enum sb_var_id)v) {
					sb_printf(sb, "%s %s (%s)", sep, s->keys[i].kind, s->keys[i].name);
					sep = ";";
				}
			sb_printf(sb, "%s\n", *sep ? "" : " none");
			if (s->problem[v])
				sb_printf(sb, "  %16s  %s\n", "", s->problem[v]);
		}
	}
}

void sb_status_render_signatures(const struct sb_status *s, struct strbuf *sb)
{
	for (size_t i = 0; i < s->n_images; i++) {
		char *text = image_text(s, &s->images[i]);

		sb_printf(sb, "  %16s%s %s: %s\n", i ? "" : "Secure Boot", i ? " " : ":", s->images[i].path, text);
		free(text);
	}
}

static void tristate(struct json *j, const char *key, int v)
{
	if (v < 0)
		json_null(j, key);
	else
		json_bool(j, key, v == 1);
}

void sb_status_render_json(const struct sb_status *s, struct json *j)
{
	static const char *const states[] = { "unsigned", "bad", "signed", "trusted" };

	tristate(j, "audit_mode", s->mode[SB_MODE_AUDIT]);
	tristate(j, "deployed_mode", s->mode[SB_MODE_DEPLOYED]);
	json_obj_begin(j, "keys");
	for (int v = 0; s->efi && v < SB_VARS; v++) {
		json_obj_begin(j, sb_vars[v].name);
		json_arr_begin(j, "entries");
		for (size_t i = 0; i < s->n_keys; i++)
			if (s->keys[i].var == (enum sb_var_id)v) {
				json_obj_begin(j, NULL);
				json_str(j, "kind", s->keys[i].kind);
				json_str(j, "name", s->keys[i].name);
				json_str(j, "owner", s->keys[i].owner);
				json_obj_end(j);
			}
		json_arr_end(j);
		json_str(j, "problem", s->problem[v]);
		json_obj_end(j);
	}
	json_obj_end(j);
	json_arr_begin(j, "signatures");
	for (size_t i = 0; i < s->n_images; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "path", s->images[i].path);
		json_str(j, "state", states[s->images[i].by_db]);
		json_bool(j, "yours", s->images[i].yours);
		json_str(j, "signer", s->images[i].signer);
		json_obj_end(j);
	}
	json_arr_end(j);
}
