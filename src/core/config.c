/* \loader\loader.conf, as systemd-boot reads it (loader.conf(5)): timeout,
 * default (with @saved), editor, console-mode, the auto-*, the
 * secure-boot-enroll* and reboot-for-bitlocker keys are used;
 * the other keys systemd-boot
 * knows are accepted and ignored with a note; unknown keys warn. handoff's own
 * boot-partition and editor-password keys are ones systemd-boot skips (it
 * ignores keys it does not know), as is retry-on-error. Line syntax and error
 * reporting: conf_line.h. */
#include "config.h"
#include "array.h"
#include "conf_line.h"
#include "guid.h"
#include "log.h"
#include "pbkdf2.h"

enum cfg_key {
	CFG_KEY_TIMEOUT, CFG_KEY_DEFAULT, CFG_KEY_EDITOR, CFG_KEY_CONSOLE_MODE, CFG_KEY_AUTO_ENTRIES,
	CFG_KEY_AUTO_FIRMWARE, CFG_KEY_AUTO_REBOOT, CFG_KEY_AUTO_POWEROFF, CFG_KEY_BOOT_PARTITION, CFG_KEY_SB_ENROLL,
	CFG_KEY_SB_ENROLL_ACTION, CFG_KEY_SB_ENROLL_TIMEOUT, CFG_KEY_EDITOR_PASSWORD, CFG_KEY_REBOOT_FOR_BITLOCKER,
	CFG_KEY_RETRY, CFG_KEY_MAX
};

static const char *const cfg_key_names[CFG_KEY_MAX] = {
	[CFG_KEY_TIMEOUT] = "timeout",
	[CFG_KEY_DEFAULT] = "default",
	[CFG_KEY_EDITOR] = "editor",
	[CFG_KEY_CONSOLE_MODE] = "console-mode",
	[CFG_KEY_AUTO_ENTRIES] = "auto-entries",
	[CFG_KEY_AUTO_FIRMWARE] = "auto-firmware",
	[CFG_KEY_AUTO_REBOOT] = "auto-reboot",
	[CFG_KEY_AUTO_POWEROFF] = "auto-poweroff",
	[CFG_KEY_BOOT_PARTITION] = "boot-partition",
	[CFG_KEY_SB_ENROLL] = "secure-boot-enroll",
	[CFG_KEY_SB_ENROLL_ACTION] = "secure-boot-enroll-action",
	[CFG_KEY_SB_ENROLL_TIMEOUT] = "secure-boot-enroll-timeout-sec",
	[CFG_KEY_EDITOR_PASSWORD] = "editor-password",
	[CFG_KEY_REBOOT_FOR_BITLOCKER] = "reboot-for-bitlocker",
	[CFG_KEY_RETRY] = "retry-on-error",
};

/* The values of secure-boot-enroll (enum cfg_sb_enroll) and of
 * secure-boot-enroll-action (reboot = 0), loader.conf(5). */
static const char *const sb_enroll_names[] = { "off", "manual", "if-safe", "force", NULL };
static const char *const sb_action_names[] = { "reboot", "shutdown", NULL };

/* Keys that may be given more than once, each adding a value. */
#define CFG_KEYS_REPEATABLE (1u << CFG_KEY_BOOT_PARTITION)

#define CFG_DEFAULTS                                                                                  \
	((struct loader_config){ .timeout_sec = CFG_TIMEOUT_UNSET, .editor = true, .auto_entries = true, \
				 .sb_enroll = CFG_SB_ENROLL_IF_SAFE,                                      \
				 .sb_enroll_timeout_sec = CFG_SB_ENROLL_TIMEOUT_DEFAULT })

/* Keys of systemd-boot's loader.conf(5) that handoff has no use for: not an
 * error, a loader.conf written for systemd-boot must work unchanged. */
static const char *const systemd_boot_keys[] = {
	"beep", "secure-boot-enrollment", "reboot-on-error",
	"random-seed-mode", "log-level", "preferred-profile",
};

void cfg_init(struct loader_config *cfg)
{
	*cfg = CFG_DEFAULTS;
}

void cfg_free(struct loader_config *cfg)
{
	mem_free(cfg->default_glob);
	mem_free(cfg->console_mode);
	mem_free(cfg->boot_partitions);
	cfg_init(cfg);
}

uint8_t cfg_auto_entries(const struct loader_config *cfg)
{
	uint8_t defaults = cfg->auto_entries ? CFG_AUTO_FIRMWARE : 0;

	return (uint8_t)((cfg->auto_on & cfg->auto_set) | (defaults & ~cfg->auto_set));
}

bool cfg_editor_allowed(const struct loader_config *cfg, bool secure_boot)
{
	if (cfg->editor_password.malformed)
		return false; /* fail closed: the line meant to guard it is unreadable */
	return cfg->editor_set ? cfg->editor : !secure_boot;
}

bool cfg_parse_timeout(const char *s, size_t len, uint32_t *ret)
{
	struct conf_kv kv = { .value = s, .value_len = len };
	uint64_t v;

	if (conf_value_is(&kv, "menu-force"))
		*ret = CFG_TIMEOUT_MENU_FORCE;
	else if (conf_value_is(&kv, "menu-hidden") || conf_value_is(&kv, "menu-disabled"))
		*ret = 0;
	else if (kv.value_len && conf_parse_uint(&kv, CFG_TIMEOUT_MENU_FORCE - 1, &v))
		*ret = (uint32_t)v;
	else
		return false;
	return true;
}

/* "<key> '<value>' is not @what, ignored", counted as a malformed line. */
static void cfg_bad_value(struct conf_reader *r, const struct conf_kv *kv, const char *what)
{
	conf_line_error(r, kv, "%.*s '%.*s' is not %s, ignored", (int)kv->key_len, kv->key, (int)kv->value_len,
			kv->value, what);
}

static void cfg_set_timeout(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg)
{
	if (!cfg_parse_timeout(kv->value, kv->value_len, &cfg->timeout_sec))
		conf_line_error(r, kv, "timeout '%.*s' is not " CFG_TIMEOUT_WHAT ", ignored", (int)kv->value_len,
				kv->value, CFG_TIMEOUT_MENU_FORCE - 1);
}

static EFI_STATUS cfg_set_string(struct conf_reader *r, const struct conf_kv *kv, char **field)
{
	char *s = conf_strndup(kv->value, kv->value_len);

	if (!s)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s:%u: out of memory", r->path, kv->line);
	mem_free(*field);
	*field = s;
	return EFI_SUCCESS;
}

/* "default GLOB" or systemd-boot's one special value "@saved". */
static EFI_STATUS cfg_set_default(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg)
{
	if (kv->value[0] != '@') {
		cfg->default_saved = false;
		return cfg_set_string(r, kv, &cfg->default_glob);
	}
	if (!conf_value_is(kv, "@saved")) {
		conf_line_error(r, kv, "default '%.*s': the only special value is @saved, ignored", (int)kv->value_len,
				kv->value);
		return EFI_SUCCESS;
	}
	mem_free(cfg->default_glob);
	cfg->default_glob = NULL;
	cfg->default_saved = true;
	return EFI_SUCCESS;
}

/* "boot-partition PARTUUID": a partition whose entries count besides the
 * ESP's and XBOOTLDR's (README "Security"), named by its GPT partition GUID. */
static EFI_STATUS cfg_add_partition(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg)
{
	EFI_GUID g;

	if (!guid_parse(kv->value, kv->value_len, &g)) {
		cfg_bad_value(r, kv, "a PARTUUID");
		return EFI_SUCCESS;
	}
	if (array_append(&cfg->boot_partitions, &cfg->n_boot_partitions, sizeof(g), &g) != EFI_SUCCESS)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s:%u: out of memory", r->path, kv->line);
	return EFI_SUCCESS;
}

/* CFG_PW_SCHEME ":ITERATIONS:SALT:HASH", each within its bounds (config.h). */
static bool cfg_password_parse(const struct conf_kv *kv, struct cfg_password *pw)
{
	static const char scheme[] = CFG_PW_SCHEME ":";
	const char *s = kv->value + sizeof(scheme) - 1, *end = kv->value + kv->value_len, *c1, *c2;
	struct conf_kv num = { .value = s };
	uint64_t iterations;
	size_t salt_digits;

	if (kv->value_len < sizeof(scheme) - 1 || memcmp(kv->value, scheme, sizeof(scheme) - 1) != 0)
		return false;
	c1 = memchr(s, ':', (size_t)(end - s));
	c2 = c1 ? memchr(c1 + 1, ':', (size_t)(end - c1 - 1)) : NULL;
	if (!c2)
		return false;
	num.value_len = (size_t)(c1 - s);
	salt_digits = (size_t)(c2 - c1 - 1);
	if (!conf_parse_uint(&num, CFG_PW_ITERATIONS_MAX, &iterations) || iterations < CFG_PW_ITERATIONS_MIN ||
	    salt_digits % 2 || salt_digits < 2 * CFG_PW_SALT_MIN || salt_digits > 2 * CFG_PW_SALT_MAX ||
	    (size_t)(end - c2 - 1) != 2 * SHA256_DIGEST_SIZE)
		return false;
	pw->iterations = (uint32_t)iterations;
	pw->salt_len = (uint8_t)(salt_digits / 2);
	return hex_decode(c1 + 1, pw->salt_len, pw->salt) && hex_decode(c2 + 1, SHA256_DIGEST_SIZE, pw->hash);
}

/* A malformed line locks the editor for good (fail closed): the password
 * meant to guard it must not be lost to a typo. */
static void cfg_set_password(struct conf_reader *r, const struct conf_kv *kv, struct cfg_password *pw)
{
	struct cfg_password p = { .set = true, .malformed = pw->malformed };

	if (cfg_password_parse(kv, &p)) {
		*pw = p;
		return;
	}
	pw->set = pw->malformed = true;
	conf_line_error(r, kv, "editor-password is not " CFG_PW_SCHEME ":ITERATIONS:SALT:HASH as handoff "
			"set-editor-password writes it: no password opens the editor");
}

bool cfg_password_check(const struct cfg_password *pw, const char *password, size_t len)
{
	uint8_t h[SHA256_DIGEST_SIZE];
	bool ok;

	if (!pw->set || pw->malformed)
		return false;
	pbkdf2_sha256(password, len, pw->salt, pw->salt_len, pw->iterations, h, sizeof(h));
	ok = mem_equal_ct(h, pw->hash, sizeof(h));
	mem_wipe(h, sizeof(h));
	return ok;
}

static bool cfg_set_bool(struct conf_reader *r, const struct conf_kv *kv, bool *field)
{
	if (conf_parse_bool(kv, field))
		return true;
	cfg_bad_value(r, kv, "yes or no (y/n, true/false, on/off, 1/0)");
	return false;
}

/* A value out of @names (NULL-terminated), any case: its index into *@field;
 * @what lists them for the message. */
static void cfg_set_word(struct conf_reader *r, const struct conf_kv *kv, const char *const *names,
			 const char *what, uint8_t *field)
{
	for (uint8_t i = 0; names[i]; i++)
		if (conf_value_is(kv, names[i])) {
			*field = i;
			return;
		}
	cfg_bad_value(r, kv, what);
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* "retry-on-error SECONDS [next|reset]" (README "Network boot"): a number,
 * then, after blanks, one word or none (reset); 0 turns retrying off. */
static void cfg_set_retry(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg)
{
	struct conf_kv num = *kv, word = *kv;
	uint64_t sec;

	num.value_len = 0;
	while (num.value_len < kv->value_len && !is_blank(kv->value[num.value_len]))
		num.value_len++;
	word.value_len -= num.value_len;
	word.value += num.value_len;
	while (word.value_len && is_blank(word.value[0]))
		word.value++, word.value_len--;
	if (!conf_parse_uint(&num, CFG_RETRY_SEC_MAX, &sec) ||
	    (word.value_len && !conf_value_is(&word, "next") && !conf_value_is(&word, "reset"))) {
		cfg_bad_value(r, kv, CFG_RETRY_WHAT);
		return;
	}
	cfg->retry_sec = (uint32_t)sec;
	cfg->retry_next = conf_value_is(&word, "next");
}

/* "secure-boot-enroll-timeout-sec N|hidden": hidden is 0, no countdown. */
static void cfg_set_sb_timeout(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg)
{
	uint64_t v = 0;

	if (conf_value_is(kv, "hidden") || conf_parse_uint(kv, UINT32_MAX, &v))
		cfg->sb_enroll_timeout_sec = (uint32_t)v;
	else
		cfg_bad_value(r, kv, "a number of seconds or hidden");
}

static void cfg_set_auto(struct conf_reader *r, const struct conf_kv *kv, uint8_t bit, struct loader_config *cfg)
{
	bool on;

	if (!cfg_set_bool(r, kv, &on))
		return;
	cfg->auto_set |= bit;
	cfg->auto_on = (uint8_t)(on ? cfg->auto_on | bit : cfg->auto_on & ~bit);
}

static EFI_STATUS cfg_apply(struct conf_reader *r, const struct conf_kv *kv, enum cfg_key key,
			    struct loader_config *cfg)
{
	switch (key) {
	case CFG_KEY_TIMEOUT:
		cfg_set_timeout(r, kv, cfg);
		return EFI_SUCCESS;
	case CFG_KEY_DEFAULT:
		return cfg_set_default(r, kv, cfg);
	case CFG_KEY_EDITOR:
		if (cfg_set_bool(r, kv, &cfg->editor))
			cfg->editor_set = true;
		return EFI_SUCCESS;
	case CFG_KEY_AUTO_ENTRIES:
		cfg_set_bool(r, kv, &cfg->auto_entries);
		return EFI_SUCCESS;
	case CFG_KEY_REBOOT_FOR_BITLOCKER:
		cfg_set_bool(r, kv, &cfg->reboot_for_bitlocker);
		return EFI_SUCCESS;
	case CFG_KEY_AUTO_FIRMWARE:
		cfg_set_auto(r, kv, CFG_AUTO_FIRMWARE, cfg);
		return EFI_SUCCESS;
	case CFG_KEY_AUTO_REBOOT:
		cfg_set_auto(r, kv, CFG_AUTO_REBOOT, cfg);
		return EFI_SUCCESS;
	case CFG_KEY_AUTO_POWEROFF:
		cfg_set_auto(r, kv, CFG_AUTO_POWEROFF, cfg);
		return EFI_SUCCESS;
	case CFG_KEY_CONSOLE_MODE:
		return cfg_set_string(r, kv, &cfg->console_mode);
	case CFG_KEY_BOOT_PARTITION:
		return cfg_add_partition(r, kv, cfg);
	case CFG_KEY_EDITOR_PASSWORD:
		cfg_set_password(r, kv, &cfg->editor_password);
		return EFI_SUCCESS;
	case CFG_KEY_SB_ENROLL:
		cfg_set_word(r, kv, sb_enroll_names, "off, manual, if-safe or force", &cfg->sb_enroll);
		return EFI_SUCCESS;
	case CFG_KEY_SB_ENROLL_ACTION: {
		uint8_t shutdown = cfg->sb_enroll_shutdown;

		cfg_set_word(r, kv, sb_action_names, "reboot or shutdown", &shutdown);
		cfg->sb_enroll_shutdown = shutdown;
		return EFI_SUCCESS;
	}
	case CFG_KEY_SB_ENROLL_TIMEOUT:
		cfg_set_sb_timeout(r, kv, cfg);
		return EFI_SUCCESS;
	case CFG_KEY_RETRY:
		cfg_set_retry(r, kv, cfg);
		return EFI_SUCCESS;
	default:
		return EFI_SUCCESS;
	}
}

static bool is_systemd_boot_key(const struct conf_kv *kv)
{
	for (size_t i = 0; i < ARRAY_SIZE(systemd_boot_keys); i++)
		if (conf_key_is(kv, systemd_boot_keys[i]))
			return true;
	return false;
}

/* One line: a known key is applied (a repeated valid one replaces the earlier
 * value, as in systemd-boot, with a warning; a repeatable one adds a value);
 * anything else is reported. */
static EFI_STATUS cfg_line(struct conf_reader *r, const struct conf_kv *kv, struct loader_config *cfg,
			   unsigned *seen)
{
	for (unsigned k = 0; k < CFG_KEY_MAX; k++) {
		unsigned n_errors = r->n_errors;
		EFI_STATUS err;

		if (!conf_key_is(kv, cfg_key_names[k]))
			continue;
		err = cfg_apply(r, kv, (enum cfg_key)k, cfg);
		if (EFI_ERROR(err) || r->n_errors != n_errors)
			return err; /* a bad value replaced nothing */
		if (*seen & (1u << k) & ~CFG_KEYS_REPEATABLE)
			log_warning("%s:%u: '%s' given again, the last one counts", r->path, kv->line,
				    cfg_key_names[k]);
		*seen |= 1u << k;
		return EFI_SUCCESS;
	}
	if (is_systemd_boot_key(kv)) /* debug: not a problem, "handoff entry list" must not flag it */
		log_debug("%s:%u: '%.*s' is a systemd-boot option that handoff does not implement, ignored", r->path,
			 kv->line, (int)kv->key_len, kv->key);
	else
		log_warning("%s:%u: unknown key '%.*s', ignored", r->path, kv->line, (int)kv->key_len, kv->key);
	return EFI_SUCCESS;
}

EFI_STATUS cfg_parse_loader_conf(const char *text, size_t len, const char *path, struct loader_config *ret)
{
	struct loader_config cfg;
	struct conf_reader r;
	struct conf_kv kv;
	unsigned seen = 0;

	cfg_init(&cfg);
	conf_reader_init(&r, text, len, path);
	r.watch_key = cfg_key_names[CFG_KEY_EDITOR_PASSWORD];
	while (conf_next(&r, &kv)) {
		EFI_STATUS err = cfg_line(&r, &kv, &cfg, &seen);

		if (EFI_ERROR(err)) {
			cfg_free(&cfg);
			*ret = cfg;
			return err;
		}
	}
	if (r.watch_key_rejected) /* an editor-password line too broken to read: locked, as a bad value */
		cfg.editor_password.set = cfg.editor_password.malformed = true;
	cfg.n_errors = r.n_errors;
	*ret = cfg;
	return EFI_SUCCESS;
}
