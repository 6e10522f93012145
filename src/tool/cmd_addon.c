/* handoff addon: a UKI addon (systemd-stub's *.addon.efi; src/core/addon.h):
 * a minimal EFI application with .cmdline, .sbat and optionally .uname,
 * signed by sbsign when asked, for <uki>.extra.d/ or \loader\addons\. The
 * supported way to add console= or a debug option to a signed UKI. */
#include "tool.h"
#include "core/addon.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char help[] =
	"Usage: handoff addon --cmdline TEXT [--uname TEXT] [--sbat TEXT]\n"
	"                     [--sign-key KEY --sign-cert CERT] -o NAME.addon.efi\n\n"
	"Build a UKI addon: an EFI image with .cmdline and .sbat sections whose command\n"
	"line handoff's stub (and systemd-stub) appends to the UKI's. Put it in\n"
	"<UKI>.efi.extra.d/ for one UKI or in \\loader\\addons\\ for all; under Secure\n"
	"Boot it is applied only when signed by a key the firmware (or shim) trusts.\n\n"
	"  --cmdline TEXT        the options to append (one line of UTF-8)\n"
	"  --uname TEXT          apply only to UKIs of this kernel release (.uname)\n"
	"  --sbat TEXT           SBAT metadata (default: handoff's)\n"
	"  --sign-key KEY        sign for Secure Boot with this PEM private key (runs sbsign)\n"
	"  --sign-cert CERT      ... and this PEM certificate; both or neither\n"
	"  -o, --output FILE     where to write the addon\n";

struct addon_args {
	const char *cmdline, *uname, *sbat, *out, *sign_key, *sign_cert;
};

static int parse_args(int argc, char **argv, struct addon_args *a)
{
	static const struct option opts[] = {
		{ "cmdline", required_argument, NULL, 'c' }, { "uname", required_argument, NULL, 'u' },
		{ "sbat", required_argument, NULL, 'b' }, { "output", required_argument, NULL, 'o' },
		{ "sign-key", required_argument, NULL, 'K' }, { "sign-cert", required_argument, NULL, 'C' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'c': a->cmdline = optarg; break;
		case 'u': a->uname = optarg; break;
		case 'b': a->sbat = optarg; break;
		case 'o': a->out = optarg; break;
		case 'K': a->sign_key = optarg; break;
		case 'C': a->sign_cert = optarg; break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!a->cmdline)
		return tool_usage("--cmdline is required");
	if (!a->out)
		return tool_usage("-o/--output is required");
	if (!a->sign_key != !a->sign_cert)
		return tool_usage("--sign-key and --sign-cert go together");
	return 0;
}

int cmd_addon(int argc, char **argv)
{
	struct addon_args a = { 0 };
	uint8_t *out = NULL;
	size_t len = 0;
	int r = parse_args(argc, argv, &a);

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (EFI_ERROR(addon_build(a.cmdline, a.sbat, a.uname, &out, &len)))
		return EXIT_FAIL;
	r = write_image_signed(a.out, a.sign_key, a.sign_cert, out, len);
	free(out);
	if (r)
		return EXIT_FAIL;
	printf("wrote %s (%zu bytes%s)\n", a.out, len, a.sign_key ? ", then signed" : "");
	return EXIT_OK;
}
