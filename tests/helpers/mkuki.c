/* Test driver for the image writers in src/core, built by tests/check.d/40-sbsign.sh
 * (until the `handoff uki`/`handoff wrap` CLI exists):
 *   mkuki uki STUB KERNEL OUT [-i INITRD]... [-c CMDLINE] [-o OSREL_FILE] [-u UNAME]
 *   mkuki wrap STUB KERNEL OUT
 * Writes OUT only on success. */
#include "core/uki.h"
#include "core/wrap.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint8_t *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf;
	long n;

	if (!f || fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
		fprintf(stderr, "mkuki: cannot read %s\n", path);
		exit(1);
	}
	buf = malloc((size_t)n + 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fprintf(stderr, "mkuki: cannot read %s\n", path);
		exit(1);
	}
	buf[n] = 0;
	fclose(f);
	*len = (size_t)n;
	return buf;
}

static int spew(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "mkuki: cannot write %s\n", path);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct uki_blob initrds[16];
	struct uki_input in = { .stub_name = NULL };
	uint8_t *out;
	size_t out_len;
	EFI_STATUS err;

	if (argc < 5 || (strcmp(argv[1], "uki") != 0 && strcmp(argv[1], "wrap") != 0)) {
		fprintf(stderr,
			"usage: mkuki uki|wrap STUB KERNEL OUT [-i INITRD]... [-c CMDLINE] [-o OSREL] [-u UNAME]\n");
		return 2;
	}
	in.stub_name = argv[2];
	in.stub = slurp(argv[2], &in.stub_size);
	in.linux_name = argv[3];
	in.linux_image = slurp(argv[3], &in.linux_size);
	in.initrds = initrds;
	for (int i = 5; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "-i") == 0 && in.n_initrds < 16) {
			initrds[in.n_initrds].data = slurp(argv[i + 1], &initrds[in.n_initrds].size);
			in.n_initrds++;
		} else if (strcmp(argv[i], "-c") == 0) {
			in.cmdline = argv[i + 1];
		} else if (strcmp(argv[i], "-o") == 0) {
			size_t n;
			in.os_release = (const char *)slurp(argv[i + 1], &n);
			in.os_release_name = argv[i + 1];
		} else if (strcmp(argv[i], "-u") == 0) {
			in.uname = argv[i + 1];
		}
	}
	if (strcmp(argv[1], "uki") == 0)
		err = uki_build(&in, &out, &out_len);
	else
		err = wrap_bzimage(in.stub, in.stub_size, in.linux_image, in.linux_size, argv[3], &out, &out_len);
	free((void *)in.stub);
	free((void *)in.linux_image);
	free((void *)in.os_release);
	for (size_t i = 0; i < in.n_initrds; i++)
		free((void *)initrds[i].data);
	if (EFI_ERROR(err))
		return 1;
	err = spew(argv[4], out, out_len);
	mem_free(out);
	return err ? 1 : 0;
}
