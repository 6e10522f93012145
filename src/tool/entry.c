/* Writing a Type #1 entry (UAPI.1 Boot Loader Specification, "Type #1 Boot
 * Loader Entry Files"): paths in the entry are absolute from the root of the
 * partition, with '/' separators. */
#include "entry.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool entry_name_ok(const char *s)
{
	if (!s || !*s || *s == '.' || strlen(s) > 128)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("._-+~", *s)))
			return false;
	return true;
}

/* Initrds keep their file names; two with the same name, or one called
 * "linux", would overwrite each other. */
static int check_names(const struct entry_spec *s)
{
	for (size_t i = 0; i < s->n_initrds; i++) {
		const char *b = path_basename(s->initrds[i]);
		if (!entry_name_ok(b) || strcmp(b, "linux") == 0)
			return tool_fail("%s: unusable file name for an initrd in the ESP", s->initrds[i]), -1;
		for (size_t k = 0; k < i; k++)
			if (strcmp(b, path_basename(s->initrds[k])) == 0)
				return tool_fail("%s and %s have the same file name", s->initrds[k], s->initrds[i]), -1;
	}
	return 0;
}

static void entry_text(const struct entry_spec *s, struct strbuf *sb)
{
	sb_puts(sb, "# Boot Loader Specification Type #1 entry, written by handoff entry add\n");
	sb_printf(sb, "title      %s\n", s->title);
	sb_printf(sb, "version    %s\n", s->version);
	if (s->machine_id)
		sb_printf(sb, "machine-id %s\n", s->machine_id);
	if (s->sort_key)
		sb_printf(sb, "sort-key   %s\n", s->sort_key);
	sb_printf(sb, "linux      /%s/%s/linux\n", s->token, s->version);
	for (size_t i = 0; i < s->n_initrds; i++)
		sb_printf(sb, "initrd     /%s/%s/%s\n", s->token, s->version, path_basename(s->initrds[i]));
	if (s->options && *s->options)
		sb_printf(sb, "options    %s\n", s->options);
	if (s->protocol != SCHEME_AUTO)
		sb_printf(sb, "protocol   %s\n", scheme_name(s->protocol));
}

/* Every input is read before anything is written, so a missing or unreadable
 * initrd leaves the ESP (and an existing entry of the same name) as it was. */
int entry_install(const struct entry_spec *s)
{
	char *dir = xasprintf("%s/%s/%s", s->esp, s->token, s->version);
	char *entries = path_join(s->esp, "loader/entries");
	char *conf = xasprintf("%s/%s-%s.conf", entries, s->token, s->version);
	size_t n = 1 + s->n_initrds, n_read = 0;
	uint8_t **data = xmalloc(n * sizeof(*data));
	size_t *len = xmalloc(n * sizeof(*len));
	struct strbuf text = { 0 };
	int r = -1;

	if (check_names(s) < 0)
		goto out;
	for (; n_read < n; n_read++)
		if (read_file(n_read ? s->initrds[n_read - 1] : s->linux_path, TOOL_READ_MAX, &data[n_read], &len[n_read]) < 0)
			goto out;
	if (mkdir_p(dir, 0755) < 0 || mkdir_p(entries, 0755) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		char *dst = path_join(dir, i ? path_basename(s->initrds[i - 1]) : "linux");
		int w = install_file(dst, data[i], len[i], 0644);

		free(dst);
		if (w < 0)
			goto out;
	}
	entry_text(s, &text);
	if (install_file(conf, text.buf, text.len, 0644) < 0)
		goto out;
	r = 0;
out:
	for (size_t i = 0; i < n_read; i++)
		free(data[i]);
	free(data);
	free(len);
	sb_free(&text);
	free(conf);
	free(entries);
	free(dir);
	return r;
}
