/* handoff entry add|list|remove: Boot Loader Specification Type #1 entries
 * on an ESP (or XBOOTLDR) directory, as kernel-install lays them out. */
#define _GNU_SOURCE
#include "entry.h"
#include "core/array.h"
#include "core/osrel.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MACHINE_ID_LEN 32
#define PARSE_HELP (-1) /* --help was printed: exit 0 */
#define OSREL_FILE_MAX (64u << 10)

static const char help[] =
	"Usage: handoff entry add --esp DIR --linux FILE [--initrd FILE]... [--options TEXT]\n"
	"                         [--title TEXT] [--version V] [--protocol P] [--entry-token T]\n"
	"                         [--root DIR]\n"
	"       handoff entry list --esp DIR [--json]\n"
	"       handoff entry remove --esp DIR ID\n\n"
	"add     copy FILE (and the initrds) to DIR/<entry-token>/<version>/ and write\n"
	"        DIR/loader/entries/<entry-token>-<version>.conf. The entry token is\n"
	"        --entry-token, else /etc/kernel/entry-token, else /etc/machine-id, else\n"
	"        IMAGE_ID= or ID= of os-release (as kernel-install); --root DIR reads\n"
	"        those files under DIR (a chroot or image). The version defaults to the\n"
	"        kernel's own (from its setup header), the title to PRETTY_NAME of\n"
	"        os-release. --protocol auto|stub|handover|legacy is handoff's key\n"
	"        choosing the boot scheme (checked against the kernel).\n"
	"list    every entry as the loader sees it: sorted, the default marked, with\n"
	"        problems (missing files, bad lines, unbootable kernels).\n"
	"remove  delete the entry ID (file name without .conf) and the files only it uses.\n";

/* What names this installation, read under --root (default /), as
 * kernel-install reads it: /etc/kernel/entry-token, /etc/machine-id, and
 * os-release (/etc, else /usr/lib) through the loader's own parser. */
struct host_ids {
	char *entry_token;     /* first word of /etc/kernel/entry-token, or NULL */
	char *machine_id;      /* a valid /etc/machine-id, or NULL */
	struct osrel os;
};

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

static void host_ids_read(const char *root, struct host_ids *ret)
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

static void host_ids_free(struct host_ids *h)
{
	free(h->entry_token);
	free(h->machine_id);
	osrel_free(&h->os);
}

/* kernel-install's order: --entry-token, /etc/kernel/entry-token, the machine
 * ID, then IMAGE_ID or ID of os-release (debootstrap roots, containers and
 * image builders have no machine ID yet). */
static char *resolve_token(const char *opt, const struct host_ids *h)
{
	const char *t = opt ? opt : h->entry_token ? h->entry_token : h->machine_id ? h->machine_id
		      : h->os.image_id ? h->os.image_id : h->os.id;

	if (!t) {
		tool_fail("no entry token: no /etc/kernel/entry-token, /etc/machine-id, nor IMAGE_ID= or ID= in os-release; "
			  "give --entry-token");
		return NULL;
	}
	if (!entry_name_ok(t)) {
		tool_fail("entry token '%s': use letters, digits and . _ - + ~ only", t);
		return NULL;
	}
	return xstrdup(t);
}

/* The kernel must be something the loader can start, by the scheme asked for. */
static int check_kernel(const char *path, enum boot_scheme protocol, char **ret_version)
{
	struct image_info *img = xmalloc(sizeof(*img));
	const char *why = NULL;
	uint8_t *buf;
	size_t len;
	int r = -1;

	*ret_version = NULL;
	if (read_file(path, TOOL_READ_MAX, &buf, &len) < 0) {
		free(img);
		return -1;
	}
	if (len == 0)
		tool_fail("%s: empty file", path);
	else if (EFI_ERROR(image_identify(buf, len, path, img)))
		;
	else if (protocol != SCHEME_AUTO && !scheme_supported(img, protocol, &why))
		tool_fail("%s: cannot boot by %s: %s", path, scheme_name(protocol), why);
	else if (!scheme_supported(img, SCHEME_STUB, NULL) && !scheme_supported(img, SCHEME_HANDOVER, NULL) &&
		 !scheme_supported(img, SCHEME_LEGACY, NULL))
		tool_fail("%s: no boot scheme can start it (not an x86-64 EFI application nor a 64-bit bzImage)", path);
	else {
		if (img->is_bz && img->bz.kernel_version[0])
			*ret_version = strndup(img->bz.kernel_version, strcspn(img->bz.kernel_version, " "));
		r = 0;
	}
	free(buf);
	free(img);
	return r;
}

static bool one_line(const char *s)
{
	for (; s && *s; s++)
		if ((unsigned char)*s < 0x20 && *s != '\t')
			return false;
	return true;
}

struct add_args {
	struct entry_spec spec;
	const char **initrds;
	const char *token_opt;
	const char *version_opt;
	const char *title_opt;
	const char *root;
};

static int parse_add(int argc, char **argv, struct add_args *a)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "linux", required_argument, NULL, 'l' },
		{ "initrd", required_argument, NULL, 'i' }, { "options", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' }, { "version", required_argument, NULL, 'v' },
		{ "protocol", required_argument, NULL, 'p' }, { "entry-token", required_argument, NULL, 'T' },
		{ "root", required_argument, NULL, 'r' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': a->spec.esp = optarg; break;
		case 'l': a->spec.linux_path = optarg; break;
		case 'i':
			a->initrds = xrealloc(a->initrds, (a->spec.n_initrds + 1) * sizeof(char *));
			a->initrds[a->spec.n_initrds++] = optarg;
			break;
		case 'o': a->spec.options = optarg; break;
		case 't': a->title_opt = optarg; break;
		case 'v': a->version_opt = optarg; break;
		case 'T': a->token_opt = optarg; break;
		case 'r': a->root = optarg; break;
		case 'p':
			if (!scheme_from_string(optarg, &a->spec.protocol))
				return tool_usage("--protocol '%s': expected auto, stub, handover or legacy", optarg);
			break;
		case 'h': return fputs(help, stdout), PARSE_HELP;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!a->spec.esp || !a->spec.linux_path)
		return tool_usage("--esp DIR and --linux FILE are required");
	if (!one_line(a->spec.options) || !one_line(a->title_opt))
		return tool_usage("--options and --title must be one line of text");
	if (a->version_opt && !entry_name_ok(a->version_opt))
		return tool_usage("--version '%s': use letters, digits and . _ - + ~ only", a->version_opt);
	a->spec.initrds = a->initrds;
	return 0;
}

static int entry_add(int argc, char **argv)
{
	struct add_args a = { .root = "/" };
	struct host_ids ids = { 0 };
	char *token = NULL, *kver = NULL;
	int r = parse_add(argc, argv, &a);

	if (r)
		goto out;
	r = EXIT_FAIL;
	host_ids_read(a.root, &ids);
	if (!is_dir(a.spec.esp)) {
		tool_fail("%s: not a directory", a.spec.esp);
		goto out;
	}
	if (!(token = resolve_token(a.token_opt, &ids)) || check_kernel(a.spec.linux_path, a.spec.protocol, &kver) < 0)
		goto out;
	if (!a.version_opt && !entry_name_ok(kver)) {
		r = tool_usage("%s: no usable version in the kernel header; give --version", a.spec.linux_path);
		goto out;
	}
	a.spec.token = token;
	a.spec.version = a.version_opt ? a.version_opt : kver;
	a.spec.title = a.title_opt ? a.title_opt : ids.os.pretty_name && one_line(ids.os.pretty_name) ? ids.os.pretty_name : "Linux";
	a.spec.sort_key = ids.os.image_id ? ids.os.image_id : ids.os.id;
	if (!entry_name_ok(a.spec.sort_key))
		a.spec.sort_key = NULL;
	a.spec.machine_id = ids.machine_id;
	if (entry_install(&a.spec) == 0) {
		printf("%s/loader/entries/%s-%s.conf\n", a.spec.esp, token, a.spec.version);
		r = EXIT_OK;
	}
out:
	free(a.initrds);
	host_ids_free(&ids);
	free(token);
	free(kver);
	return r < 0 ? EXIT_OK : r;
}

/* The files an entry refers to ("linux", "initrd", "efi", "devicetree"
 * values), as paths under the ESP; anything absolute-less or with ".." is
 * ignored so that remove never reaches outside the ESP. */
static size_t entry_files(const char *text, char ***ret)
{
	static const char *const keys[] = { "linux", "initrd", "efi", "devicetree" };
	char **files = NULL;
	size_t n = 0;

	for (const char *p = text; *p;) {
		size_t len = strcspn(p, "\n"), klen = strcspn(p, " \t\n");
		const char *v = p + klen;
		size_t vlen;

		while (*v == ' ' || *v == '\t')
			v++;
		vlen = len - (size_t)(v - p);
		while (vlen && isspace((unsigned char)v[vlen - 1]))
			vlen--;
		for (size_t k = 0; k < 4; k++)
			if (klen == strlen(keys[k]) && strncmp(p, keys[k], klen) == 0 && vlen && *v == '/' &&
			    !memmem(v, vlen, "..", 2)) {
				files = xrealloc(files, (n + 1) * sizeof(char *));
				files[n++] = strndup(v, vlen);
			}
		p += len + (p[len] == '\n');
	}
	*ret = files;
	return n;
}

static char *read_text(const char *path)
{
	uint8_t *buf;
	size_t len;
	char *s;

	if (read_file(path, 1 << 20, &buf, &len) < 0)
		return NULL;
	s = xmalloc(len + 1);
	memcpy(s, buf, len);
	s[len] = '\0';
	free(buf);
	return s;
}

/* Is @file used by an entry other than @self? */
static bool file_in_use(const char *entries_dir, const char *self, const char *file)
{
	DIR *d = opendir(entries_dir);
	struct dirent *e;
	bool used = false;

	while (d && !used && (e = readdir(d))) {
		size_t nl = strlen(e->d_name);
		char *path, *text, **files;
		size_t n;

		if (nl < 6 || strcmp(e->d_name + nl - 5, ".conf") != 0 || strcmp(e->d_name, self) == 0)
			continue;
		path = path_join(entries_dir, e->d_name);
		text = read_text(path);
		n = text ? entry_files(text, &files) : 0;
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

/* Remove @file and then its parent directories while they are empty, up to the ESP. */
static void remove_file_and_dirs(const char *esp, const char *file)
{
	char *path = path_join(esp, file), *slash;

	if (unlink(path) == 0)
		printf("removed %s\n", path);
	while ((slash = strrchr(path, '/')) && (size_t)(slash - path) > strlen(esp)) {
		*slash = '\0';
		if (rmdir(path) < 0)
			break;
	}
	free(path);
}

/* The entry id: the file name without ".conf", given with or without it. */
static char *strip_conf(const char *arg)
{
	size_t n = strlen(arg);

	if (n > 5 && strcmp(arg + n - 5, ".conf") == 0)
		n -= 5;
	return strndup(arg, n);
}

static int entry_remove(int argc, char **argv)
{
	static const struct option opts[] = { { "esp", required_argument, NULL, 'e' }, { "help", no_argument, NULL, 'h' }, { 0 } };
	const char *esp = NULL;
	char *id, *entries, *name, *conf, *text, **files;
	size_t n;
	int c;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'e')
			esp = optarg;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return usage_bad_option(c, argv);
	}
	if (!esp || optind + 1 != argc)
		return tool_usage("usage: entry remove --esp DIR ID");
	id = strip_conf(argv[optind]);
	if (!entry_name_ok(id)) {
		free(id);
		return tool_usage("entry id '%s': use the entry's file name", argv[optind]);
	}
	entries = path_join(esp, "loader/entries");
	name = xasprintf("%s.conf", id);
	conf = path_join(entries, name);
	text = is_file(conf) ? read_text(conf) : NULL;
	if (!text) {
		c = is_file(conf) ? EXIT_FAIL : tool_fail("%s: no entry '%s' (no %s)", esp, id, conf);
	} else if (unlink(conf) < 0) {
		c = tool_fail("%s: %s", conf, strerror(errno));
	} else {
		printf("removed %s\n", conf);
		n = entry_files(text, &files);
		for (size_t i = 0; i < n; i++)
			if (!file_in_use(entries, name, files[i]))
				remove_file_and_dirs(esp, files[i]);
		strv_free(files, n);
		c = EXIT_OK;
	}
	free(text);
	free(conf);
	free(name);
	free(entries);
	free(id);
	return c;
}

int cmd_entry(int argc, char **argv)
{
	opterr = 0;
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0))
		return fputs(help, stdout), EXIT_OK;
	if (argc < 2)
		return tool_usage("missing subcommand: add, list or remove");
	if (strcmp(argv[1], "add") == 0)
		return entry_add(argc - 1, argv + 1);
	if (strcmp(argv[1], "list") == 0)
		return entry_list(argc - 1, argv + 1, help);
	if (strcmp(argv[1], "remove") == 0)
		return entry_remove(argc - 1, argv + 1);
	return tool_usage("unknown subcommand '%s': expected add, list or remove", argv[1]);
}
