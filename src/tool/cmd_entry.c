/* handoff entry add|list|remove: Boot Loader Specification Type #1 entries
 * on an ESP (or XBOOTLDR) directory, as kernel-install lays them out, or,
 * with layout=uki, one UKI per kernel (entry_uki.c). */
#define _GNU_SOURCE
#include "entry.h"
#include "esp.h"
#include "handoff_conf.h"
#include "loader_conf.h"
#include "core/array.h"
#include "core/bls_count.h"
#include "core/osrel.h"
#include "core/str16.h"
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PARSE_HELP (-1) /* --help was printed: exit 0 */

static const char help[] =
	"Usage: handoff entry add [--esp DIR] --linux FILE [--initrd FILE]... [--options TEXT]\n"
	"                         [--title TEXT] [--version V] [--protocol P] [--entry-token T]\n"
	"                         [--root DIR] [--tries N] [--in-place auto|yes|no] [--boot DIR]\n"
	"                         [--layout bls|uki] [--pin]\n"
	"       handoff entry add --kernel-version V [any option above]\n"
	"       handoff entry list [--esp DIR] [--boot DIR] [--json]\n"
	"       handoff entry remove [--esp DIR] [--boot DIR] ID | --kernel-version V\n\n"
	"add     copy FILE (and the initrds) to DIR/<entry-token>/<version>/ and write\n"
	"        DIR/loader/entries/<entry-token>-<version>.conf. The entry token is\n"
	"        --entry-token, else /etc/kernel/entry-token, else /etc/machine-id, else\n"
	"        IMAGE_ID= or ID= of os-release (as kernel-install); --root DIR reads\n"
	"        those files under DIR (a chroot or image). The version defaults to the\n"
	"        kernel's own (from its setup header), the title to PRETTY_NAME of\n"
	"        os-release. --protocol auto|stub|handover|legacy is handoff's key\n"
	"        choosing the boot scheme (checked against the kernel).\n"
	"        --tries N names the file <id>+N.conf: the loader counts boots down and\n"
	"        the entry sorts last once they are used up (systemd-bless-boot marks a\n"
	"        good boot). --in-place yes writes BOOT/loader/entries/<id>.conf pointing\n"
	"        at the files under BOOT (default /boot) where they are, nothing copied:\n"
	"        BOOT must be ext4 or FAT, on the ESP's disk, its partition's root or\n"
	"        /boot; auto does so when it can. The ESP's loader/loader.conf then\n"
	"        names BOOT's partition (boot-partition PARTUUID), unless it is the\n"
	"        ESP or XBOOTLDR: the loader reads no other partition's entries.\n"
	"        Without --esp: the ESP recorded by handoff install, or found.\n"
	"        --layout uki writes ESP/EFI/Linux/<entry-token>-<version>[+N].efi instead:\n"
	"        a UKI of the kernel, initrds, options and os-release, signed with the\n"
	"        keys of /etc/handoff/handoff.conf (sign-key=, sign-cert=; sbsign), with\n"
	"        signed PCR policies for its pcr-private-key=; the entry's other files go.\n"
	"        --pin (a network boot tree: loader/entries.list) pins the entry's files\n"
	"        there, \"sha256 HEX PATH\" each, in place of their old pins; the loader\n"
	"        refuses a file whose bytes differ. entry remove drops them.\n"
	"        --kernel-version V is what the kernel hooks run: --linux BOOT/vmlinuz-V,\n"
	"        --initrd BOOT/initrd.img-V when it exists, --options from\n"
	"        /etc/kernel/cmdline (else /proc/cmdline without BOOT_IMAGE= and initrd=),\n"
	"        --tries from /etc/kernel/tries, --in-place auto, --layout from handoff.conf\n"
	"        or /etc/kernel/install.conf (layout=uki); nothing is done (exit 0)\n"
	"        when handoff is not installed on an ESP.\n"
	"list    every entry as the loader sees it: sorted, the default marked, with\n"
	"        problems (missing files, bad lines, unbootable kernels).\n"
	"remove  delete the entry ID (file name without .conf and boot counter) in every\n"
	"        state of counting, on the ESP with the copies entry add made for it\n"
	"        alone (never another file), its UKI in EFI/Linux, and in BOOT/loader/entries;\n"
	"        --kernel-version V removes <entry-token>-V.\n";

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

/* One line of UTF-8 text: what the loader reads back (conf_line.h). */
static bool one_line(const char *s)
{
	size_t at;

	if (s && !utf8_check(s, strlen(s), &at))
		return false;
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
	const char *root;          /* where /etc/kernel/entry-token, /etc/machine-id, os-release are read */
	const char *layout;        /* --layout: bls, uki, or NULL */
	bool uki;                  /* the layout chosen is uki */
	struct handoff_conf conf;  /* read for layout=uki */
	bool tries_given;
	bool name_boot;            /* in place: loader.conf must name boot_uuid (boot-partition) */
	EFI_GUID boot_uuid;
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
	case 'r': a->root = optarg; break;
	case 'L':
		if (strcmp(optarg, "bls") != 0 && strcmp(optarg, "uki") != 0)
			return tool_usage("--layout '%s': expected bls or uki", optarg);
		a->layout = optarg;
		break;
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
	case 'P': a->spec.pin = true; break;
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
		{ "root", required_argument, NULL, 'r' }, { "layout", required_argument, NULL, 'L' },
		{ "pin", no_argument, NULL, 'P' }, { "help", no_argument, NULL, 'h' }, { 0 },
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
		return tool_usage("--options and --title must be one line of UTF-8 text");
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

/* In place, the loader must be allowed to read BOOT's partition: of type
 * XBOOTLDR, or named in loader.conf (README "Security"). NULL, or why not. */
static char *check_boot_partition(struct add_args *a)
{
	char *why = NULL;
	int r = boot_partition_uuid(a->spec.boot, a->spec.esp, &a->boot_uuid, &why);

	a->name_boot = r == 1;
	if (r == 2) {
		tool_note("%s", why);
		free(why);
		why = NULL;
	}
	return why;
}

static int name_boot_partition(const struct add_args *a)
{
	char *comment = xasprintf("%s/loader/entries is on this partition (named by handoff entry add)", a->spec.boot);
	int r = loader_conf_name_partition(a->spec.esp, &a->boot_uuid, comment);

	free(comment);
	return r;
}

/* --in-place: yes must work; auto falls back to copying, saying why. */
static int decide_in_place(struct add_args *a)
{
	bool fat;
	char *why;

	if (!a->in_place || strcmp(a->in_place, "no") == 0)
		return 0;
	if (a->spec.pin && strcmp(a->in_place, "yes") == 0)
		return -tool_fail("--pin: a network boot tree holds the entry's files on the ESP, "
				  "not with --in-place yes");
	if (a->spec.pin)
		return 0; /* copied to the tree */
	if (!a->spec.boot)
		a->spec.boot = BOOT_DIR_DEFAULT;
	why = boot_readable(a->spec.boot, a->spec.esp, &fat);
	for (size_t i = 0; !why && i <= a->spec.n_initrds; i++) {
		const char *file = i ? a->spec.initrds[i - 1] : a->spec.linux_path;
		char *below = path_below(a->spec.boot, file);

		if (!below)
			why = xasprintf("%s is not a file under %s", file, a->spec.boot);
		free(below);
	}
	if (!why && a->spec.counted && !fat)
		why = xasprintf("boot counting needs the entry where the loader can rename it: %s is ext4, "
				"which it reads only", a->spec.boot);
	if (!why)
		why = check_boot_partition(a);
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

/* layout=uki: --layout says, else, for the hooks, handoff.conf or install.conf. */
static int choose_layout(struct add_args *a)
{
	if ((a->layout && strcmp(a->layout, "bls") == 0) || (!a->layout && !a->kernel_version))
		return 0;
	if (handoff_conf_load(&a->conf) < 0)
		return -1;
	a->uki = a->layout || a->conf.uki;
	return 0;
}

static int entry_add_prepare(struct add_args *a, char **ret_esp)
{
	*ret_esp = esp_locate(a->spec.esp, /* quiet= */ a->kernel_version != NULL);
	if (a->kernel_version && (!*ret_esp || !loader_installed(*ret_esp))) {
		tool_note("handoff is not installed on %s: no entry for %s",
			  *ret_esp ? *ret_esp : "an EFI system partition", a->kernel_version);
		return 1;
	}
	if (!*ret_esp)
		return -1;
	a->spec.esp = *ret_esp;
	if ((a->kernel_version && system_defaults(a) < 0) || choose_layout(a) < 0)
		return -1;
	return a->uki ? 0 : decide_in_place(a);
}

static int entry_add(int argc, char **argv)
{
	struct add_args a = { .root = "/" };
	struct host_ids ids = { 0 };
	char *token = NULL, *kver = NULL, *esp = NULL;
	int r = parse_add(argc, argv, &a);

	if (r)
		goto out;
	r = entry_add_prepare(&a, &esp);
	if (r != 0) {
		r = r > 0 ? EXIT_OK : EXIT_FAIL;
		goto out;
	}
	r = EXIT_FAIL;
	host_ids_read(a.root, &ids);
	if (!(token = resolve_token(a.token_opt, &ids)) || check_kernel(a.spec.linux_path, a.spec.protocol, &kver) < 0)
		goto out;
	if (!a.version_opt && !entry_name_ok(kver)) {
		r = tool_usage("%s: no usable version in the kernel header; give --version", a.spec.linux_path);
		goto out;
	}
	a.spec.token = token;
	a.spec.version = a.version_opt ? a.version_opt : kver;
	a.spec.title = a.title_opt					    ? a.title_opt
		       : ids.os.pretty_name && one_line(ids.os.pretty_name) ? ids.os.pretty_name
									    : "Linux";
	a.spec.sort_key = ids.os.image_id ? ids.os.image_id : ids.os.id;
	if (!entry_name_ok(a.spec.sort_key))
		a.spec.sort_key = NULL;
	a.spec.machine_id = ids.machine_id;
	a.spec.print_path = true;
	/* the line first: alone it is harmless, an entry the loader would not read is not */
	if ((a.spec.in_place && a.name_boot && name_boot_partition(&a) < 0) || (a.spec.pin && !netlist_exists(esp)))
		goto out;
	if ((a.uki ? entry_install_uki(&a.spec, &a.conf, a.root) : entry_install(&a.spec)) == 0)
		r = EXIT_OK;
out:
	handoff_conf_free(&a.conf);
	for (size_t i = 0; i < 3; i++)
		free(a.owned[i]);
	free(a.initrds);
	host_ids_free(&ids);
	free(esp);
	free(token);
	free(kver);
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
