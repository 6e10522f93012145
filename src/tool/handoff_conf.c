/* Reading /etc/handoff/handoff.conf and the layout of kernel-install's
 * install.conf (handoff_conf.h). The lines are split by kv_parse()
 * (readers.c, fuzzed); what they mean is decided here. HANDOFF_CONF_DIR
 * stands in for /etc/handoff in tests. */
#include "handoff_conf.h"
#include "entry.h"
#include "readers.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CONF_DIR "/etc/handoff"
#define CONF_FILE_MAX (64u << 10)

const char *conf_dir(void)
{
	const char *env = getenv("HANDOFF_CONF_DIR");

	return env && *env ? env : CONF_DIR;
}

/* The settings of @path; a missing file has none. Return: 0, or -1 (printed). */
static int read_settings(const char *path, struct kv_line **ret, size_t *ret_n)
{
	uint8_t *text = NULL;
	size_t len = 0;

	*ret = NULL;
	*ret_n = 0;
	if (read_file_opt(path, CONF_FILE_MAX, &text, &len) < 0)
		return -1;
	if (text)
		*ret_n = kv_parse((const char *)text, len, ret);
	free(text);
	return 0;
}

/* layout= of @path: 1 uki, 0 another layout or none (kernel-install knows
 * "bls" and "other"; the rest of install.conf is kernel-install's business). */
static int layout_of(const char *path, struct handoff_conf *c)
{
	struct kv_line *v;
	size_t n;
	int uki = 0;

	if (read_settings(path, &v, &n) < 0)
		return -1;
	for (size_t i = 0; i < n; i++)
		if (v[i].key && strcmp(v[i].key, "layout") == 0) {
			uki = strcmp(v[i].value, "uki") == 0;
			free(c->layout_from);
			c->layout_from = xstrdup(path);
		}
	kv_free(v, n);
	c->uki = uki;
	return 0;
}

static int install_conf_layout(struct handoff_conf *c)
{
	const char *env = getenv("KERNEL_INSTALL_CONF_ROOT");
	char *path = path_join(kernel_conf_root(), "install.conf");
	int r;

	if (!is_file(path) && !(env && *env)) {
		free(path);
		path = xstrdup("/usr/lib/kernel/install.conf");
	}
	r = is_file(path) ? layout_of(path, c) : 0;
	free(path);
	return r;
}

/* One handoff.conf setting into @c. Return: 0, or -1 (printed). */
static int apply(struct handoff_conf *c, const struct kv_line *l)
{
	static const char *const path_keys[] = { "sign-key", "sign-cert", "pcr-private-key", "pcr-public-key" };
	char **const slots[] = { &c->sign_key, &c->sign_cert, &c->pcr_private_key, &c->pcr_public_key };

	if (l->problem)
		return tool_fail("%s:%zu: the line %s", c->path, l->line, l->problem), -1;
	if (strcmp(l->key, "layout") == 0) {
		if (strcmp(l->value, "uki") != 0 && strcmp(l->value, "bls") != 0)
			return tool_fail("%s:%zu: layout '%s': expected bls or uki", c->path, l->line, l->value), -1;
		c->uki = strcmp(l->value, "uki") == 0;
		free(c->layout_from);
		c->layout_from = xstrdup(c->path);
		return 0;
	}
	for (size_t i = 0; i < sizeof(path_keys) / sizeof(path_keys[0]); i++)
		if (strcmp(l->key, path_keys[i]) == 0) {
			if (l->value[0] != '/')
				return tool_fail("%s:%zu: %s '%s': give an absolute path", c->path, l->line, l->key,
						 l->value), -1;
			free(*slots[i]);
			*slots[i] = xstrdup(l->value);
			return 0;
		}
	return tool_fail("%s:%zu: unknown setting '%s' (layout, sign-key, sign-cert, pcr-private-key, "
			 "pcr-public-key)", c->path, l->line, l->key), -1;
}

static int check_pairs(const struct handoff_conf *c)
{
	if (!c->sign_key != !c->sign_cert)
		return tool_fail("%s: sign-key and sign-cert go together (%s is missing)", c->path,
				 c->sign_key ? "sign-cert" : "sign-key"), -1;
	if (c->pcr_public_key && !c->pcr_private_key)
		return tool_fail("%s: pcr-public-key needs pcr-private-key", c->path), -1;
	return 0;
}

int handoff_conf_load(struct handoff_conf *ret)
{
	struct kv_line *v = NULL;
	size_t n = 0;
	int r;

	*ret = (struct handoff_conf){ .path = path_join(conf_dir(), HANDOFF_CONF_NAME) };
	r = install_conf_layout(ret);
	if (r == 0)
		r = read_settings(ret->path, &v, &n);
	for (size_t i = 0; r == 0 && i < n; i++)
		r = apply(ret, &v[i]);
	kv_free(v, n);
	if (r == 0)
		r = check_pairs(ret);
	if (r < 0)
		handoff_conf_free(ret);
	return r;
}

void handoff_conf_free(struct handoff_conf *c)
{
	free(c->layout_from);
	free(c->path);
	free(c->sign_key);
	free(c->sign_cert);
	free(c->pcr_private_key);
	free(c->pcr_public_key);
	*c = (struct handoff_conf){ 0 };
}

bool handoff_conf_signs(const struct handoff_conf *c)
{
	return c->sign_key && c->sign_cert;
}

int handoff_conf_set(const char *key, const char *value)
{
	char *path = path_join(conf_dir(), HANDOFF_CONF_NAME), *line = xasprintf("%s=%s", key, value), *text = NULL;
	uint8_t *old = NULL;
	size_t old_len = 0, len = 0;
	int r = -1;

	if (strpbrk(value, "\r\n"))
		tool_fail("%s: %s '%s': a value of one line", path, key, value);
	else if (read_file_opt(path, CONF_FILE_MAX, &old, &old_len) == 0 && mkdir_p(conf_dir(), 0755) == 0)
		text = text_set_setting((const char *)old, old_len, key, '=', line, &len);
	if (text)
		r = install_file(path, text, len, 0644) < 0 ? -1 : 0;
	free(text);
	free(old);
	free(line);
	free(path);
	return r;
}
