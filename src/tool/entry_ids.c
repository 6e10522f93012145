/* What names this installation for `entry add`, as kernel-install finds it
 * (kernel-install(8) "ENTRY TOKEN"): --entry-token, /etc/kernel/entry-token,
 * /etc/machine-id, os-release's IMAGE_ID= or ID=, read under --root. */
#include "entry.h"
#include "core/array.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MACHINE_ID_LEN 32
#define OSREL_FILE_MAX (64u << 10)

/* First word of a small file's first line; NULL when missing or empty. */
static char *first_word(const char *root, const char *path)
{
	char line[256], *full = path_join(root, path);
	FILE *f = fopen(full, "re");
	char *r = NULL;

	if (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, " \t\r\n");
		line[n] = '\0';
		if (n)
			r = xstrdup(line);
	}
	if (f)
		fclose(f);
	free(full);
	return r;
}

static bool is_machine_id(const char *s)
{
	size_t n = 0;

	for (; s && s[n]; n++)
		if (!isxdigit((unsigned char)s[n]) || isupper((unsigned char)s[n]))
			return false;
	return n == MACHINE_ID_LEN;
}

void host_ids_read(const char *root, struct host_ids *ret)
{
	static const char *const osrel_files[] = { "etc/os-release", "usr/lib/os-release" };

	*ret = (struct host_ids){ .entry_token = first_word(root, "etc/kernel/entry-token"),
				  .machine_id = first_word(root, "etc/machine-id") };
	if (!is_machine_id(ret->machine_id)) {
		free(ret->machine_id);
		ret->machine_id = NULL;
	}
	for (size_t i = 0; i < ARRAY_SIZE(osrel_files); i++) {
		char *path = path_join(root, osrel_files[i]);
		uint8_t *text = NULL;
		size_t len = 0;
		bool found = read_file_opt(path, OSREL_FILE_MAX, &text, &len) == 0 && text;

		if (found)
			osrel_parse((const char *)text, len, path, &ret->os);
		free(text);
		free(path);
		if (found)
			break;
	}
}

void host_ids_free(struct host_ids *h)
{
	free(h->entry_token);
	free(h->machine_id);
	osrel_free(&h->os);
}

/* kernel-install's order: --entry-token, /etc/kernel/entry-token, the machine
 * ID, then IMAGE_ID or ID of os-release (debootstrap roots, containers and
 * image builders have no machine ID yet). */
char *resolve_token(const char *opt, const struct host_ids *h)
{
	const char *t = opt ? opt : h->entry_token ? h->entry_token : h->machine_id ? h->machine_id
		      : h->os.image_id ? h->os.image_id : h->os.id;

	if (!t) {
		tool_fail("no entry token: no /etc/kernel/entry-token, /etc/machine-id, nor IMAGE_ID= or ID= in "
			  "os-release; "
			  "give --entry-token");
		return NULL;
	}
	if (!entry_name_ok(t)) {
		tool_fail("entry token '%s': use letters, digits and . _ - + ~ only", t);
		return NULL;
	}
	return xstrdup(t);
}

char *entry_token(const char *opt)
{
	struct host_ids ids;
	char *t;

	host_ids_read("/", &ids);
	t = resolve_token(opt, &ids);
	host_ids_free(&ids);
	return t;
}

