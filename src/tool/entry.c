/* Writing a Type #1 entry (UAPI.1 Boot Loader Specification, "Type #1 Boot
 * Loader Entry Files"): paths in the entry are absolute from the root of the
 * partition (or of its /boot, where the loader also looks), with '/'
 * separators. Copied: the kernel and initrds go to ESP/<token>/<version>/.
 * In place: the entry points at them where they are, relative to /boot. */
#define _GNU_SOURCE
#include "entry.h"
#include "core/array.h"
#include "core/bls_count.h"
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* What the entry names: "linux" and "initrd" values. */
struct entry_refs {
	char *kernel;
	char **initrd;
	size_t n;
};

static void refs_free(struct entry_refs *r)
{
	free(r->kernel);
	for (size_t i = 0; i < r->n; i++)
		free(r->initrd[i]);
	free(r->initrd);
}

static void refs_add_initrd(struct entry_refs *r, char *ref)
{
	r->initrd = xrealloc(r->initrd, (r->n + 1) * sizeof(char *));
	r->initrd[r->n++] = ref;
}

char *path_below(const char *boot, const char *file)
{
	char rb[PATH_MAX], rf[PATH_MAX];
	size_t n;

	if (!realpath(boot, rb) || !realpath(file, rf))
		return NULL;
	n = strcmp(rb, "/") == 0 ? 0 : strlen(rb);
	if (strncmp(rf, rb, n) != 0 || rf[n] != '/')
		return NULL;
	return xstrdup(rf + n);
}

static int refs_in_place(const struct entry_spec *s, struct entry_refs *r)
{
	const char *file = s->linux_path;

	if (!(r->kernel = path_below(s->boot, file)))
		goto outside;
	for (size_t i = 0; i < s->n_initrds; i++) {
		char *ref = path_below(s->boot, file = s->initrds[i]);
		if (!ref)
			goto outside;
		refs_add_initrd(r, ref);
	}
	return 0;
outside:
	return tool_fail("%s: not a file under %s, so the entry cannot point at it in place", file, s->boot), -1;
}

/* Every input is read before anything is written, so a missing or unreadable
 * initrd leaves the ESP (and an existing entry of the same name) as it was.
 * *@changed: a copy on the ESP was new or different. */
static int refs_copied(const struct entry_spec *s, struct entry_refs *r, bool *changed)
{
	char *dir = xasprintf("%s/%s/%s", s->esp, s->token, s->version);
	size_t n = 1 + s->n_initrds, n_read = 0;
	uint8_t **data = xmalloc(n * sizeof(*data));
	size_t *len = xmalloc(n * sizeof(*len));
	int ret = -1;

	*changed = false;
	if (check_names(s) < 0)
		goto out;
	for (; n_read < n; n_read++)
		if (read_file(n_read ? s->initrds[n_read - 1] : s->linux_path, TOOL_READ_MAX, &data[n_read],
			      &len[n_read]) < 0)
			goto out;
	if (mkdir_p(dir, 0755) < 0)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const char *name = i ? path_basename(s->initrds[i - 1]) : "linux";
		char *dst = path_join(dir, name);
		int w = install_file(dst, data[i], len[i], 0644);

		free(dst);
		if (w < 0)
			goto out;
		*changed |= w > 0;
		if (i)
			refs_add_initrd(r, xasprintf("/%s/%s/%s", s->token, s->version, name));
	}
	r->kernel = xasprintf("/%s/%s/linux", s->token, s->version);
	ret = 0;
out:
	for (size_t i = 0; i < n_read; i++)
		free(data[i]);
	free(data);
	free(len);
	free(dir);
	return ret;
}

static void entry_text(const struct entry_spec *s, const struct entry_refs *r, struct strbuf *sb)
{
	sb_puts(sb, ENTRY_FIRST_LINE);
	sb_printf(sb, "title      %s\n", s->title);
	sb_printf(sb, "version    %s\n", s->version);
	if (s->machine_id)
		sb_printf(sb, "machine-id %s\n", s->machine_id);
	if (s->sort_key)
		sb_printf(sb, "sort-key   %s\n", s->sort_key);
	sb_printf(sb, "linux      %s\n", r->kernel);
	for (size_t i = 0; i < r->n; i++)
		sb_printf(sb, "initrd     %s\n", r->initrd[i]);
	if (s->options && *s->options)
		sb_printf(sb, "options    %s\n", s->options);
	if (s->protocol != SCHEME_AUTO)
		sb_printf(sb, "protocol   %s\n", scheme_name(s->protocol));
}

/* A file of entry @id in @dir holding exactly @text (whatever its boot counter says), or NULL. */
static char *find_same(const char *dir, const char *id, const struct strbuf *text)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	while (d && !found && (e = readdir(d))) {
		char *path;

		if (!bls_count_same_entry(e->d_name, ".conf", id))
			continue;
		path = path_join(dir, e->d_name);
		if (file_has_content(path, text->buf, text->len))
			found = xstrdup(e->d_name);
		free(path);
	}
	if (d)
		closedir(d);
	return found;
}


/* Every other file of @id goes: another counter, the other place, or its UKI. */
static int remove_others(const struct entry_spec *s, const char *id, const char *name)
{
	bool boot_is_esp = s->boot && same_file(s->boot, s->esp);

	if (entry_remove_id(s->esp, id, s->in_place && !boot_is_esp ? NULL : name, /* files= */ true) < 0 ||
	    uki_remove_id(s->esp, id, NULL) < 0) /* layout=uki before */
		return -1;
	if (s->boot && !boot_is_esp && is_dir(s->boot) &&
	    entry_remove_id(s->boot, id, s->in_place ? name : NULL, /* files= */ false) < 0)
		return -1;
	return 0;
}

/* --pin: the entry file @name and the files of @r, in the tree's entries.list. */
static int pin_files(const char *root, const char *name, const struct entry_refs *r)
{
	char **paths = xmalloc((2 + r->n) * sizeof(char *));
	struct netlist_pins pins = { .set = paths, .n_set = 2 + r->n };
	int ret;

	paths[0] = xasprintf("loader/entries/%s", name);
	paths[1] = xstrdup(r->kernel + 1); /* "/TOKEN/VERSION/linux" */
	for (size_t i = 0; i < r->n; i++)
		paths[2 + i] = xstrdup(r->initrd[i] + 1);
	ret = netlist_update(root, /* create= */ false, &pins);
	strv_free(paths, pins.n_set);
	return ret;
}

int entry_install(const struct entry_spec *s)
{
	const char *root = s->in_place ? s->boot : s->esp;
	char *id = xasprintf("%s-%s", s->token, s->version), *entries = path_join(root, "loader/entries");
	char *keep = NULL, *name = NULL, *conf = NULL;
	struct entry_refs refs = { 0 };
	struct strbuf text = { 0 };
	bool changed = false;
	int r = -1;

	if ((s->in_place ? refs_in_place(s, &refs) : refs_copied(s, &refs, &changed)) < 0 || mkdir_p(entries, 0755) < 0)
		goto out;
	entry_text(s, &refs, &text);
	/* the same entry again keeps its file, and so its boot counter; a
	 * changed one is a new entry to try (kernel-install's +TRIES) */
	keep = changed ? NULL : find_same(entries, id, &text);
	name = keep ? xstrdup(keep) : s->counted ? xasprintf("%s+%u.conf", id, s->tries) : xasprintf("%s.conf", id);
	conf = path_join(entries, name);
	if ((!keep && install_file(conf, text.buf, text.len, 0644) < 0) || remove_others(s, id, name) < 0 ||
	    (s->pin && pin_files(s->esp, name, &refs) < 0))
		goto out;
	if (s->print_path)
		printf("%s\n", conf);
	r = 0;
out:
	sb_free(&text);
	refs_free(&refs);
	free(conf);
	free(name);
	free(keep);
	free(entries);
	free(id);
	return r;
}
