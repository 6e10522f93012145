/* handoff wrap: any bzImage (even one built without CONFIG_EFI_STUB) becomes
 * an EFI application that firmware can start: handoff's stub in the boot
 * sector's PE header, the bzImage unchanged behind it (src/core/wrap.c). The
 * result is still a valid bzImage for loaders that use the boot protocol. */
#include "tool.h"
#include "core/wrap.h"
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char help[] =
	"Usage: handoff wrap --linux FILE [--stub FILE] -o OUT.efi\n\n"
	"Make a bzImage an EFI application: started by firmware or any loader, handoff's\n"
	"stub boots the kernel by handover or legacy boot. OUT stays a valid bzImage.\n\n"
	"  --linux FILE          the kernel (bzImage, boot protocol 2.12+, 64-bit)\n"
	"  --stub FILE           the stub (default: handoff-stub.efi beside the tool)\n"
	"  -o, --output OUT.efi  where to write the image\n";

static int parse_args(int argc, char **argv, const char **linux_path, const char **stub, const char **out)
{
	static const struct option opts[] = {
		{ "linux", required_argument, NULL, 'l' }, { "stub", required_argument, NULL, 'S' },
		{ "output", required_argument, NULL, 'o' }, { "help", no_argument, NULL, 'h' }, { 0 },
	};
	int c;

	opterr = 0;
	while ((c = getopt_long(argc, argv, ":ho:", opts, NULL)) != -1) {
		switch (c) {
		case 'l': *linux_path = optarg; break;
		case 'S': *stub = optarg; break;
		case 'o': *out = optarg; break;
		case 'h': return fputs(help, stdout), -1;
		default: return usage_bad_option(c, argv);
		}
	}
	if (optind < argc)
		return tool_usage("unexpected argument '%s'", argv[optind]);
	if (!*linux_path || !*out)
		return tool_usage("--linux FILE and -o OUT.efi are required");
	return 0;
}

int cmd_wrap(int argc, char **argv)
{
	const char *linux_path = NULL, *stub_opt = NULL, *out = NULL;
	uint8_t *stub = NULL, *bz = NULL, *img = NULL;
	size_t stub_len, bz_len, img_len;
	char *stub_path;
	int r = parse_args(argc, argv, &linux_path, &stub_opt, &out);

	if (r)
		return r < 0 ? EXIT_OK : r;
	if (!(stub_path = stub_find(stub_opt)))
		return EXIT_FAIL;
	r = EXIT_FAIL;
	if (read_file(stub_path, TOOL_READ_MAX, &stub, &stub_len) == 0 &&
	    read_file(linux_path, TOOL_READ_MAX, &bz, &bz_len) == 0) {
		/* A failure is logged once, by wrap_bzimage; nothing is written then. */
		if (wrap_bzimage(stub, stub_len, bz, bz_len, linux_path, &img, &img_len) == EFI_SUCCESS &&
		    write_file_atomic(out, img, img_len, 0755) == 0) {
			printf("wrote %s (%zu bytes)\n", out, img_len);
			r = EXIT_OK;
		}
	}
	free(stub);
	free(bz);
	free(img);
	free(stub_path);
	return r;
}
