/* handoff bless: the end of a counted boot, as systemd-bless-boot (UAPI.1
 * "Boot counting"). The Debian package runs it from
 * handoff-bless-boot.service once boot-complete.target is reached, and runs
 * --check-no-failures before that target (handoff-boot-check-no-failures
 * .service), as systemd-boot-check-no-failures does, so that a boot with a
 * failed unit is never marked good. */
#include "bless.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char help[] =
	"Usage: handoff bless [--good | --bad | --status | --check-no-failures] [--esp DIR] [--boot DIR]\n\n"
	"Mark this boot of a counted entry (LoaderBootCountPath) as good or bad, as\n"
	"systemd-bless-boot does: the entry file on the ESP (or at /boot) loses its\n"
	"counter (NAME+2-1.conf becomes NAME.conf; a UKI, NAME.efi), or is renamed\n"
	"NAME+0-DONE so that it sorts last. Marking twice changes nothing.\n\n"
	"  --good               (the default) mark this boot good\n"
	"  --bad                mark it bad\n"
	"  --status             print clean (no boot counting), indeterminate (not marked\n"
	"                       yet), good or bad\n"
	"  --check-no-failures  exit 1 when a unit failed (systemctl's NFailedUnits), 0 when\n"
	"                       none did: what handoff-boot-check-no-failures.service runs\n"
	"                       before boot-complete.target\n"
	"  --esp DIR, --boot DIR  where the ESP and /boot are (default: found)\n";

enum action { ACT_GOOD, ACT_BAD, ACT_STATUS, ACT_CHECK };

static int parse(int argc, char **argv, enum action *act, const char **esp, const char **boot)
{
	static const struct option opts[] = {
		{ "good", no_argument, NULL, 'g' }, { "bad", no_argument, NULL, 'b' },
		{ "status", no_argument, NULL, 's' }, { "check-no-failures", no_argument, NULL, 'c' },
		{ "esp", required_argument, NULL, 'e' }, { "boot", required_argument, NULL, 'B' },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c, n_actions = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case 'g': *act = ACT_GOOD, n_actions++; break;
		case 'b': *act = ACT_BAD, n_actions++; break;
		case 's': *act = ACT_STATUS, n_actions++; break;
		case 'c': *act = ACT_CHECK, n_actions++; break;
		case 'e': *esp = optarg; break;
		case 'B': *boot = optarg; break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (n_actions > 1)
		return tool_usage("--good, --bad, --status and --check-no-failures exclude each other");
	return 0;
}

/* The failed units' names, "a.service, b.mount" (best effort: for the message only). */
static char *failed_units(void)
{
	struct strbuf sb = { 0 };
	char *list = NULL, *save = NULL;

	if (run_output("systemctl list-units", (char *[]){ "systemctl", "list-units", "--state=failed", "--plain",
							    "--no-legend", "--no-pager", NULL }, &list) == 0)
		for (char *l = strtok_r(list, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			sb_printf(&sb, "%s%.*s", sb.len ? ", " : "", (int)strcspn(l, " \t"), l);
	free(list);
	return sb.buf;
}

/* systemctl's count of failed units; a unit that failed earlier in this boot counts. */
static int check_no_failures(void)
{
	char *out = NULL, *names;
	uint64_t n = 0;
	int r = EXIT_FAIL;

	if (run_output("systemctl show", (char *[]){ "systemctl", "show", "--property=NFailedUnits", "--value", NULL },
		       &out) < 0)
		return EXIT_FAIL;
	out[strcspn(out, "\n")] = '\0';
	if (!parse_u64(out, UINT32_MAX, &n))
		tool_fail("systemctl show --property=NFailedUnits: '%s' is not a number", out);
	else if (n == 0)
		r = EXIT_OK;
	else {
		names = failed_units();
		tool_fail("%llu unit%s failed%s%s%s: this boot is not marked good", (unsigned long long)n,
			  n == 1 ? "" : "s", names ? " (" : "", names ? names : "", names ? ")" : "");
		free(names);
	}
	free(out);
	return r;
}

int cmd_bless(int argc, char **argv)
{
	enum action act = ACT_GOOD;
	const char *esp = NULL, *boot = NULL;
	struct bless_info b;
	int r = parse(argc, argv, &act, &esp, &boot);

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (act == ACT_CHECK)
		return check_no_failures();
	if (bless_load(esp, boot, &b) < 0)
		return EXIT_FAIL;
	r = EXIT_OK;
	if (act == ACT_STATUS && b.state == BLESS_NOT_FOUND)
		r = tool_fail("LoaderBootCountPath '%s': none of %s, %s, %s found, so the state is unknown", b.var,
			      b.booted, b.good, b.bad);
	else if (act == ACT_STATUS)
		puts(bless_state_name(b.state));
	else if (b.state == BLESS_CLEAN)
		r = tool_fail("not booted with boot counting (LoaderBootCountPath is not set): nothing to mark");
	else if (bless_mark(&b, act == ACT_GOOD) < 0)
		r = EXIT_FAIL;
	bless_info_free(&b);
	return r;
}
