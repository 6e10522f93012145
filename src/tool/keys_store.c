/* handoff keys create (keys.h): PK, KEK and db made in a fresh private
 * directory beside /etc/handoff/keys, then moved in place, so a failure
 * leaves the old keys as they were. Each variable's .auth file is its
 * signature list (our certificate, owned by this machine's GUID, then any
 * Microsoft certificates kept), signed for an authenticated write (UEFI 2.10
 * §8.2.2): PK and KEK by PK, db by KEK, as firmware in User Mode checks
 * them and systemd-boot's secure-boot-enroll expects. */
#define _GNU_SOURCE
#include "keys.h"
#include "efivarfs.h"
#include "handoff_conf.h"
#include "core/efitime.h"
#include "core/guid.h"
#include <efi/vars.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const struct sb_var sb_vars[SB_VARS] = {
	{ "PK", EFI_GLOBAL_VARIABLE_GUID, EFI_GLOBAL_GUID_STR, "Platform Key", SB_PK },
	{ "KEK", EFI_GLOBAL_VARIABLE_GUID, EFI_GLOBAL_GUID_STR, "Key Exchange Key", SB_PK },
	{ "db", EFI_IMAGE_SECURITY_DATABASE_GUID, EFI_IMAGE_SECURITY_DATABASE_GUID_STR, "Signature Database Key",
	  SB_KEK },
};

char *keys_dir(void)
{
	char cwd[PATH_MAX];

	if (conf_dir()[0] != '/' && getcwd(cwd, sizeof(cwd)))
		return xasprintf("%s/%s/%s", cwd, conf_dir(), KEYS_SUBDIR);
	return path_join(conf_dir(), KEYS_SUBDIR);
}

char *keys_file(const char *stem, const char *ext)
{
	char *dir = keys_dir(), *p = xasprintf("%s/%s%s", dir, stem, ext);

	free(dir);
	return p;
}

/* Everything keys_create() makes, before a byte is written. */
struct new_keys {
	struct sb_key *key[SB_VARS];
	struct sb_kept ms[SB_VARS];
	uint8_t *auth[SB_VARS];
	size_t auth_len[SB_VARS];
	EFI_GUID owner;
	EFI_TIME now;
};

static void new_keys_free(struct new_keys *k)
{
	for (int v = 0; v < SB_VARS; v++) {
		sb_key_free(k->key[v]);
		sb_kept_free(&k->ms[v]);
		free(k->auth[v]);
	}
}

/* A random (version 4) GUID: RFC 9562 §5.4. */
static int random_guid(EFI_GUID *g)
{
	if (random_bytes(g, sizeof(*g)) < 0)
		return -1;
	g->Data3 = (uint16_t)((g->Data3 & 0x0fff) | 0x4000);
	g->Data4[0] = (uint8_t)((g->Data4[0] & 0x3f) | 0x80);
	return 0;
}

/* The signature list of @v: our certificate, then Microsoft's kept ones. */
static int make_list(const struct new_keys *k, enum sb_var_id v, uint8_t **ret, size_t *ret_len)
{
	struct siglist_entry *e = xmalloc((1 + k->ms[v].n) * sizeof(*e));
	uint8_t *der;
	size_t der_len;
	int r = -1;

	if (sb_key_cert_der(k->key[v], &der, &der_len) < 0) {
		free(e);
		return -1;
	}
	e[0] = (struct siglist_entry){ .type = EFI_CERT_X509_GUID, .owner = k->owner, .data = der, .size = der_len };
	memcpy(e + 1, k->ms[v].e, k->ms[v].n * sizeof(*e));
	if (siglist_build(e, 1 + k->ms[v].n, ret, ret_len) == EFI_SUCCESS)
		r = 0;
	else
		tool_fail("%s: the signature list would be too large", sb_vars[v].name);
	free(der);
	free(e);
	return r;
}

/* @v's .auth file: its list, signed by its signer's key over what §8.2.2 says. */
static int make_auth(struct new_keys *k, enum sb_var_id v)
{
	const struct sb_var *var = &sb_vars[v];
	uint8_t *list = NULL, *payload = NULL, *sig = NULL;
	size_t list_len = 0, payload_len = 0, sig_len = 0;
	int r = -1;

	if (make_list(k, v, &list, &list_len) < 0)
		return -1;
	if (siglist_auth_payload(var->name, &var->vendor, KEYS_VAR_ATTRIBUTES, &k->now, list, list_len, &payload,
				 &payload_len) == EFI_SUCCESS &&
	    sb_key_sign(k->key[var->signer], payload, payload_len, &sig, &sig_len) == 0 &&
	    siglist_auth_build(&k->now, sig, sig_len, list, list_len, &k->auth[v], &k->auth_len[v]) == EFI_SUCCESS)
		r = 0;
	else if (!sig)
		tool_fail("%s: cannot make its authenticated variable data", var->name);
	free(sig);
	free(payload);
	free(list);
	return r;
}

static int make_all(struct new_keys *k, bool microsoft)
{
	char host[256] = "";
	time_t t = time(NULL);

	gethostname(host, sizeof(host) - 1);
	if (random_guid(&k->owner) < 0)
		return -1;
	efi_time_from_unix((int64_t)t, 0, &k->now);
	k->now.TimeZone = 0; /* §8.2.2: Pad1, Nanosecond, TimeZone, Daylight and Pad2 are 0 */
	if (microsoft && (keys_microsoft(SB_KEK, &k->ms[SB_KEK]) < 0 || keys_microsoft(SB_DB, &k->ms[SB_DB]) < 0))
		return -1;
	if (microsoft && !k->ms[SB_DB].n)
		return tool_fail("--microsoft: %s/db-%s holds no certificate of Microsoft's (owner 77fa9abd-0359-4d32-"
				 "bd60-28f4e78f784b): run it while the firmware still has its factory keys",
				 efivars_dir(), EFI_IMAGE_SECURITY_DATABASE_GUID_STR), -1;
	for (int v = 0; v < SB_VARS; v++) {
		char *cn = xasprintf("%s%s%s", host, *host ? " " : "", sb_vars[v].what);
		int r = sb_key_generate(cn, &k->key[v]);

		free(cn);
		if (r < 0)
			return -1;
	}
	for (int v = 0; v < SB_VARS; v++)
		if (make_auth(k, v) < 0)
			return -1;
	return 0;
}

static void free_secret(uint8_t *p, size_t n)
{
	if (p)
		explicit_bzero(p, n);
	free(p);
}

static int write_in(const char *dir, const char *name, const uint8_t *data, size_t len, mode_t mode)
{
	char *path = path_join(dir, name);
	int r = write_file_atomic(path, data, len, mode);

	free(path);
	return r;
}

/* The PEM key (0600) and certificate of @v, and its .auth file. */
static int write_var(const struct new_keys *k, enum sb_var_id v, const char *dir)
{
	uint8_t *key = NULL, *crt = NULL;
	size_t key_len = 0, crt_len = 0;
	char *kn = xasprintf("%s.key", sb_vars[v].name), *cn = xasprintf("%s.crt", sb_vars[v].name);
	char *an = xasprintf("%s.auth", sb_vars[v].name);
	int r = sb_key_key_pem(k->key[v], &key, &key_len) == 0 && sb_key_cert_pem(k->key[v], &crt, &crt_len) == 0 &&
			write_in(dir, kn, key, key_len, 0600) == 0 && write_in(dir, cn, crt, crt_len, 0644) == 0 &&
			write_in(dir, an, k->auth[v], k->auth_len[v], 0644) == 0 ? 0 : -1;

	free_secret(key, key_len);
	free(crt);
	free(an);
	free(cn);
	free(kn);
	return r;
}

static int write_all(const struct new_keys *k, const char *dir)
{
	char guid[GUID_STRING_SIZE + 1];

	guid_format(&k->owner, guid);
	strcat(guid, "\n");
	for (int v = 0; v < SB_VARS; v++)
		if (write_var(k, v, dir) < 0)
			return -1;
	return write_in(dir, KEYS_OWNER_FILE, (const uint8_t *)guid, strlen(guid), 0644);
}

/* 0: @dir is free; 1: it exists and --force moves it aside; -1: refused (printed). */
static int check_free(const char *dir, bool force)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return errno == ENOENT ? 0 : (tool_fail("%s: %s", dir, strerror(errno)), -1);
	if (!force)
		return tool_fail("%s: keys exist already: --force makes new ones (the old ones are kept aside; "
				 "firmware that enrolled them must then enroll the new ones)", dir), -1;
	return 1;
}

/* @dir to @dir.old-DATE: firmware holding the old PK and KEK needs them to sign an update. */
static int move_aside(const char *dir)
{
	char stamp[32] = "";
	time_t t = time(NULL);
	struct tm tm;
	char *old;
	int r = 0;

	if (gmtime_r(&t, &tm))
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
	old = xasprintf("%s.old-%s", dir, stamp);
	if (rename(dir, old) < 0)
		r = -tool_fail("%s: cannot move it to %s: %s", dir, old, strerror(errno));
	else
		printf("moved the old keys to %s\n", old);
	free(old);
	return r;
}

/* handoff.conf: the db key signs what install, update and the kernel hooks write. */
static int configure(void)
{
	char *key = keys_file(sb_vars[SB_DB].name, ".key"), *crt = keys_file(sb_vars[SB_DB].name, ".crt");
	char *conf = path_join(conf_dir(), HANDOFF_CONF_NAME);
	int r = handoff_conf_set("sign-key", key) == 0 && handoff_conf_set("sign-cert", crt) == 0 ? 0 : -1;

	if (r == 0)
		printf("set sign-key=%s and sign-cert=%s in %s\n", key, crt, conf);
	free(conf);
	free(crt);
	free(key);
	return r;
}

int keys_create(bool force, bool microsoft)
{
	char *dir = keys_dir(), *tmp = xasprintf("%s.new.XXXXXX", dir), guid[GUID_STRING_SIZE];
	struct new_keys k = { 0 };
	int exists = check_free(dir, force), r = -1;
	bool made = false;

	if (exists < 0 || mkdir_p(conf_dir(), 0755) < 0 || make_all(&k, microsoft) < 0)
		goto out;
	if (!(made = mkdtemp(tmp) != NULL)) {
		tool_fail("%s: cannot create it: %s", tmp, strerror(errno));
		goto out;
	}
	if (write_all(&k, tmp) < 0 || (exists && move_aside(dir) < 0))
		goto out;
	if (rename(tmp, dir) < 0) {
		tool_fail("%s: cannot rename it to %s: %s", tmp, dir, strerror(errno));
		goto out;
	}
	made = false;
	guid_format(&k.owner, guid);
	printf("made PK, KEK and db (RSA 2048, owner %s) in %s\n", guid, dir);
	r = configure();
	if (r == 0)
		printf("next: 'handoff keys enroll' puts them on the ESP for the loader to enroll in Setup Mode\n");
out:
	if (made)
		rm_rf(tmp);
	new_keys_free(&k);
	free(tmp);
	free(dir);
	return r;
}
