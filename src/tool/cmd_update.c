/* handoff update: an installed loader replaced by this version's, as the
 * Debian package's postinst does on upgrade (bootctl update does the same for
 * systemd-boot). \EFI\handoff\handoffx64.efi is replaced when it is there;
 * \EFI\BOOT\BOOTX64.EFI only when it holds the same bytes as that old copy
 * (handoff put it there). Nothing is created, and another boot loader at
 * the fallback path is never replaced. */
#include "esp.h"
#include "core/pe.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: handoff update [--esp DIR] [--loader FILE] [--graceful]\n\n"
	"Replace the loader installed by 'handoff install' with this version's:\n"
	"EFI/handoff/handoffx64.efi, and EFI/BOOT/BOOTX64.EFI when it is handoff's\n"
	"copy. Nothing else is touched; running it twice changes nothing.\n\n"
	"  --esp DIR      the ESP (default: recorded by handoff install, or found)\n"
	"  --loader FILE  the new loader (default: beside the tool, or PREFIX/lib/handoff)\n"
	"  --graceful     exit 0 when no ESP or no installed loader is found\n";

struct update_target {
	const char *main, *fallback;
};

/* One row per architecture the package ships a loader for. */
static const struct update_target targets[] = {
	{ "EFI/handoff/handoffx64.efi", "EFI/BOOT/BOOTX64.EFI" },
};

static bool is_efi_app(const char *path, const uint8_t *buf, size_t len)
{
	struct pe_info *pe = xmalloc(sizeof(*pe));
	bool ok = pe_parse(buf, len, path, pe) == EFI_SUCCESS && pe_is_efi_app_x64(pe);

	free(pe);
	if (!ok)
		tool_fail("%s: not an x86-64 EFI application", path);
	return ok;
}

static int report(const char *path, int written)
{
	if (written > 0)
		printf("updated %s\n", path);
	return written;
}

/* Return: 1 updated (or already current), 0 not installed, -1 failure. */
static int update_one(const char *esp, const struct update_target *t, const uint8_t *buf, size_t len)
{
	char *main = path_join(esp, t->main), *fb = path_join(esp, t->fallback);
	uint8_t *old = NULL, *cur = NULL;
	size_t old_len = 0, cur_len = 0;
	bool ours;
	int r = -1;

	if (read_file_opt(main, TOOL_READ_MAX, &old, &old_len) < 0 || read_file_opt(fb, TOOL_READ_MAX, &cur, &cur_len) < 0)
		goto out;
	r = 0;
	if (!old)
		goto out;
	ours = cur && cur_len == old_len && memcmp(cur, old, old_len) == 0;
	if (cur && !ours && !(cur_len == len && memcmp(cur, buf, len) == 0))
		tool_note("keeping %s: another boot loader is installed there", fb);
	if ((ours && report(fb, install_file(fb, buf, len, 0644)) < 0) || report(main, install_file(main, buf, len, 0644)) < 0)
		r = -1;
	else
		r = 1;
out:
	free(cur);
	free(old);
	free(fb);
	free(main);
	return r;
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
	char *esp, *loader = NULL;
	uint8_t *buf = NULL;
	size_t len;
	int r = parse(argc, argv, &esp_opt, &loader_opt, &graceful), n = 0;

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(esp = esp_locate(esp_opt, /* quiet= */ graceful)))
		return graceful ? (tool_note("no EFI system partition found: nothing to update"), EXIT_OK) : EXIT_FAIL;
	r = EXIT_FAIL;
	if (!(loader = loader_find(loader_opt)) || read_file(loader, TOOL_READ_MAX, &buf, &len) < 0 ||
	    !is_efi_app(loader, buf, len))
		goto out;
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
		int u = update_one(esp, &targets[i], buf, len);
		if (u < 0)
			goto out;
		n += u;
	}
	r = EXIT_OK;
	if (n == 0 && graceful)
		tool_note("%s: handoff is not installed there (no %s): nothing to update", esp, targets[0].main);
	else if (n == 0)
		r = tool_fail("%s: handoff is not installed there (no %s): nothing to update", esp, targets[0].main);
out:
	free(buf);
	free(loader);
	free(esp);
	return r;
}
