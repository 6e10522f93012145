/* handoff entry remove: an entry's files in every state of boot counting
 * (UAPI.1 "Boot counting": ID.conf, ID+LEFT.conf, ID+LEFT-DONE.conf), on the
 * ESP and in /boot/loader/entries, the copies handoff made on the ESP for
 * it alone, and its UKIs in ESP/EFI/Linux (ID.efi ... ID+LEFT-DONE.efi,
 * layout=uki); never a file handoff did not write. */
#define _GNU_SOURCE
#include "entry.h"
#include "esp.h"
#include "readers.h"
#include "core/array.h"
#include "core/bls_count.h"
#include "core/pe.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

/* The whole file, and its length (entry_text_refs() reads every line, NUL or not). */
static char *read_text(const char *path, size_t *ret_len)
{
	uint8_t *buf;

	if (read_file(path, 1 << 20, &buf, ret_len) < 0)
		return NULL;
	return (char *)buf;
}

/* Is @file used by an entry in @entries_dir other than those named in @gone? */
static bool file_in_use(const char *entries_dir, char **gone, size_t n_gone, const char *file)
{
	DIR *d = opendir(entries_dir);
	struct dirent *e;
	bool used = false;

	while (d && !used && (e = readdir(d))) {
		size_t nl = strlen(e->d_name), n;
		char *path, *text, **files;
		size_t len = 0;
		bool skip = nl < 6 || strcasecmp(e->d_name + nl - 5, ".conf") != 0;

		for (size_t i = 0; i < n_gone && !skip; i++)
			skip = strcmp(e->d_name, gone[i]) == 0;
		if (skip)
			continue;
		path = path_join(entries_dir, e->d_name);
		text = read_text(path, &len);
		n = text ? entry_text_refs(text, len, &files) : 0;
		for (size_t i = 0; i < n; i++)
			used |= strcmp(files[i], file) == 0;
		if (text)
			strv_free(files, n);
		free(text);
		free(path);
	}
	if (d)
		closedir(d);
	return used;
}

/* Remove @file and then its parent directories while they are empty, up to @root. */
static void remove_file_and_dirs(const char *root, const char *file)
{
	char *path = path_join(root, file), *slash;

	if (unlink(path) == 0)
		printf("removed %s\n", path);
	while ((slash = strrchr(path, '/')) && (size_t)(slash - path) > strlen(root)) {
		*slash = '\0';
		if (rmdir(path) < 0)
			break;
	}
	free(path);
}

/* The names in @dir of entry @id's files, but @keep. */
static size_t id_files(const char *dir, const char *id, const char *keep, char ***ret)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0;

	while (d && (e = readdir(d)))
		if (bls_count_same_entry(e->d_name, ".conf", id) && !(keep && strcmp(e->d_name, keep) == 0)) {
			v = xrealloc(v, (n + 1) * sizeof(char *));
			v[n++] = xstrdup(e->d_name);
		}
	if (d)
		closedir(d);
	*ret = v;
	return n;
}

/* Is @ref ("/TOKEN/VERSION/NAME", from an entry of @id that `entry add`
 * wrote) where entry add copies the files of @id, TOKEN-VERSION? */
static bool is_handoff_copy(const char *ref, const char *id)
{
	const char *token = ref + 1, *version = strchr(token, '/'), *name = version ? strchr(version + 1, '/') : NULL;
	char *copy_id;
	bool r;

	if (!name || !name[1] || strchr(name + 1, '/'))
		return false;
	copy_id = xasprintf("%.*s-%.*s", (int)(version - token), token, (int)(name - version - 1), version + 1);
	r = strcmp(copy_id, id) == 0;
	free(copy_id);
	return r;
}

/* The copies handoff made for the entry @text of @id: none unless it wrote the entry. */
static size_t copied_files(const char *text, size_t len, const char *id, char ***ret)
{
	size_t n = 0, k;
	char **f;

	*ret = NULL;
	if (len < strlen(ENTRY_FIRST_LINE) || memcmp(text, ENTRY_FIRST_LINE, strlen(ENTRY_FIRST_LINE)) != 0)
		return 0; /* the text is not NUL-terminated (read_text()) */
	k = entry_text_refs(text, len, &f);
	for (size_t j = 0; j < k; j++)
		if (is_handoff_copy(f[j], id))
			array_append(ret, &n, sizeof(char *), &f[j]);
		else
			free(f[j]);
	free(f);
	return n;
}

int entry_remove_id(const char *root, const char *id, const char *keep, bool files)
{
	char *dir = path_join(root, "loader/entries"), **names, **refs = NULL, **gone = NULL;
	size_t n = id_files(dir, id, keep, &names), n_refs = 0, n_gone = 0;
	struct netlist_pins pins = { 0 };
	int r = 0;

	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		char *path = path_join(dir, names[i]), *text = read_text(path, &len), **f;
		size_t k = text && files ? copied_files(text, len, id, &f) : 0;

		for (size_t j = 0; j < k; j++)
			array_append(&refs, &n_refs, sizeof(char *), &f[j]);
		if (k)
			free(f);
		if (unlink(path) == 0) {
			char *rel = xasprintf("loader/entries/%s", names[i]);
			printf("removed %s\n", path);
			array_append(&gone, &n_gone, sizeof(char *), &rel);
		} else if (errno != ENOENT)
			r = -tool_fail("%s: %s", path, strerror(errno));
		free(text);
		free(path);
	}
	for (size_t i = 0; i < n_refs; i++)
		if (!file_in_use(dir, names, n, refs[i])) {
			char *rel = xstrdup(refs[i] + 1); /* "/TOKEN/VERSION/NAME" */
			remove_file_and_dirs(root, refs[i]);
			array_append(&gone, &n_gone, sizeof(char *), &rel);
		}
	strv_free(refs, n_refs);
	strv_free(names, n);
	free(dir);
	/* a network boot tree lists its entries; the pins of the files removed go with them */
	pins.drop = gone;
	pins.n_drop = n_gone;
	if (netlist_update(root, /* create= */ false, &pins) < 0)
		r = -1;
	strv_free(gone, n_gone);
	return r < 0 ? -1 : (int)n;
}

/* A UKI handoff built: its .sbat (the stub's) names handoff. */
static bool is_handoff_uki(const char *path)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	struct diag_capture quiet;
	const struct pe_section *sbat;
	const uint8_t *data = NULL;
	uint8_t *buf = NULL;
	size_t len = 0, n = 0;
	bool r = false;

	diag_capture_begin(&quiet);
	if (read_file(path, TOOL_READ_MAX, &buf, &len) == 0 && pe_parse(buf, len, path, pe) == EFI_SUCCESS &&
	    (sbat = pe_find_section(pe, ".sbat")))
		data = pe_section_data(sbat, buf, len, PE_LAYOUT_FILE, &n);
	r = data && memmem(data, n, "\nhandoff,", 9) != NULL;
	diag_capture_end(&quiet);
	diag_capture_free(&quiet);
	free(buf);
	free(pe);
	return r;
}

int uki_remove_id(const char *esp, const char *id, const char *keep)
{
	char *dir = path_join(esp, "EFI/Linux"), **names = NULL, **gone = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, n_gone = 0;
	int r = 0;

	while (d && (e = readdir(d)))
		if (bls_count_same_entry(e->d_name, ".efi", id) && !(keep && strcmp(e->d_name, keep) == 0)) {
			char *name = xstrdup(e->d_name);
			array_append(&names, &n, sizeof(char *), &name);
		}
	if (d)
		closedir(d);
	for (size_t i = 0; i < n && r >= 0; i++) {
		char *path = path_join(dir, names[i]);

		if (!is_handoff_uki(path))
			tool_note("keeping %s: not a UKI handoff built", path);
		else if (unlink(path) == 0) {
			char *rel = xasprintf("EFI/Linux/%s", names[i]);
			printf("removed %s\n", path);
			array_append(&gone, &n_gone, sizeof(char *), &rel);
		} else if (errno != ENOENT)
			r = -tool_fail("%s: %s", path, strerror(errno));
		free(path);
	}
	if (r >= 0 && n_gone) {
		struct netlist_pins pins = { .drop = gone, .n_drop = n_gone };
		r = netlist_update(esp, /* create= */ false, &pins) < 0 ? -1 : (int)n_gone;
	}
	strv_free(gone, n_gone);
	strv_free(names, n);
	free(dir);
	return r;
}

/* The entry id: the file name without ".conf" and without a boot counter. */
static char *strip_name(const char *arg)
{
	size_t n = strlen(arg);
	bool has_suffix = n > 5 && strcasecmp(arg + n - 5, ".conf") == 0;
	char *name = has_suffix ? xstrdup(arg) : xasprintf("%s.conf", arg), *id;
	struct bls_counter c;

	bls_count_parse(name, ".conf", &c);
	id = strndup(name, c.base_len);
	free(name);
	return id;
}

struct remove_args {
	const char *esp, *boot, *kernel_version, *token, *id;
};

static int parse_remove(int argc, char **argv, const char *help, struct remove_args *a)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "boot", required_argument, NULL, 'b' },
		{ "kernel-version", required_argument, NULL, 'k' }, { "entry-token", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': a->esp = optarg; break;
		case 'b': a->boot = optarg; break;
		case 'k': a->kernel_version = optarg; break;
		case 'T': a->token = optarg; break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (a->kernel_version ? optind != argc : optind + 1 != argc)
		return tool_usage("usage: entry remove [--esp DIR] ID, or entry remove --kernel-version VERSION");
	if (a->kernel_version && !entry_name_ok(a->kernel_version))
		return tool_usage("--kernel-version '%s': use letters, digits and . _ - + ~ only", a->kernel_version);
	a->id = a->kernel_version ? NULL : argv[optind];
	return 0;
}


int entry_remove(int argc, char **argv, const char *help)
{
	struct remove_args a = { 0 };
	char *esp = NULL, *id = NULL, *token = NULL;
	const char *boot;
	int r = parse_remove(argc, argv, help, &a), n;

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(esp = esp_locate(a.esp, /* quiet= */ a.kernel_version != NULL))) {
		if (!a.kernel_version)
			return EXIT_FAIL;
		tool_note("no EFI system partition found: no entry to remove for %s", a.kernel_version);
		return EXIT_OK;
	}
	if (a.kernel_version && (token = entry_token(a.token)))
		id = xasprintf("%s-%s", token, a.kernel_version);
	else if (!a.kernel_version)
		id = strip_name(a.id);
	r = EXIT_FAIL;
	if (!id)
		goto out;
	if (!entry_name_ok(id)) {
		r = tool_usage("entry id '%s': use the entry's file name", a.id);
		goto out;
	}
	boot = a.boot ? a.boot : BOOT_DIR_DEFAULT;
	n = entry_remove_id(esp, id, NULL, /* files= */ true);
	if (n >= 0) {
		int u = uki_remove_id(esp, id, NULL);
		n = u < 0 ? u : n + u;
	}
	if (n >= 0 && is_dir(boot) && !same_file(boot, esp)) {
		int m = entry_remove_id(boot, id, NULL, /* files= */ false);
		n = m < 0 ? m : n + m;
	}
	if (n == 0 && !a.kernel_version)
		tool_fail("%s: no entry '%s' (no %s/loader/entries/%s.conf)", esp, id, esp, id);
	else if (n >= 0)
		r = EXIT_OK;
out:
	free(token);
	free(id);
	free(esp);
	return r;
}
