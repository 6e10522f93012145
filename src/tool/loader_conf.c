/* handoff's boot-partition lines in the ESP's \loader\loader.conf
 * (loader_conf.h). The file is the user's too (timeout, default, their
 * comments): a line is only ever appended, once, and what the loader
 * already reads decides whether it is needed (src/core/config.c parses it,
 * as the loader does). systemd-boot skips keys it does not know, so the file
 * stays valid for it. */
#define _GNU_SOURCE
#include "loader_conf.h"
#include "esp.h"
#include "core/config.h"
#include "core/gpt.h"
#include "core/guid.h"
#include "readers.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

bool loader_conf_names(const char *text, size_t len, const EFI_GUID *uuid)
{
	struct loader_config cfg;
	struct diag_capture quiet; /* the user's other lines are entry list's business */
	bool found = false;

	diag_capture_begin(&quiet);
	if (cfg_parse_loader_conf(text ? text : "", text ? len : 0, LOADER_CONF, &cfg) == EFI_SUCCESS) {
		for (size_t i = 0; i < cfg.n_boot_partitions; i++)
			found |= guid_equal(&cfg.boot_partitions[i], uuid);
		cfg_free(&cfg);
	}
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	return found;
}

char *loader_conf_add_partition(const char *text, size_t len, const EFI_GUID *uuid, const char *comment,
				size_t *ret_len)
{
	const char *first_nl = len ? memchr(text, '\n', len) : NULL;
	const char *nl = first_nl && first_nl > text && first_nl[-1] == '\r' ? "\r\n" : "\n"; /* as the file has it */
	struct strbuf sb = { 0 };
	char s[GUID_STRING_SIZE];

	if (loader_conf_names(text, len, uuid))
		return NULL;
	guid_format(uuid, s);
	if (len)
		sb_printf(&sb, "%.*s%s", (int)len, text, text[len - 1] == '\n' ? "" : nl);
	sb_printf(&sb, "# %s%sboot-partition %s%s", comment, nl, s, nl);
	*ret_len = sb.len;
	return sb.buf;
}

int loader_conf_name_partition(const char *esp, const EFI_GUID *uuid, const char *comment)
{
	char *path = path_join(esp, LOADER_CONF), *dir = path_join(esp, "loader"), *text;
	uint8_t *old = NULL;
	size_t old_len = 0, len = 0;
	char s[GUID_STRING_SIZE];
	int r = -1;

	if (read_file_opt(path, LOADER_CONF_MAX, &old, &old_len) < 0 || mkdir_p(dir, 0755) < 0)
		goto out;
	text = loader_conf_add_partition((const char *)old, old_len, uuid, comment, &len);
	r = 0;
	if (text) {
		r = write_file_atomic(path, text, len, 0644) < 0 ? -1 : 1;
		guid_format(uuid, s);
		if (r > 0)
			printf("named partition %s in %s (boot-partition)\n", s, path);
		free(text);
	}
out:
	free(old);
	free(dir);
	free(path);
	return r;
}

int loader_conf_set(const char *esp, const char *key, const char *line, mode_t new_mode)
{
	char *path = path_join(esp, LOADER_CONF), *dir = path_join(esp, "loader"), *text = NULL;
	uint8_t *old = NULL;
	size_t old_len = 0, len = 0;
	struct stat st = { .st_mode = new_mode };
	int r = -1;

	if (read_file_opt(path, LOADER_CONF_MAX, &old, &old_len) < 0)
		goto out;
	if (old && stat(path, &st) < 0) {
		tool_fail("%s: %s", path, strerror(errno));
		goto out;
	}
	text = text_set_setting((const char *)old, old_len, key, ' ', line, &len);
	if (old ? len == old_len && memcmp(text, old, len) == 0 : !line)
		r = 0; /* already so, or nothing to remove */
	else if (mkdir_p(dir, 0755) == 0)
		r = write_file_atomic(path, text, len, st.st_mode & 07777) < 0 ? -1 : 1;
out:
	free(text);
	free(old);
	free(dir);
	free(path);
	return r;
}

int loader_conf_read(const char *esp, struct loader_config *ret)
{
	char *path = path_join(esp, LOADER_CONF);
	struct diag_capture quiet; /* its lines are entry list's business */
	uint8_t *text = NULL;
	size_t len = 0;
	int r = read_file_opt(path, LOADER_CONF_MAX, &text, &len);

	cfg_init(ret);
	diag_capture_begin(&quiet);
	if (r == 0 && cfg_parse_loader_conf(text ? (const char *)text : "", len, LOADER_CONF, ret) != EFI_SUCCESS)
		r = -1;
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	free(text);
	free(path);
	return r;
}

/* $HANDOFF_BOOT_PARTUUID, when set: 1 with *@ret set, -1 (why) when it is no GUID, 0 when unset. */
static int partuuid_from_env(EFI_GUID *ret, char **ret_why)
{
	const char *env = getenv("HANDOFF_BOOT_PARTUUID");

	if (!env || !*env)
		return 0;
	if (guid_parse(env, strlen(env), ret))
		return 1;
	*ret_why = xasprintf("HANDOFF_BOOT_PARTUUID '%s' is not a partition GUID", env);
	return -1;
}

int boot_partition_uuid(const char *boot, const char *esp, EFI_GUID *ret_uuid, char **ret_why)
{
	static const EFI_GUID xbootldr = GPT_TYPE_XBOOTLDR;
	EFI_GUID type;
	int r;

	*ret_why = NULL;
	if (same_file(boot, esp))
		return 0; /* the entries are the ESP's own */
	r = partuuid_from_env(ret_uuid, ret_why);
	if (r != 0)
		return r;
	if (!esp_is_mounted(esp)) {
		*ret_why = xasprintf("%s is not a mounted ESP, so the partition %s will be on is not known yet: the "
				     "loader reads its entries once loader.conf names it (boot-partition PARTUUID; "
				     "handoff disk --root names the root partition it makes)", esp, boot);
		return 2;
	}
	if (partition_gpt_ids(boot, &type, ret_uuid) < 0) {
		*ret_why = xasprintf("cannot read the GPT entry of the partition holding %s (its PARTUUID, which "
				     "loader.conf must name for the loader to read its entries)", boot);
		return -1;
	}
	return guid_equal(&type, &xbootldr) ? 0 : 1;
}
