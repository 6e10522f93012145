/* loader/entries.list (README "Network boot"): a server cannot list a
 * directory over HTTP, so a network boot tree names its entries in this
 * file. `handoff install --netboot` creates it; `entry add` and `entry
 * remove` rewrite it wherever it exists: one line per file in
 * loader/entries/ (*.conf) and EFI/Linux/ (*.efi), sorted, after the lines
 * the tool does not own (comments, "sha256 HEX PATH" pins, other paths),
 * which are kept as they were. A file whose name the loader would refuse in
 * the list (a blank, '#' or control character: net_list_word_ok()) is left
 * out, with a warning. `entry add --pin` pins the files of the entry it
 * wrote (their pin lines replaced, or added), `entry remove` drops the pins
 * of the files it removed. */
#include "tool.h"
#include "core/net_list.h"
#include <ctype.h>
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

/* The path a "sha256 HEX PATH" line pins (its length in *@ret_n), else NULL. */
static const char *pin_line_path(const char *s, size_t n, size_t *ret_n)
{
	size_t i = 7;

	if (n < 7 + 64 + 2 || memcmp(s, "sha256 ", 7) != 0)
		return NULL;
	for (; i < 7 + 64; i++)
		if (!isxdigit((unsigned char)s[i]))
			return NULL;
	if (s[i++] != ' ')
		return NULL;
	while (n > i && (s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		n--;
	while (i < n && s[i] == '/')
		i++;
	*ret_n = n - i;
	return s + i;
}

/* @paths holds the @n bytes at @s (as the loader compares them: ASCII case aside). */
static bool paths_have(char *const *paths, size_t n_paths, const char *s, size_t n)
{
	for (size_t i = 0; i < n_paths; i++)
		if (strlen(paths[i]) == n && strncasecmp(paths[i], s, n) == 0)
			return true;
	return false;
}

/* A line of the old list the new one keeps: neither the tool's entry line nor a pin being replaced or dropped. */
static bool keep_line(const char *s, size_t len, const struct netlist_pins *pins)
{
	size_t n;
	const char *pinned = pin_line_path(s, len, &n);

	if (entry_line(s, len))
		return false;
	return !pinned || !pins ||
	       !(paths_have(pins->set, pins->n_set, pinned, n) || paths_have(pins->drop, pins->n_drop, pinned, n));
}

/* "sha256 HEX PATH" for each file @pins sets. */
static int put_pins(struct strbuf *sb, const char *root, const struct netlist_pins *pins)
{
	for (size_t i = 0; pins && i < pins->n_set; i++) {
		char *path = path_join(root, pins->set[i]), hex[SHA256_HEX_SIZE];
		uint8_t *data, digest[SHA256_DIGEST_SIZE];
		size_t len;

		if (read_file(path, TOOL_READ_MAX, &data, &len) < 0) {
			free(path);
			return -1;
		}
		sha256(data, len, digest);
		sha256_hex(digest, hex);
		sb_printf(sb, "sha256 %s %s\n", hex, pins->set[i]);
		free(data);
		free(path);
	}
	return 0;
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

bool netlist_exists(const char *root)
{
	char *path = path_join(root, NETLIST_PATH);
	bool r = is_file(path);

	if (!r)
		tool_fail("--pin: %s is missing: handoff install --netboot makes a network boot tree", path);
	free(path);
	return r;
}

int netlist_update(const char *root, bool create, const struct netlist_pins *pins)
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

		if (keep_line(s, len, pins)) {
			sb_putn(&sb, s, len);
			sb_putc(&sb, '\n');
		}
		pos += len + 1;
	}
	if (put_pins(&sb, root, pins) < 0)
		goto out;
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
