/* mkpack: the build's packer (docs/design.md "Packed loaders"): reads a
 * loader PE file and writes the payload src/pack/image.S carries
 * (src/core/pack.h); with --trim, writes the packed loader linked around it
 * with headers of the size they need (pe_trim_headers()).
 * Usage: mkpack IN.efi OUT.packed | mkpack --trim IN.efi OUT.efi */
#include "lzma_enc.h"
#include "core/pack.h"
#include "core/pe_write.h"
#include <stdio.h>
#include <stdlib.h>

static uint8_t *read_all(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*ret_len = buf ? (size_t)n : 0;
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	bool trim = argc == 4 && strcmp(argv[1], "--trim") == 0;
	uint8_t *pe, *out;
	size_t len, out_len;
	FILE *f;

	argv += trim;
	if (argc != 3 + trim)
		return fputs("usage: mkpack IN.efi OUT.packed | mkpack --trim IN.efi OUT.efi\n", stderr), 2;
	if (!(pe = read_all(argv[1], &len)))
		return fprintf(stderr, "mkpack: %s: cannot read\n", argv[1]), 1;
	if (EFI_ERROR(trim ? pe_trim_headers(pe, len, argv[1], &out, &out_len) :
			     pack_build(pe, len, argv[1], lzma_enc_raw, &out, &out_len)))
		return 1;
	f = fopen(argv[2], "wb");
	if (!f || fwrite(out, 1, out_len, f) != out_len || fclose(f) != 0)
		return fprintf(stderr, "mkpack: %s: cannot write\n", argv[2]), 1;
	printf("mkpack: %s: %zu bytes -> %zu\n", argv[1], len, out_len);
	free(pe);
	free(out);
	return 0;
}
