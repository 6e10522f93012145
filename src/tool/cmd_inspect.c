/* handoff inspect FILE [--json]: what the loader would see in an image. */
#include "inspect.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char help[] =
	"Usage: handoff inspect FILE [--json]\n\n"
	"Describe a Linux kernel (bzImage), unified kernel image or EFI application:\n"
	"format, boot protocol and setup header fields, PE/COFF headers and sections,\n"
	"UKI sections (.osrel, .cmdline, .uname), SBAT, Authenticode signature, and\n"
	"the boot schemes (stub, handover, legacy) handoff can use for it.\n\n"
	"  --json     print one JSON object instead of text\n"
	"  -h, --help show this help\n";

int cmd_inspect(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	struct inspect_result r;
	struct strbuf out = { 0 };
	bool json = false;
	uint8_t *buf;
	size_t len;
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
		if (c == 'j')
			json = true;
		else if (c == 'h')
			return fputs(help, stdout), EXIT_OK;
		else
			return usage_bad_option(c, argv);
	}
	if (optind + 1 != argc)
		return tool_usage(optind == argc ? "missing FILE" : "one FILE only");
	if (read_file(argv[optind], TOOL_READ_MAX, &buf, &len) < 0)
		return EXIT_FAIL;
	if (EFI_ERROR(inspect_image(buf, len, argv[optind], &r))) {
		inspect_result_free(&r);
		free(buf);
		return EXIT_FAIL;
	}
	(json ? inspect_render_json : inspect_render_text)(&r, &out);
	fwrite(out.buf, 1, out.len, stdout);
	sb_free(&out);
	inspect_result_free(&r);
	free(buf);
	return fflush(stdout) == 0 ? EXIT_OK : tool_fail("stdout: write error");
}
