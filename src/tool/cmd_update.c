/* handoff update: an installed loader replaced by this version's, as the
 * Debian package's postinst does on upgrade (bootctl update does the same for
 * systemd-boot). \EFI\handoff\handoffx64.efi (and handoffia32.efi) is
 * replaced when it is there; \EFI\BOOT\BOOTX64.EFI (BOOTIA32.EFI) only when
 * it holds the same bytes as that old copy
 * (handoff put it there). Nothing is created, and another boot loader at
 * the fallback path is never replaced. The new loader is the shipped
 * handoffx64.efi.signed when there is one, or is signed with handoff.conf's
 * keys; a signed loader is never replaced by an unsigned one (loader_src.h). */
#include "esp.h"
#include "loader_src.h"
#include "core/pe.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: handoff update [--esp DIR] [--loader FILE] [--graceful]\n\n"
	"Replace the loader installed by 'handoff install' with this version's:\n"
	"EFI/handoff/handoffx64.efi (and handoffia32.efi), and EFI/BOOT/BOOTX64.EFI\n"
	"(BOOTIA32.EFI) when it is handoff's copy. Nothing else is touched; running it\n"
	"twice changes nothing. FILE.signed beside the shipped loader is used when it\n"
	"exists; else the keys of /etc/handoff/handoff.conf (sign-key=, sign-cert=) sign\n"
	"it with sbsign. A signed loader is never replaced by an unsigned one: update\n"
	"refuses and says what to configure.\n\n"
	"  --esp DIR      the ESP (default: recorded by handoff install, or found)\n"
	"  --loader FILE  the new loader for its word size (default: beside the tool, or\n"
	"                 PREFIX/lib/handoff)\n"
	"  --graceful     exit 0 when no ESP or no installed loader is found\n";

/* One row per firmware word size a loader is shipped for (UEFI 2.10 §3.5.1.1). */
struct update_target {
	const char *main, *fallback;
	uint16_t machine;
	char *(*find)(const char *opt);
};

static const struct update_target targets[] = {
	{ "EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI", PE_MACHINE_X64, loader_find },
	{ "EFI/handoff/handoffia32.efi", "EFI/BOOT/BOOTIA32.EFI", PE_MACHINE_I386, loader32_find },
	{ "EFI/handoff/handoffaa64.efi", "EFI/BOOT/BOOTAA64.EFI", PE_MACHINE_AA64, loaderaa64_find },
};

/* The new loader for @t: --loader when it is an image for @t's machine, else
 * the one shipped beside the tool. -1 (logged) when missing or not one. */
static int new_loader(const struct update_target *t, const char *opt, struct loader_src *ret)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	uint8_t *buf = NULL;
	size_t len = 0;
	bool usable = opt && read_file(opt, TOOL_READ_MAX, &buf, &len) == 0 &&
		      pe_parse(buf, len, opt, pe) == EFI_SUCCESS && pe_is_efi_app(pe, t->machine);

	free(buf);
	free(pe);
	return loader_src_load(usable ? opt : NULL, t->find, t->machine, ret);
}

/* --loader must be a loader for one of the targets; it is not ignored quietly. */
static bool loader_opt_usable(const char *path)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	uint8_t *buf = NULL;
	size_t len;
	bool ok = false;

	/* read_file says why it failed, pe_parse too unless there is no PE at all */
	if (read_file(path, TOOL_READ_MAX, &buf, &len) == 0) {
		EFI_STATUS err = pe_parse(buf, len, path, pe);

		for (size_t i = 0; err == EFI_SUCCESS && i < ARRAY_SIZE(targets); i++)
			ok = ok || pe_is_efi_app(pe, targets[i].machine);
		if (!ok && err != EFI_LOAD_ERROR)
			tool_fail("%s: not an x86-64, IA-32 or AArch64 EFI application", path);
	}
	free(buf);
	free(pe);
	return ok;
}

static int report(const char *path, int written)
{
	if (written > 0)
		printf("updated %s\n", path);
	return written;
}

/* Return: 1 updated (or already current), 0 not installed, -1 failure. */
static int update_one(const char *esp, const struct update_target *t, const char *loader_opt)
{
	char *main = path_join(esp, t->main), *fb = path_join(esp, t->fallback);
	uint8_t *old = NULL, *cur = NULL;
	size_t old_len = 0, cur_len = 0;
	struct loader_src src = { 0 };
	bool ours;
	int r = -1;

	if (read_file_opt(main, TOOL_READ_MAX, &old, &old_len) < 0 ||
	    read_file_opt(fb, TOOL_READ_MAX, &cur, &cur_len) < 0)
		goto out;
	r = 0;
	if (!old)
		goto out; /* this word size's loader is not installed: nothing to do */
	r = -1;
	if (new_loader(t, loader_opt, &src) < 0 || loader_src_for(&src, main, old, old_len) < 0)
		goto out;
	ours = cur && cur_len == old_len && memcmp(cur, old, old_len) == 0;
	if (cur && !ours && !(cur_len == src.len && memcmp(cur, src.buf, src.len) == 0))
		tool_note("keeping %s: another boot loader is installed there", fb);
	if ((ours && report(fb, install_file(fb, src.buf, src.len, 0644)) < 0) ||
	    report(main, install_file(main, src.buf, src.len, 0644)) < 0)
		r = -1;
	else
		r = 1;
out:
	loader_src_free(&src);
	free(cur);
	free(old);
	free(fb);
	free(main);
	return r;
}

int loader_update_all(const char *esp, const char *loader_opt)
{
	int n = 0;

	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		int u = update_one(esp, &targets[i], loader_opt);

		if (u < 0)
			return -1;
		n += u;
	}
	return n;
}

static int parse(int argc, char **argv, const char **esp, const char **loader, bool *graceful)
{
	static const struct option opts[] = {
		{ "esp", required_argument, NULL, 'e' }, { "loader", required_argument, NULL, 'l' },
		{ "graceful", no_argument, NULL, 'g' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'e': *esp = optarg; break;
		case 'l': *loader = optarg; break;
		case 'g': *graceful = true; break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	return 0;
}

int cmd_update(int argc, char **argv)
{
	const char *esp_opt = NULL, *loader_opt = NULL;
	bool graceful = false;
	char *esp;
	int r = parse(argc, argv, &esp_opt, &loader_opt, &graceful), n = 0;

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(esp = esp_locate(esp_opt, /* quiet= */ graceful)))
		return graceful ? (tool_note("no EFI system partition found: nothing to update"), EXIT_OK) : EXIT_FAIL;
	r = EXIT_FAIL;
	if (loader_opt && !loader_opt_usable(loader_opt))
		goto out;
	n = loader_update_all(esp, loader_opt);
	if (n < 0)
		goto out;
	r = EXIT_OK;
	if (n == 0 && graceful)
		tool_note("%s: handoff is not installed there (no %s): nothing to update", esp, targets[0].main);
	else if (n == 0)
		r = tool_fail("%s: handoff is not installed there (no %s): nothing to update", esp, targets[0].main);
out:
	free(esp);
	return r;
}
