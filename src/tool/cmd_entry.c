/* handoff entry add|list|remove: Boot Loader Specification Type #1 entries
 * on an ESP (or XBOOTLDR) directory, as kernel-install lays them out. */
#define _GNU_SOURCE
#include "entry.h"
#include "esp.h"
#include "core/array.h"
#include "core/bls_count.h"
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

static const char help[] =
	"Usage: handoff entry add [--esp DIR] --linux FILE [--initrd FILE]... [--options TEXT]\n"
	"                         [--title TEXT] [--version V] [--protocol P] [--entry-token T]\n"
	"                         [--tries N] [--in-place auto|yes|no] [--boot DIR]\n"
	"       handoff entry add --kernel-version V [any option above]\n"
	"       handoff entry list [--esp DIR] [--boot DIR] [--json]\n"
	"       handoff entry remove [--esp DIR] [--boot DIR] ID | --kernel-version V\n\n"
	"add     copy FILE (and the initrds) to DIR/<entry-token>/<version>/ and write\n"
	"        DIR/loader/entries/<entry-token>-<version>.conf. The entry token is\n"
	"        --entry-token, else /etc/kernel/entry-token, else /etc/machine-id; the\n"
	"        version defaults to the kernel's own (from its setup header), the title\n"
	"        to PRETTY_NAME of /etc/os-release. --protocol auto|stub|handover|legacy\n"
	"        is handoff's key choosing the boot scheme (checked against the kernel).\n"
	"        --tries N names the file <id>+N.conf: the loader counts boots down and\n"
	"        the entry sorts last once they are used up (systemd-bless-boot marks a\n"
	"        good boot). --in-place yes writes BOOT/loader/entries/<id>.conf pointing\n"
	"        at the files under BOOT (default /boot) where they are, nothing copied:\n"
	"        BOOT must be ext4 or FAT, on the ESP's disk, its partition's root or\n"
	"        /boot; auto does so when it can. Without --esp: the ESP recorded by\n"
	"        handoff install, or found.\n"
	"        --kernel-version V is what the kernel hooks run: --linux BOOT/vmlinuz-V,\n"
	"        --initrd BOOT/initrd.img-V when it exists, --options from\n"
	"        /etc/kernel/cmdline (else /proc/cmdline without BOOT_IMAGE= and initrd=),\n"
	"        --tries from /etc/kernel/tries, --in-place auto; nothing is done (exit 0)\n"
	"        when handoff is not installed on an ESP.\n"
	"list    every entry as the loader sees it: sorted, the default marked, with\n"
	"        problems (missing files, bad lines, unbootable kernels).\n"
	"remove  delete the entry ID (file name without .conf and boot counter) in every\n"
	"        state of counting, on the ESP with the files only it uses, and in\n"
	"        BOOT/loader/entries; --kernel-version V removes <entry-token>-V.\n";

/* A value from an os-release style file: KEY=VALUE, optionally quoted. */
static char *os_release_value(const char *key)
{
	static const char *const files[] = { "/etc/os-release", "/usr/lib/os-release" };
	char line[512], *val = NULL;
	size_t klen = strlen(key);

	for (size_t i = 0; i < 2 && !val; i++) {
		FILE *f = fopen(files[i], "re");
		while (f && !val && fgets(line, sizeof(line), f)) {
			size_t n = strcspn(line, "\r\n");
			line[n] = '\0';
			if (strncmp(line, key, klen) != 0 || line[klen] != '=')
				continue;
			val = line + klen + 1;
			n = strlen(val);
			if (n >= 2 && (val[0] == '"' || val[0] == '\'') && val[n - 1] == val[0])
				val[n - 1] = '\0', val++;
			val = xstrdup(val);
		}
		if (f)
			fclose(f);
	}
	return val;
}

/* First line of a small file, blanks trimmed; NULL when missing or empty. */
static char *first_line(const char *path)
{
	char line[256];
	FILE *f = fopen(path, "re");
	char *r = NULL;

	if (f && fgets(line, sizeof(line), f)) {
		size_t n = strcspn(line, " \t\r\n");
		line[n] = '\0';
		if (n)
			r = xstrdup(line);
	}
	if (f)
		fclose(f);
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

/* kernel-install's order: --entry-token, /etc/kernel/entry-token, machine-id. */
static char *resolve_token(const char *opt, const char *machine_id)
{
	char *t = opt ? xstrdup(opt) : first_line("/etc/kernel/entry-token");

	if (!t && machine_id)
		t = xstrdup(machine_id);
	if (!t) {
		tool_fail("no entry token: /etc/machine-id is missing or invalid; give --entry-token");
		return NULL;
	}
	if (!entry_name_ok(t)) {
		tool_fail("entry token '%s': use letters, digits and . _ - + ~ only", t);
		free(t);
		return NULL;
	}
	return t;
}

char *entry_token(const char *opt)
{
	char *mid = first_line("/etc/machine-id"), *t;

	if (!is_machine_id(mid)) {
		free(mid);
		mid = NULL;
	}
	t = resolve_token(opt, mid);
	free(mid);
	return t;
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
	const char *kernel_version;
	const char *in_place;      /* auto, yes, no */
	bool tries_given;
	char *owned[3];            /* kernel, initrd and options found on the system */
};

static int parse_add_opt(int c, struct add_args *a)
{
	uint64_t v;

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
	case 'k': a->kernel_version = optarg; break;
	case 'b': a->spec.boot = optarg; break;
	case 'I':
		if (strcmp(optarg, "auto") != 0 && strcmp(optarg, "yes") != 0 && strcmp(optarg, "no") != 0)
			return tool_usage("--in-place '%s': expected auto, yes or no", optarg);
		a->in_place = optarg;
		break;
	case 'n':
		if (!parse_u64(optarg, BLS_COUNT_MAX, &v) || strchr(optarg, 'x'))
			return tool_usage("--tries '%s': expected a number from 0 to %u", optarg, BLS_COUNT_MAX);
		a->spec.tries = (uint32_t)v;
		a->spec.counted = a->tries_given = true;
		break;
	case 'p':
		if (!scheme_from_string(optarg, &a->spec.protocol))
			return tool_usage("--protocol '%s': expected auto, stub, handover or legacy", optarg);
		break;
	default: return -1;
	}
	return 0;
}

static int parse_add(int argc, char **argv, struct add_args *a)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "linux", required_argument, NULL, 'l' },
		{ "initrd", required_argument, NULL, 'i' }, { "options", required_argument, NULL, 'o' },
		{ "title", required_argument, NULL, 't' }, { "version", required_argument, NULL, 'v' },
		{ "protocol", required_argument, NULL, 'p' }, { "entry-token", required_argument, NULL, 'T' },
		{ "kernel-version", required_argument, NULL, 'k' }, { "tries", required_argument, NULL, 'n' },
		{ "in-place", required_argument, NULL, 'I' }, { "boot", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c, r;

	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'h')
			return fputs(help, stdout), PARSE_HELP;
		r = parse_add_opt(c, a);
		if (r > 0)
			return r;
		if (r < 0)
			return usage_bad_option(c, argv);
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!a->spec.linux_path && !a->kernel_version)
		return tool_usage("--linux FILE (or --kernel-version V) is required");
	if (!one_line(a->spec.options) || !one_line(a->title_opt))
		return tool_usage("--options and --title must be one line of text");
	if (a->version_opt && !entry_name_ok(a->version_opt))
		return tool_usage("--version '%s': use letters, digits and . _ - + ~ only", a->version_opt);
	if (a->kernel_version && !entry_name_ok(a->kernel_version))
		return tool_usage("--kernel-version '%s': use letters, digits and . _ - + ~ only", a->kernel_version);
	a->spec.initrds = a->initrds;
	return 0;
}

/* --kernel-version: what the system says, for whatever was not given. */
static int system_defaults(struct add_args *a)
{
	const char *v = a->kernel_version, *boot = a->spec.boot ? a->spec.boot : BOOT_DIR_DEFAULT;
	char *initrd;
	int t;

	a->spec.boot = boot;
	if (!a->version_opt)
		a->version_opt = v;
	if (!a->in_place)
		a->in_place = "auto";
	if (!a->spec.linux_path)
		a->spec.linux_path = a->owned[0] = xasprintf("%s/vmlinuz-%s", boot, v);
	initrd = xasprintf("%s/initrd.img-%s", boot, v);
	if (!a->spec.n_initrds && is_file(initrd)) {
		a->initrds = xrealloc(a->initrds, sizeof(char *));
		a->initrds[a->spec.n_initrds++] = a->owned[1] = initrd;
		a->spec.initrds = a->initrds;
	} else {
		free(initrd);
	}
	if (!a->spec.options && !(a->spec.options = a->owned[2] = system_cmdline()))
		return -1;
	if (!a->tries_given && (t = system_tries(&a->spec.tries)) != 0) {
		if (t < 0)
			return -1;
		a->spec.counted = true;
	}
	return 0;
}

/* --in-place: yes must work; auto falls back to copying, saying why. */
static int decide_in_place(struct add_args *a)
{
	bool fat;
	char *why;

	if (!a->in_place || strcmp(a->in_place, "no") == 0)
		return 0;
	if (!a->spec.boot)
		a->spec.boot = BOOT_DIR_DEFAULT;
	why = boot_readable(a->spec.boot, a->spec.esp, &fat);
	if (!why && a->spec.counted && !fat)
		why = xasprintf("boot counting needs the entry where the loader can rename it: %s is ext4, "
				"which it reads only", a->spec.boot);
	a->spec.in_place = !why;
	if (why && strcmp(a->in_place, "yes") == 0) {
		tool_fail("--in-place yes: %s", why);
		free(why);
		return -1;
	}
	if (why)
		tool_note("copying the kernel to the ESP: %s", why);
	free(why);
	return 0;
}

/* Is handoff on @esp? The hooks write no entry for a loader that is not there. */
static bool loader_installed(const char *esp)
{
	char *p = path_join(esp, "EFI/handoff/handoffx64.efi");
	bool r = is_file(p);

	free(p);
	return r;
}

static int entry_add_prepare(struct add_args *a, char **ret_esp)
{
	*ret_esp = esp_locate(a->spec.esp, /* quiet= */ a->kernel_version != NULL);
	if (a->kernel_version && (!*ret_esp || !loader_installed(*ret_esp))) {
		tool_note("handoff is not installed on %s: no entry for %s", *ret_esp ? *ret_esp : "an EFI system partition",
			  a->kernel_version);
		return 1;
	}
	if (!*ret_esp)
		return -1;
	a->spec.esp = *ret_esp;
	if (a->kernel_version && system_defaults(a) < 0)
		return -1;
	return decide_in_place(a);
}

static int entry_add(int argc, char **argv)
{
	struct add_args a = { 0 };
	char *machine_id = first_line("/etc/machine-id"), *token = NULL, *kver = NULL, *title = NULL, *sort_key = NULL;
	char *esp = NULL;
	int r = parse_add(argc, argv, &a);

	if (r)
		goto out;
	if (!is_machine_id(machine_id))
		free(machine_id), machine_id = NULL;
	r = entry_add_prepare(&a, &esp);
	if (r != 0) {
		r = r > 0 ? EXIT_OK : EXIT_FAIL;
		goto out;
	}
	r = EXIT_FAIL;
	if (!(token = resolve_token(a.token_opt, machine_id)) || check_kernel(a.spec.linux_path, a.spec.protocol, &kver) < 0)
		goto out;
	if (!a.version_opt && !entry_name_ok(kver)) {
		r = tool_usage("%s: no usable version in the kernel header; give --version", a.spec.linux_path);
		goto out;
	}
	a.spec.token = token;
	a.spec.version = a.version_opt ? a.version_opt : kver;
	title = a.title_opt ? xstrdup(a.title_opt) : os_release_value("PRETTY_NAME");
	a.spec.title = title && one_line(title) ? title : "Linux";
	sort_key = os_release_value("IMAGE_ID");
	if (!sort_key)
		sort_key = os_release_value("ID");
	a.spec.sort_key = entry_name_ok(sort_key) ? sort_key : NULL;
	a.spec.machine_id = machine_id;
	a.spec.print_path = true;
	if (entry_install(&a.spec) == 0)
		r = EXIT_OK;
out:
	for (size_t i = 0; i < 3; i++)
		free(a.owned[i]);
	free(a.initrds);
	free(esp);
	free(machine_id);
	free(token);
	free(kver);
	free(title);
	free(sort_key);
	return r == PARSE_HELP ? EXIT_OK : r;
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
		return entry_remove(argc - 1, argv + 1, help);
	return tool_usage("unknown subcommand '%s': expected add, list or remove", argv[1]);
}
