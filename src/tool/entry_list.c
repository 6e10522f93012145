/* handoff entry list: the entries of an ESP as the loader sees them. The
 * same core code parses them (cfg_parse_loader_conf, bls_parse_entry,
 * uki_parse, bls_entry_from_uki), sorts them (bls_sort) and picks the default
 * (bls_find_default); on top, each entry's files are looked up the way FAT
 * would (case-insensitively) and its kernel is checked against its protocol
 * (plan_scheme), so what would fail at boot shows up here as a problem. */
#define _GNU_SOURCE
#include "entry.h"
#include "esp.h"
#include "json.h"
#include "loader_conf.h"
#include "core/array.h"
#include "core/bls.h"
#include "core/config.h"
#include "core/gpt.h"
#include "core/uki.h"
#include <dirent.h>
#include <limits.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct listed {
	struct bls_entry e;
	struct diag_capture problems;
	const char *root;             /* the directory its paths are relative to */
	char **pinned;                /* its files pinned in loader/entries.list */
	size_t n_pinned;
};

struct listing {
	struct loader_config cfg;
	bool has_cfg;
	struct diag_capture cfg_problems;
	struct net_list *pins;        /* loader/entries.list of a network boot tree, or NULL */
	struct listed **items;        /* parsed entries; sorted through @sorted */
	struct bls_entry **sorted;
	size_t n;
	struct listed **ignored;      /* entries the loader would skip, with why */
	size_t n_ignored;
	size_t default_idx;
};

/* Sorted names of the regular files in @dir ending in @suffix (case-insensitive, as on FAT). */
static size_t list_dir(const char *dir, const char *suffix, char ***ret)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	size_t n = 0, sl = strlen(suffix);

	while (d && (e = readdir(d))) {
		size_t l = strlen(e->d_name);
		if (e->d_name[0] == '.' || l <= sl || strcasecmp(e->d_name + l - sl, suffix) != 0)
			continue;
		v = xrealloc(v, (n + 1) * sizeof(char *));
		v[n++] = xstrdup(e->d_name);
	}
	if (d)
		closedir(d);
	strv_sort(v, n);
	*ret = v;
	return n;
}

static char *resolve(const char *esp, const char *path)
{
	return resolve_kind(esp, path, /* want_dir= */ false);
}

static char *slurp(const char *path, size_t *len)
{
	uint8_t *buf;

	if (read_file(path, TOOL_READ_MAX, &buf, len) < 0)
		return NULL;
	return (char *)buf;
}

/* The kernel must parse and be bootable by the entry's protocol (plan_scheme
 * logs why not); an "efi" image must be an x86-64 EFI application. */
static void check_image(const char *esp, const char *ref, const char *key, enum boot_scheme protocol, bool kernel)
{
	char *path = resolve(esp, ref);
	struct image_info *img;
	enum boot_scheme s;
	uint8_t *buf;
	size_t len;

	if (!path) {
		log_error("%s %s: file not found", key, ref);
		return;
	}
	img = xmalloc(sizeof(*img));
	if (read_file(path, TOOL_READ_MAX, &buf, &len) == 0) {
		if (len == 0)
			log_error("%s %s: empty file", key, ref);
		else if (image_identify(buf, len, ref, img) == EFI_SUCCESS) {
			if (kernel)
				plan_scheme(img, protocol, ref, &s);
			else if (!scheme_supported(img, SCHEME_STUB, NULL))
				log_error("%s %s: not an x86-64 EFI application", key, ref);
		}
		free(buf);
	}
	free(img);
	free(path);
}

/* The pins of the entry file @rel and of the files it names. */
static void check_pins(const struct listing *l, struct listed *it, const char *rel)
{
	entry_pins_check(l->pins, it->root, rel, &it->pinned, &it->n_pinned);
	entry_pins_check(l->pins, it->root, it->e.kernel, &it->pinned, &it->n_pinned);
	for (size_t i = 0; i < it->e.n_initrd; i++)
		entry_pins_check(l->pins, it->root, it->e.initrd[i], &it->pinned, &it->n_pinned);
	entry_pins_check(l->pins, it->root, it->e.efi, &it->pinned, &it->n_pinned);
}

static void check_files(const char *esp, const struct bls_entry *e)
{
	if (e->kernel)
		check_image(esp, e->kernel, "linux", e->protocol, true);
	for (size_t i = 0; i < e->n_initrd; i++) {
		char *p = resolve(esp, e->initrd[i]);
		if (!p)
			log_error("initrd %s: file not found", e->initrd[i]);
		free(p);
	}
	if (e->efi)
		check_image(esp, e->efi, "efi", SCHEME_STUB, false);
}

static void add_item(struct listing *l, struct listed *it, bool ok)
{
	struct listed ***v = ok ? &l->items : &l->ignored;
	size_t *n = ok ? &l->n : &l->n_ignored;

	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = it;
}

/* @shown: how entries of @root are named in the listing ("" on the ESP, "/boot/" in place);
 * @unread: why the loader does not read them, or NULL. */
static void load_type1(struct listing *l, const char *esp, const char *shown, const char *unread)
{
	char *dir = path_join(esp, "loader/entries"), **names;
	size_t n = list_dir(dir, ".conf", &names);

	for (size_t i = 0; i < n; i++) {
		struct listed *it = xmalloc(sizeof(*it));
		char *path = path_join(dir, names[i]), *rel = xasprintf("%sloader/entries/%s", shown, names[i]), *text;
		size_t len = 0;
		bool ok = false;

		*it = (struct listed){ .root = esp };
		diag_capture_begin(&it->problems);
		text = slurp(path, &len);
		if (text)
			ok = bls_parse_entry(text, len, names[i], rel, &it->e) == EFI_SUCCESS;
		if (ok)
			check_files(esp, &it->e);
		if (ok && !*shown)
			check_pins(l, it, rel);
		if (unread)
			log_error("%s", unread);
		diag_capture_end(&it->problems);
		if (!it->e.path)
			it->e.path = xstrdup(rel);
		add_item(l, it, ok);
		free(text);
		free(rel);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
}

/* The UKI EFI/Linux/@name as items of @l, one per profile, each with its
 * problems (the file's own go with its first) and pins. */
static void add_uki_items(struct listing *l, const char *esp, const char *path, const char *rel, const char *name)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	uint32_t profiles = 0;
	char *buf = NULL;
	size_t len = 0;

	for (uint32_t p = 0; p == 0 || p < profiles; p++) {
		struct listed *it = xmalloc(sizeof(*it));
		bool ok;

		*it = (struct listed){ .root = esp };
		diag_capture_begin(&it->problems);
		if (p == 0)
			profiles = uki_listing_load(path, rel, &buf, &len, pe);
		ok = profiles && uki_listing_entry(&it->e, pe, buf, len, rel, name, p);
		if (ok) /* its efi is the same file */
			entry_pins_check(l->pins, esp, rel, &it->pinned, &it->n_pinned);
		diag_capture_end(&it->problems);
		if (!it->e.path)
			it->e.path = xstrdup(rel);
		add_item(l, it, ok);
	}
	free(buf);
	free(pe);
}

static void load_type2(struct listing *l, const char *esp)
{
	char *linux_dir = resolve_kind(esp, "EFI/Linux", /* want_dir= */ true), **names;
	size_t n = linux_dir ? list_dir(linux_dir, ".efi", &names) : 0;

	for (size_t i = 0; i < n; i++) {
		char *path = path_join(linux_dir, names[i]), *rel = xasprintf("EFI/Linux/%s", names[i]);

		add_uki_items(l, esp, path, rel, names[i]);
		free(rel);
		free(path);
		free(names[i]);
	}
	if (linux_dir)
		free(names);
	free(linux_dir);
}

static void load_config(struct listing *l, const char *esp)
{
	char *path = path_join(esp, "loader/loader.conf"), *text;
	size_t len = 0;

	cfg_init(&l->cfg);
	diag_capture_begin(&l->cfg_problems);
	if (is_file(path) && (text = slurp(path, &len))) {
		l->has_cfg = cfg_parse_loader_conf(text, len, "loader/loader.conf", &l->cfg) == EFI_SUCCESS;
		free(text);
	}
	l->pins = entry_pins_load(esp);
	diag_capture_end(&l->cfg_problems);
	free(path);
}

/* On a running system: is @boot's partition one the loader reads (README "Security")? */
static bool boot_partition_unread(const struct listing *l, const char *esp, const char *boot)
{
	EFI_GUID uuid;
	char *why = NULL;
	bool unread = boot_partition_uuid(boot, esp, &uuid, &why) == 1;

	for (size_t i = 0; unread && i < l->cfg.n_boot_partitions; i++)
		unread = !guid_equal(&l->cfg.boot_partitions[i], &uuid);
	free(why);
	return unread;
}

/* The entries for other loaders on the ESP (entry_os.c), as the loader adds them. */
static void load_os(struct listing *l, const char *esp)
{
	enum fw_arch fw = firmware_is_ia32() ? FW_IA32 : FW_X64;
	struct bls_entry **v = NULL;
	size_t n = 0;

	if (l->cfg.auto_entries)
		bls_add_os_entries(os_entries_found(esp, fw), fw, &v, &n);
	for (size_t i = 0; i < n; i++) {
		struct listed *it = xmalloc(sizeof(*it));

		*it = (struct listed){ .e = *v[i], .root = esp };
		free(v[i]);
		add_item(l, it, true);
	}
	free(v);
}

static void listing_load(struct listing *l, const char *esp, const char *boot)
{
	size_t n_sorted;

	load_config(l, esp);
	load_type1(l, esp, "", NULL);
	load_type2(l, esp);
	if (boot) {
		char *shown = xasprintf("%s/", boot);
		load_type1(l, boot, shown, boot_partition_unread(l, esp, boot) ?
			   "not read by the loader: the partition is not XBOOTLDR and loader/loader.conf does not name "
			   "it (boot-partition PARTUUID; handoff entry add names it)" : NULL);
		free(shown);
	}
	n_sorted = l->n;
	load_os(l, esp); /* after the sorted ones, as in the loader */
	l->sorted = xmalloc((l->n + 1) * sizeof(*l->sorted));
	for (size_t i = 0; i < l->n; i++)
		l->sorted[i] = &l->items[i]->e;
	bls_sort(l->sorted, n_sorted);
	l->default_idx = bls_find_default(l->sorted, l->n, l->cfg.default_glob);
}

/* The listed item that holds sorted entry @e (struct listed starts with it). */
static const struct listed *item_of(const struct bls_entry *e)
{
	return (const struct listed *)e;
}

static void listing_free(struct listing *l)
{
	for (size_t i = 0; i < l->n + l->n_ignored; i++) {
		struct listed *it = i < l->n ? l->items[i] : l->ignored[i - l->n];
		bls_entry_free(&it->e);
		diag_capture_free(&it->problems);
		strv_free(it->pinned, it->n_pinned);
		free(it);
	}
	entry_pins_free(l->pins);
	free(l->items);
	free(l->ignored);
	free(l->sorted);
	diag_capture_free(&l->cfg_problems);
	cfg_free(&l->cfg);
}

static void json_problems(struct json *j, const struct diag_capture *c)
{
	json_arr_begin(j, "problems");
	for (size_t i = 0; i < c->n; i++)
		json_str(j, NULL, c->lines[i]);
	json_arr_end(j);
}

static void json_entry(struct json *j, const struct bls_entry *e, bool is_default)
{
	char *display = bls_display_title(e);

	json_obj_begin(j, NULL);
	json_str(j, "id", e->id);
	json_str(j, "type", e->type == BLS_TYPE1 ? "type1" : e->type == BLS_TYPE2 ? "type2" : "auto");
	json_str(j, "path", e->path);
	json_str(j, "title", e->title);
	json_str(j, "display_title", display);
	json_str(j, "version", e->version);
	json_str(j, "sort_key", e->sort_key);
	json_str(j, "machine_id", e->machine_id);
	json_str(j, "linux", e->kernel);
	json_arr_begin(j, "initrd");
	for (size_t i = 0; i < e->n_initrd; i++)
		json_str(j, NULL, e->initrd[i]);
	json_arr_end(j);
	json_str(j, "efi", e->efi);
	json_str(j, "options", e->options);
	json_str(j, "protocol", scheme_name(e->protocol));
	if (e->counted) {
		json_uint(j, "tries_left", e->tries_left);
		json_uint(j, "tries_done", e->tries_done);
	} else {
		json_null(j, "tries_left");
		json_null(j, "tries_done");
	}
	json_bool(j, "default", is_default);
	json_arr_begin(j, "pinned");
	for (size_t i = 0; i < item_of(e)->n_pinned; i++)
		json_str(j, NULL, item_of(e)->pinned[i]);
	json_arr_end(j);
	json_problems(j, &item_of(e)->problems);
	json_obj_end(j);
	free(display);
}

static void listing_json(const struct listing *l, struct json *j, const char *key)
{
	json_obj_begin(j, key);
	json_str(j, "default", l->n ? l->sorted[l->default_idx]->id : NULL);
	if (l->cfg.timeout_sec == CFG_TIMEOUT_UNSET || l->cfg.timeout_sec == CFG_TIMEOUT_MENU_FORCE)
		json_null(j, "timeout");
	else
		json_uint(j, "timeout", l->cfg.timeout_sec);
	json_problems(j, &l->cfg_problems);
	json_arr_begin(j, "entries");
	for (size_t i = 0; i < l->n; i++)
		json_entry(j, l->sorted[i], i == l->default_idx);
	json_arr_end(j);
	json_arr_begin(j, "ignored");
	for (size_t i = 0; i < l->n_ignored; i++) {
		json_obj_begin(j, NULL);
		json_str(j, "path", l->ignored[i]->e.path);
		json_problems(j, &l->ignored[i]->problems);
		json_obj_end(j);
	}
	json_arr_end(j);
	json_obj_end(j);
}

static void text_problems(struct strbuf *sb, const struct diag_capture *c)
{
	for (size_t i = 0; i < c->n; i++)
		sb_printf(sb, "      problem: %s\n", c->lines[i]);
}

static void text_entry(struct strbuf *sb, const struct bls_entry *e, bool is_default)
{
	char *display = bls_display_title(e);

	sb_printf(sb, "%s %s\n", is_default ? "*" : " ", display);
	sb_printf(sb, "           id: %s\n       source: %s\n", e->id, e->path);
	if (e->sort_key)
		sb_printf(sb, "     sort-key: %s\n", e->sort_key);
	if (e->kernel)
		sb_printf(sb, "        linux: %s\n", e->kernel);
	for (size_t i = 0; i < e->n_initrd; i++)
		sb_printf(sb, "       initrd: %s\n", e->initrd[i]);
	if (e->efi)
		sb_printf(sb, "          efi: %s\n", e->efi);
	if (e->options)
		sb_printf(sb, "      options: %s\n", e->options);
	sb_printf(sb, "     protocol: %s\n", scheme_name(e->protocol));
	if (e->counted)
		sb_printf(sb, "        tries: %u left, %u done%s\n", e->tries_left, e->tries_done,
			  e->tries_left ? "" : " (bad: sorted last)");
	for (size_t i = 0; i < item_of(e)->n_pinned; i++)
		sb_printf(sb, "       pinned: %s (sha256 in loader/entries.list)\n", item_of(e)->pinned[i]);
	text_problems(sb, &item_of(e)->problems);
	free(display);
}

static void render_text(const struct listing *l, struct strbuf *sb)
{
	if (l->cfg_problems.n) {
		sb_puts(sb, "  loader/loader.conf\n");
		text_problems(sb, &l->cfg_problems);
	}
	if (!l->n)
		sb_puts(sb, "No boot loader entries.\n");
	for (size_t i = 0; i < l->n; i++)
		text_entry(sb, l->sorted[i], i == l->default_idx);
	for (size_t i = 0; i < l->n_ignored; i++) {
		sb_printf(sb, "! %s (ignored by the loader)\n", l->ignored[i]->e.path);
		text_problems(sb, &l->ignored[i]->problems);
	}
}

char *boot_entries_dir(const char *opt, const char *esp)
{
	char *entries = path_join(BOOT_DIR_DEFAULT, "loader/entries"), re[PATH_MAX], rb[PATH_MAX];
	bool use = is_dir(entries) && realpath(esp, re) && realpath(BOOT_DIR_DEFAULT, rb) && strcmp(re, rb) != 0;

	free(entries);
	if (opt)
		return xstrdup(opt);
	return use ? xstrdup(BOOT_DIR_DEFAULT) : NULL;
}

void entries_render(const char *esp, const char *boot, struct json *j, const char *key, struct strbuf *out)
{
	struct listing l = { 0 };

	listing_load(&l, esp, boot);
	if (j)
		listing_json(&l, j, key);
	else
		render_text(&l, out);
	listing_free(&l);
}

int entry_list(int argc, char **argv, const char *help)
{
	struct listing_opts o;
	struct strbuf out = { 0 };
	struct json j;
	char *esp, *boot;
	int r = parse_listing_opts(argc, argv, help, &o);

	if (r >= 0)
		return r;
	if (!(esp = esp_locate(o.esp, /* quiet= */ false)))
		return EXIT_FAIL;
	if (o.boot && !is_dir(o.boot)) {
		free(esp);
		return tool_fail("%s: not a directory", o.boot);
	}
	boot = boot_entries_dir(o.boot, esp);
	json_init(&j, &out);
	entries_render(esp, boot, o.json ? &j : NULL, NULL, &out);
	fwrite(sb_str(&out), 1, out.len, stdout);
	sb_free(&out);
	free(boot);
	free(esp);
	return EXIT_OK;
}
