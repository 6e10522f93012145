/* handoff inspect FILE [--json] [--pcrs]: what the loader would see in an
 * image, or the PCR 11 values a UKI leads to (pcr.h). */
#include "inspect.h"
#include "pcr.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char help[] =
	"Usage: handoff inspect FILE [--json]\n"
	"       handoff inspect --pcrs [--pcr-banks LIST] [--phases LIST] [--json] UKI\n\n"
	"Describe a Linux kernel (bzImage), unified kernel image or EFI application:\n"
	"format, boot protocol and setup header fields, PE/COFF headers and sections,\n"
	"UKI sections (.osrel, .cmdline, .uname) and profiles, SBAT, Authenticode\n"
	"signature, and the boot schemes (stub, handover, legacy) handoff can use for it.\n"
	"With --pcrs: the PCR 11 values a unified kernel image leads to once its\n"
	"stub has measured it, and in each boot phase, as systemd-measure calculate;\n"
	"for a multi-profile UKI, those of each profile (in JSON, an array of them).\n\n"
	"  --json             print one JSON object instead of text\n"
	"  --pcrs             PCR 11 values instead of the description\n"
	"  --pcr-banks LIST   sha1, sha256, sha384, sha512 (default sha256)\n"
	"  --phases LIST      boot phase paths (default: systemd's, enter-initrd ... ready)\n"
	"  -h, --help         show this help\n";

enum { OPT_JSON = 0x100, OPT_PCRS, OPT_PCR_BANKS, OPT_PHASES };

struct inspect_args {
	bool json, pcrs;
	struct pcr_opts pcr;
};

static int parse_args(int argc, char **argv, struct inspect_args *a)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON }, { "pcrs", no_argument, NULL, OPT_PCRS },
		{ "pcr-banks", required_argument, NULL, OPT_PCR_BANKS },
		{ "phases", required_argument, NULL, OPT_PHASES },
		{ "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c, r = 0;

	opterr = 0;
	while (r == 0 && (c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON: a->json = true; break;
		case OPT_PCRS: a->pcrs = true; break;
		case OPT_PCR_BANKS: r = pcr_opts_add_banks(&a->pcr, optarg); break;
		case OPT_PHASES: r = pcr_opts_add_phases(&a->pcr, optarg); break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (r)
		return r;
	if (optind + 1 != argc)
		return tool_usage(optind == argc ? "missing FILE" : "one FILE only");
	if (a->pcr.given && !a->pcrs)
		return tool_usage("--pcr-banks and --phases go with --pcrs");
	return pcr_opts_finish(&a->pcr);
}

/* PCR 11 of each profile the UKI can boot: one when it has no .profile; with
 * profiles, each headed "# profile N (ID)", or in JSON an array of them. */
static int render_pcrs(const struct inspect_args *a, const uint8_t *buf, size_t len, const char *name,
		       const struct inspect_result *r, struct strbuf *out)
{
	struct pcr_prediction *p = xmalloc(sizeof(*p));
	uint32_t n = r->n_profiles ? r->n_profiles : 1;
	int ret = 0;

	if (r->n_profiles && a->json)
		sb_putc(out, '[');
	for (uint32_t i = 0; i < n && ret == 0; i++) {
		ret = pcr_predict(buf, len, name, i, &a->pcr, p);
		if (ret < 0)
			break;
		if (r->n_profiles && !a->json)
			sb_printf(out, "%s# profile %u (%s)\n", i ? "\n" : "", i,
				  r->profiles[i].info.id ? r->profiles[i].info.id : "no ID");
		if (r->n_profiles && a->json && i)
			sb_putc(out, ',');
		(a->json ? pcr_render_json : pcr_render_text)(p, &a->pcr, out);
	}
	if (r->n_profiles && a->json)
		sb_putc(out, ']');
	free(p);
	return ret;
}

static int render(const struct inspect_args *a, const uint8_t *buf, size_t len, const char *name,
		  struct strbuf *out)
{
	struct inspect_result r;
	int ret = 0;

	if (EFI_ERROR(inspect_image(buf, len, name, &r))) {
		ret = -1;
	} else if (!a->pcrs) {
		(a->json ? inspect_render_json : inspect_render_text)(&r, out);
	} else if (r.format != INSPECT_UKI) {
		tool_fail("%s: %s, not a unified kernel image (no .linux section): no PCR 11 to predict", name,
			  inspect_format_name(r.format));
		ret = -1;
	} else {
		ret = render_pcrs(a, buf, len, name, &r, out);
	}
	inspect_result_free(&r);
	return ret;
}

int cmd_inspect(int argc, char **argv)
{
	struct inspect_args a = { 0 };
	struct strbuf out = { 0 };
	uint8_t *buf = NULL;
	size_t len;
	int r = parse_args(argc, argv, &a);

	if (r == 0) {
		r = read_file(argv[optind], TOOL_READ_MAX, &buf, &len) < 0 ||
			    render(&a, buf, len, argv[optind], &out) < 0 ? EXIT_FAIL : EXIT_OK;
		fwrite(out.buf, 1, out.len, stdout);
		if (r == EXIT_OK && fflush(stdout) != 0)
			r = tool_fail("stdout: write error");
	}
	sb_free(&out);
	free(buf);
	pcr_opts_free(&a.pcr);
	return r < 0 ? EXIT_OK : r;
}
