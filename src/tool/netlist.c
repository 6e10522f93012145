/* loader/entries.list (README "Network boot"): a server cannot list a
 * directory over HTTP, so a network boot tree names its entries in this
 * file. `handoff install --netboot` creates it; `entry add` and `entry
 * remove` rewrite it wherever it exists: one line per file in
 * loader/entries/ (*.conf) and EFI/Linux/ (*.efi), sorted, after the lines
 * the tool does not own (comments, "sha256 HEX PATH" pins, other paths),
 * which are kept as they were. A file whose name the loader would refuse in
 * the list (a blank, '#' or control character: net_list_word_ok()) is left
 * out, with a warning. */
#include "tool.h"
#include "core/net_list.h"
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#define NETLIST_PATH "loader/entries.list"
#define NETLIST_MAX (1u << 20)

static const struct {
	const char *dir, *suffix;
} entry_dirs[] = { { "loader/entries", ".conf" }, { "EFI/Linux", ".efi" } };

static bool has_suffix(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);

	return n > m && strncasecmp(s + n - m, suffix, m) == 0;
}

/* A line naming a file directly in one of the entry directories: the tool's to write. */
static bool entry_line(const char *s, size_t n)
{
	while (n && (*s == ' ' || *s == '\t' || *s == '/'))
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		n--;
	for (size_t i = 0; i < sizeof(entry_dirs) / sizeof(entry_dirs[0]); i++) {
		size_t d = strlen(entry_dirs[i].dir);

		if (n > d + 1 && strncmp(s, entry_dirs[i].dir, d) == 0 && s[d] == '/' &&
		    !memchr(s + d + 1, '/', n - d - 1) && has_suffix(s, n, entry_dirs[i].suffix))
			return true;
	}
	return false;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entry files of @root, "DIR/NAME" each, sorted; those the loader cannot list, said and left out. */
static size_t list_entries(const char *root, char ***ret)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(entry_dirs) / sizeof(entry_dirs[0]); i++) {
		char *dir = path_join(root, entry_dirs[i].dir);
		DIR *d = opendir(dir);
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char *rel = xasprintf("%s/%s", entry_dirs[i].dir, de->d_name), *full = path_join(root, rel);
			size_t len = strlen(de->d_name);
			bool entry = de->d_name[0] != '.' && has_suffix(de->d_name, len, entry_dirs[i].suffix) &&
				     is_file(full);

			if (entry && !net_list_word_ok(de->d_name, len)) {
				log_warning("%s: a blank, '#' or control character in the name: not listed in %s "
					    "(a network boot could not offer it)", rel, NETLIST_PATH);
			} else if (entry) {
				v = xrealloc(v, (n + 1) * sizeof(*v));
				v[n++] = TAKE_PTR(rel);
			}
			free(rel);
			free(full);
		}
		if (d)
			closedir(d);
		free(dir);
	}
	qsort(v, n, sizeof(*v), cmp_str);
	*ret = v;
	return n;
}

int netlist_update(const char *root, bool create)
{
	char *path = path_join(root, NETLIST_PATH), **names;
	uint8_t *old = NULL;
	size_t old_len = 0, n;
	struct strbuf sb = { 0 };
	int r = -1;

	if (read_file_opt(path, NETLIST_MAX, &old, &old_len) < 0 || (!old && !create)) {
		r = old ? -1 : 0;
		goto out;
	}
	if (!old)
		sb_puts(&sb, "# The entries a network boot of this tree offers (handoff(1), \"Network boot\"):\n"
			     "# entry lines are rewritten by handoff entry add/remove; other lines are kept.\n"
			     "# sha256 HEX PATH pins a file: handoff refuses it when its bytes differ.\n");
	for (size_t pos = 0; pos < old_len;) {
		const char *s = (const char *)old + pos, *nl = memchr(s, '\n', old_len - pos);
		size_t len = nl ? (size_t)(nl - s) : old_len - pos;

		if (!entry_line(s, len)) {
			sb_putn(&sb, s, len);
			sb_putc(&sb, '\n');
		}
		pos += len + 1;
	}
	n = list_entries(root, &names);
	for (size_t i = 0; i < n; i++) {
		sb_printf(&sb, "%s\n", names[i]);
		free(names[i]);
	}
	free(names);
	r = 0;
	if (!file_has_content(path, sb_str(&sb), strlen(sb_str(&sb))))
		r = write_file_atomic(path, sb_str(&sb), strlen(sb_str(&sb)), 0644);
out:
	sb_free(&sb);
	free(old);
	free(path);
	return r;
}
