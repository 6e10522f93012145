/* \loader\loader.conf, as systemd-boot reads it (loader.conf(5)): the keys
 * handoff acts on, the systemd-boot keys it accepts silently, and a warning
 * for anything else. */
#include "config.h"
#include "lines.h"
#include "log.h"

/* systemd-boot keys that handoff accepts without acting on them. */
static const char *const known_ignored[] = {
	"auto-entries", "auto-firmware", "auto-reboot", "auto-poweroff", "beep", "secure-boot-enroll",
	"reboot-for-bitlocker", "random-seed-mode", "reboot-on-error", "preferred-architecture",
};

static bool parse_timeout(const struct kv_line *l, uint32_t *ret)
{
	uint64_t v = 0;

	if (l->value_len == 10 && memcmp(l->value, "menu-force", 10) == 0)
		return *ret = CFG_TIMEOUT_MENU_FORCE, true;
	if ((l->value_len == 11 && memcmp(l->value, "menu-hidden", 11) == 0) ||
	    (l->value_len == 13 && memcmp(l->value, "menu-disabled", 13) == 0))
		return *ret = 0, true;
	for (size_t i = 0; i < l->value_len; i++) {
		if (l->value[i] < '0' || l->value[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(l->value[i] - '0');
		if (v >= CFG_TIMEOUT_MENU_FORCE)
			return false;
	}
	*ret = (uint32_t)v;
	return true;
}

struct cfg_ctx {
	struct loader_config *cfg;
	const char *path;
	bool oom;
};

static bool replace_string(struct cfg_ctx *c, char **field, const struct kv_line *l)
{
	char *v = kv_value_dup(l);

	if (!v)
		return c->oom = true, true;
	mem_free(*field);
	*field = v;
	return true;
}

static bool cfg_line(void *p, const struct kv_line *l)
{
	struct cfg_ctx *c = p;

	if (kv_key_is(l, "timeout")) {
		if (parse_timeout(l, &c->cfg->timeout_sec))
			return true;
		log_error("%s:%u: timeout '%.*s' is not a number of seconds, ignored", c->path, l->number, (int)l->value_len, l->value);
		return false;
	}
	if (kv_key_is(l, "editor")) {
		if (kv_value_bool(l, &c->cfg->editor))
			return true;
		log_error("%s:%u: editor '%.*s' is not yes or no, ignored", c->path, l->number, (int)l->value_len, l->value);
		return false;
	}
	if (kv_key_is(l, "default"))
		return replace_string(c, &c->cfg->default_glob, l);
	if (kv_key_is(l, "console-mode"))
		return replace_string(c, &c->cfg->console_mode, l);
	for (size_t i = 0; i < ARRAY_SIZE(known_ignored); i++)
		if (kv_key_is(l, known_ignored[i]))
			return true;
	log_warning("%s:%u: unknown key '%.*s', ignored", c->path, l->number, (int)MIN(l->key_len, (size_t)64), l->key);
	return true;
}

EFI_STATUS cfg_parse_loader_conf(const char *text, size_t len, const char *path, struct loader_config *ret)
{
	struct loader_config cfg = { .timeout_sec = CFG_TIMEOUT_UNSET, .editor = true };
	struct cfg_ctx c = { .cfg = &cfg, .path = path };

	cfg.n_errors = kv_parse(text, len, path, cfg_line, &c);
	if (c.oom) {
		cfg_free(&cfg);
		return EFI_OUT_OF_RESOURCES;
	}
	*ret = cfg;
	return EFI_SUCCESS;
}

void cfg_free(struct loader_config *cfg)
{
	mem_free(cfg->default_glob);
	mem_free(cfg->console_mode);
	cfg->default_glob = cfg->console_mode = NULL;
}
