/* handoff install: the loader onto an ESP as \EFI\handoff\handoffx64.efi and
 * (unless another loader owns it) the removable-media path
 * \EFI\BOOT\BOOTX64.EFI (UEFI 2.10 §3.5.1.1), plus \loader\loader.conf and
 * \loader\entries\. Files already right are not touched, so a second run
 * changes nothing. */
#include "esp.h"
#include "core/pe.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EFIVARS_DIR "/sys/firmware/efi/efivars"

static const char help[] =
	"Usage: handoff install [--esp DIR] [--force] [--variables yes|no] [--loader FILE]\n\n"
	"Install the loader on the EFI system partition mounted (or staged) at DIR:\n"
	"DIR/EFI/handoff/handoffx64.efi and DIR/EFI/BOOT/BOOTX64.EFI, DIR/loader/loader.conf\n"
	"and DIR/loader/entries/ when missing. Another boot loader already at\n"
	"EFI/BOOT/BOOTX64.EFI is kept unless --force is given. Running it twice changes\n"
	"nothing. Without --esp, the ESP is found as bootctl finds it: /efi, /boot/efi or\n"
	"/boot, mounted, FAT, of partition type ESP. The ESP used is recorded in\n"
	"/etc/handoff/esp (when /etc/handoff exists) for the kernel hooks.\n\n"
	"  --esp DIR            the ESP (or any directory: a chroot's, an image's)\n"
	"  --force              replace another loader at EFI/BOOT/BOOTX64.EFI\n"
	"  --variables yes|no   add a Boot#### entry first in BootOrder (default no;\n"
	"                       needs " EFIVARS_DIR ")\n"
	"  --loader FILE        the loader image (default: handoff.efi beside the tool,\n"
	"                       or PREFIX/lib/handoff/handoffx64.efi)\n";

static const char default_loader_conf[] =
	"# handoff loader configuration (systemd-boot compatible), see handoff(1).\n"
	"# timeout N: seconds the menu waits (0: boot the default at once, a key opens the menu)\n"
	"timeout 3\n"
	"# default GLOB: entry id to boot, e.g. default debian-*\n"
	"editor no\n";

struct install_args {
	const char *esp;
	const char *loader_opt;
	bool force;
	bool variables;
};

static int parse_args(int argc, char **argv, struct install_args *a)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "force", no_argument, NULL, 'f' },
		{ "variables", required_argument, NULL, 'V' }, { "loader", required_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': a->esp = optarg; break;
		case 'f': a->force = true; break;
		case 'l': a->loader_opt = optarg; break;
		case 'V':
			if (strcmp(optarg, "yes") != 0 && strcmp(optarg, "no") != 0)
				return tool_usage("--variables '%s': expected yes or no", optarg);
			a->variables = strcmp(optarg, "yes") == 0;
			break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

static int check_loader(const char *path, const uint8_t *buf, size_t len)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	EFI_STATUS err = pe_parse(buf, len, path, pe);
	bool ok = err == EFI_SUCCESS && pe_is_efi_app_x64(pe);

	free(pe);
	if (err == EFI_LOAD_ERROR)
		return -1;
	if (!ok)
		return -tool_fail("%s: not an x86-64 EFI application", path);
	return 0;
}

static void report(int r, const char *path)
{
	if (r > 0)
		printf("installed %s\n", path);
}

/* BOOTX64.EFI is ours to update when missing, already this loader, or the
 * previous handoff (same bytes as the old handoffx64.efi). */
static int install_fallback(const struct install_args *a, const char *path, const uint8_t *buf, size_t len,
			    const uint8_t *old, size_t old_len)
{
	uint8_t *cur;
	size_t cur_len;
	bool ours;
	int r;

	if (read_file_opt(path, TOOL_READ_MAX, &cur, &cur_len) < 0)
		return -1;
	ours = !cur || (cur_len == len && memcmp(cur, buf, len) == 0) ||
	       (old && cur_len == old_len && memcmp(cur, old, old_len) == 0);
	free(cur);
	if (!ours && !a->force) {
		tool_note("keeping %s: another boot loader is installed there (--force replaces it)", path);
		return 0;
	}
	r = install_file(path, buf, len, 0644);
	report(r, path);
	return r < 0 ? -1 : 0;
}

static int install_files(const struct install_args *a, const char *loader, const uint8_t *buf, size_t len)
{
	char *hdir = path_join(a->esp, "EFI/handoff"), *bdir = path_join(a->esp, "EFI/BOOT");
	char *main_path = path_join(hdir, "handoffx64.efi"), *fb_path = path_join(bdir, "BOOTX64.EFI");
	char *entries = path_join(a->esp, "loader/entries"), *conf = path_join(a->esp, "loader/loader.conf");
	uint8_t *old = NULL;
	size_t old_len = 0;
	int r = -1;

	(void)loader;
	if (mkdir_p(hdir, 0755) < 0 || mkdir_p(bdir, 0755) < 0 || mkdir_p(entries, 0755) < 0 ||
	    read_file_opt(main_path, TOOL_READ_MAX, &old, &old_len) < 0)
		goto out;
	if (install_fallback(a, fb_path, buf, len, old, old_len) < 0)
		goto out;
	r = install_file(main_path, buf, len, 0644);
	report(r, main_path);
	if (r >= 0 && !is_file(conf)) {
		r = write_file_atomic(conf, default_loader_conf, strlen(default_loader_conf), 0644);
		if (r == 0)
			printf("created %s\n", conf);
	}
out:
	free(old);
	free(conf);
	free(entries);
	free(fb_path);
	free(main_path);
	free(bdir);
	free(hdir);
	return r < 0 ? -1 : 0;
}

int cmd_install(int argc, char **argv)
{
	struct install_args a = { 0 };
	char *loader = NULL, *esp;
	uint8_t *buf = NULL;
	size_t len;
	int r = parse_args(argc, argv, &a);

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(esp = esp_locate(a.esp, /* quiet= */ false)))
		return EXIT_FAIL;
	a.esp = esp;
	r = EXIT_FAIL;
	if (a.variables && !is_dir(efivars_dir()))
		tool_fail("--variables yes: %s is missing (not booted with UEFI, or efivarfs not mounted)", efivars_dir());
	else if ((loader = loader_find(a.loader_opt)) && read_file(loader, TOOL_READ_MAX, &buf, &len) == 0 &&
		 check_loader(loader, buf, len) == 0 && install_files(&a, loader, buf, len) == 0 && esp_record(esp) == 0)
		r = a.variables ? efivar_add_boot_entry(a.esp) : EXIT_OK;
	free(buf);
	free(loader);
	free(esp);
	return r;
}
