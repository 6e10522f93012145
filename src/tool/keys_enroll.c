/* handoff keys enroll (keys.h): the .auth files staged where the loader
 * enrolls them from in Setup Mode, as systemd-boot's secure-boot-enroll does
 * (loader.conf(5): ESP/loader/keys/NAME/{PK,KEK,db}.auth, "auto" the set
 * enrolled without asking), and everything the first boot with Secure Boot
 * on will verify signed with the db key: the loaders (as handoff update
 * signs them) and the UKIs and addons on the ESP. */
#include "keys.h"
#include "cert.h"
#include "efivarfs.h"
#include "handoff_conf.h"
#include "loader_src.h"
#include "readers.h"
#include "sign.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define LOADER_CONF "loader/loader.conf"
#define LOADER_CONF_MAX (1u << 20)
#define KEYS_ON_ESP "loader/keys"

static const char *const modes[] = { "off", "manual", "if-safe", "force" };

bool keys_enroll_name_ok(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0 || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') || *s == '-' ||
		      *s == '_' || *s == '.'))
			return false;
	return true;
}

/* The sign-cert= of @conf must be in the db that is enrolled, or nothing it signs would boot. */
static int check_signing(const struct handoff_conf *conf, const uint8_t *db_auth, size_t len, const char *db_path)
{
	struct siglist_auth a;
	struct siglist_entry *e = NULL;
	uint8_t *der = NULL;
	size_t n = 0, der_len = 0;
	bool found = false;

	if (!handoff_conf_signs(conf))
		return tool_fail("%s: no sign-key= and sign-cert=: 'handoff keys create' sets them", conf->path), -1;
	if (siglist_auth_parse(db_auth, len, db_path, &a) != EFI_SUCCESS ||
	    siglist_parse(a.data, a.data_len, db_path, &e, &n) != EFI_SUCCESS || cert_pem_der(conf->sign_cert, &der,
											    &der_len) < 0) {
		free(e);
		return -1;
	}
	for (size_t i = 0; i < n; i++)
		found |= e[i].size == der_len && memcmp(e[i].data, der, der_len) == 0;
	free(der);
	free(e);
	if (!found)
		return tool_fail("%s: sign-cert=%s is not in %s: what it signs would not boot", conf->path,
				 conf->sign_cert, db_path), -1;
	return 0;
}

/* @path signed with the db key unless it is already (UKIs and addons). */
static int resign(const struct handoff_conf *conf, const struct cert_set *trust, const char *path)
{
	uint8_t *img = NULL;
	size_t len = 0;
	int r;

	if (read_file(path, TOOL_READ_MAX, &img, &len) < 0)
		return -1;
	r = sign_is_owners(img, len, path, trust) ? 0 : sign_image_with_conf(conf, path, &img, &len);
	if (r == 0 && install_file(path, img, len, 0644) > 0)
		printf("signed %s\n", path);
	free(img);
	return r;
}

/* @name ends in @suffix (any case, as FAT has it) and is more than that. */
static bool ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);

	return n > k && strcasecmp(name + n - k, suffix) == 0;
}

/* Every @suffix file of @dir, and of the NAME.efi.extra.d directories there. */
static int resign_dir(const struct handoff_conf *conf, const struct cert_set *trust, const char *dir,
		      const char *suffix)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int r = 0;

	while (d && r == 0 && (e = readdir(d))) {
		char *path = path_join(dir, e->d_name);

		if (ends_with(e->d_name, ".efi.extra.d") && is_dir(path))
			r = resign_dir(conf, trust, path, ".addon.efi");
		else if (ends_with(e->d_name, suffix) && is_file(path))
			r = resign(conf, trust, path);
		free(path);
	}
	if (d)
		closedir(d);
	return r;
}

static int sign_esp(const char *esp, const struct handoff_conf *conf)
{
	char *ukis = path_join(esp, "EFI/Linux"), *addons = path_join(esp, "loader/addons");
	struct cert_set *trust = NULL;
	int n = loader_update_all(esp, NULL), r = -1;

	if (n == 0)
		tool_fail("%s: handoff is not installed there ('handoff install'): it is what enrolls the keys", esp);
	else if (n > 0 && sign_trust_load(conf, &trust) == 0 && resign_dir(conf, trust, ukis, ".efi") == 0 &&
		 resign_dir(conf, trust, addons, ".addon.efi") == 0)
		r = 0;
	cert_set_free(trust);
	free(addons);
	free(ukis);
	return r;
}

/* PK.auth, KEK.auth, db.auth to @esp/loader/keys/@name/ (read into @auth first). */
static int stage(const char *esp, const char *name, uint8_t *const auth[SB_VARS], const size_t len[SB_VARS])
{
	char *dir = xasprintf("%s/%s/%s", esp, KEYS_ON_ESP, name);
	int r = mkdir_p(dir, 0755), written = 0;

	for (int v = 0; r == 0 && v < SB_VARS; v++) {
		char *path = xasprintf("%s/%s.auth", dir, sb_vars[v].name);
		int w = install_file(path, auth[v], len[v], 0644);

		r = w < 0 ? -1 : 0;
		written += w > 0;
		free(path);
	}
	if (r == 0 && written)
		printf("staged PK.auth, KEK.auth and db.auth in %s\n", dir);
	free(dir);
	return r;
}

/* "secure-boot-enroll MODE" in loader.conf, the user's other lines kept. */
static int set_mode(const char *esp, const char *mode)
{
	char *path = path_join(esp, LOADER_CONF), *line = xasprintf("secure-boot-enroll %s", mode), *text;
	uint8_t *old = NULL;
	size_t old_len = 0, len = 0;
	int r = -1;

	if (read_file_opt(path, LOADER_CONF_MAX, &old, &old_len) == 0) {
		text = text_set_setting((const char *)old, old_len, "secure-boot-enroll", ' ', line, &len);
		r = install_file(path, text, len, 0644);
		if (r > 0)
			printf("%s: %s\n", path, line);
		free(text);
	}
	free(old);
	free(line);
	free(path);
	return r < 0 ? -1 : 0;
}

static const char *mode_text(const char *mode)
{
	if (strcmp(mode, "force") == 0)
		return "enrolls them by itself, after a countdown you can stop with a key";
	if (strcmp(mode, "if-safe") == 0)
		return "enrolls them by itself in a virtual machine (after a countdown you can stop with a key), "
		       "elsewhere when you choose its menu entry 'Enroll Secure Boot keys'";
	return "enrolls them when you choose its menu entry 'Enroll Secure Boot keys'";
}

static void say_next(const char *name, const char *mode, const struct handoff_conf *conf)
{
	size_t len = 0;
	uint8_t *v = efivar_read("SetupMode", EFI_GLOBAL_GUID_STR, &len);
	bool in_setup = v && len == 1 && v[0] == 1;

	free(v);
	if (!in_setup)
		printf("next: the firmware is not in Setup Mode: in its setup screen, clear the Secure Boot keys (the "
		       "wording is the vendor's: 'Reset to Setup Mode', 'Clear Secure Boot keys', 'Delete PK'), then "
		       "boot handoff\n");
	printf("%s: at the next boot in Setup Mode, handoff %s (keys '%s': db, then KEK, then PK), then resets; "
	       "Secure Boot then runs with your keys\n", in_setup ? "next" : "then", mode_text(mode), name);
	if (!conf->uki)
		printf("note: layout=uki is not set in %s: a Type #1 entry's kernel must be signed with your db key "
		       "too, or Secure Boot refuses it (with layout=uki the kernel hooks write signed UKIs)\n",
		       conf->path);
}

bool keys_enroll_mode_ok(const char *mode)
{
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(mode, modes[i]) == 0)
			return true;
	return false;
}

int keys_enroll(const char *esp, const char *name, const char *mode)
{
	struct handoff_conf conf;
	uint8_t *auth[SB_VARS] = { 0 };
	size_t len[SB_VARS] = { 0 };
	char *path[SB_VARS] = { 0 };
	int r = -1;

	if (strcmp(mode, "off") == 0)
		return set_mode(esp, mode) == 0 ? (printf("the loader enrolls no keys\n"), 0) : -1;
	if (handoff_conf_load(&conf) < 0)
		return -1;
	for (int v = 0; v < SB_VARS; v++)
		path[v] = keys_file(sb_vars[v].name, ".auth");
	for (int v = 0; v < SB_VARS; v++)
		if (read_file(path[v], SIGLIST_MAX, &auth[v], &len[v]) < 0)
			goto out; /* said which; 'handoff keys create' makes them */
	if (check_signing(&conf, auth[SB_DB], len[SB_DB], path[SB_DB]) == 0 && sign_esp(esp, &conf) == 0 &&
	    stage(esp, name, auth, len) == 0 && set_mode(esp, mode) == 0) {
		say_next(name, mode, &conf);
		r = 0;
	}
out:
	for (int v = 0; v < SB_VARS; v++) {
		free(auth[v]);
		free(path[v]);
	}
	handoff_conf_free(&conf);
	return r;
}
