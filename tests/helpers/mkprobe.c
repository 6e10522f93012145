/* mkprobe: writes build/probe.img from the probe payload (a flat blob) with
 * src/core/bzwrite.c, copies the image's setup header into the payload's
 * manifest (src/probe/probe.h) and, given handoff's stub, wraps the result
 * into a PE/COFF image as `handoff wrap` does (src/core/wrap.c). Written as
 * mkimage_main() so it can become `handoff mkimage`.
 *
 *   mkprobe --payload BLOB --init-size N [--handover-offset N]
 *           [--cmdline-size N] [--kernel-alignment N] [--pref-address N] [--relocatable 0|1]
 *           [--kernel-version S] [--stub STUB.efi [--compat-entry N]] -o OUT
 *
 * --compat-entry: the payload offset of its IA-32 PE entry, named in the
 * wrapped image's .compat section (for 32-bit firmware). Seven section
 * headers (the stub's five, .bzimage, .compat) do not fit below the setup
 * header at 0x1f1, so the stub's .sbat is left out of the probe's header: the
 * probe is never verified, and its bytes stay in the file, unmapped.
 */
#define _GNU_SOURCE
#include "core/bzimage.h"
#include "core/bzwrite.h"
#include "core/wrap.h"
#include "probe/probe.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct opts {
	const char *payload, *stub, *out;
	struct bz_params bz;
	uint32_t compat_entry;
};

#define TAIL_PAD 16u

static uint8_t *read_all(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f) {
		fprintf(stderr, "mkprobe: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*ret_len = (size_t)n;
	}
	fclose(f);
	if (!buf)
		fprintf(stderr, "mkprobe: %s: cannot read (empty?)\n", path);
	return buf;
}

static int write_all(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(buf, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "mkprobe: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int parse_u64(const char *opt, const char *s, uint64_t max, uint64_t *ret)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > max) {
		fprintf(stderr, "mkprobe: %s: bad number \"%s\"\n", opt, s);
		return -1;
	}
	*ret = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n = 0;

		if (!v) {
			fprintf(stderr, "mkprobe: %s needs a value\n", a);
			return -1;
		}
		i++;
		if (!strcmp(a, "--payload"))
			o->payload = v;
		else if (!strcmp(a, "--stub"))
			o->stub = v;
		else if (!strcmp(a, "-o"))
			o->out = v;
		else if (!strcmp(a, "--kernel-version"))
			o->bz.kernel_version = v;
		else if (!strcmp(a, "--pref-address")) {
			if (parse_u64(a, v, UINT64_MAX, &o->bz.pref_address))
				return -1;
		} else if (parse_u64(a, v, UINT32_MAX, &n))
			return -1;
		else if (!strcmp(a, "--init-size"))
			o->bz.init_size = (uint32_t)n;
		else if (!strcmp(a, "--handover-offset"))
			o->bz.handover_offset = (uint32_t)n;
		else if (!strcmp(a, "--cmdline-size"))
			o->bz.cmdline_size = (uint32_t)n;
		else if (!strcmp(a, "--kernel-alignment"))
			o->bz.kernel_alignment = (uint32_t)n;
		else if (!strcmp(a, "--relocatable"))
			o->bz.fixed = n == 0;
		else if (!strcmp(a, "--compat-entry"))
			o->compat_entry = (uint32_t)n;
		else {
			fprintf(stderr, "mkprobe: unknown option %s\n", a);
			return -1;
		}
	}
	if (!o->payload || !o->out || !o->bz.init_size) {
		fprintf(stderr, "mkprobe: --payload, --init-size and -o are required\n");
		return -1;
	}
	return 0;
}

/* The payload finds the header the loader was meant to copy in its manifest. */
static int fill_manifest(uint8_t *img, size_t len)
{
	struct bz_info bz;
	struct probe_manifest m;
	uint8_t *at;

	if (EFI_ERROR(bz_parse(img, len, "probe.img", &bz)))
		return -1;
	at = memmem(img + bz.setup_size, bz.kernel_size, PROBE_MANIFEST_MAGIC, PROBE_MANIFEST_MAGIC_SIZE);
	if (!at || at != img + bz.setup_size + PROBE_MANIFEST_OFFSET ||
	    bz.hdr_end - SETUP_HEADER_OFFSET > sizeof(m.hdr)) {
		fprintf(stderr, "mkprobe: payload has no manifest at %#x\n", PROBE_MANIFEST_OFFSET);
		return -1;
	}
	memcpy(&m, at, sizeof(m));
	m.hdr_size = (uint32_t)(bz.hdr_end - SETUP_HEADER_OFFSET);
	memcpy(m.hdr, img + SETUP_HEADER_OFFSET, m.hdr_size);
	memcpy(at, &m, sizeof(m));
	return 0;
}

/* The stub with @name taken out of its section table (the entries after it
 * move up; NumberOfSections one less). PE/COFF §3, §4. */
static void drop_section(uint8_t *stub, size_t len, const char *name)
{
	struct pe_info pe;
	const struct pe_section *s;
	uint32_t i, at;

	if (EFI_ERROR(pe_parse(stub, len, "stub", &pe)) || !(s = pe_find_section(&pe, name)))
		return;
	i = (uint32_t)(s - pe.sections);
	at = pe.section_table_offset + i * 40;
	memmove(stub + at, stub + at + 40, (pe.n_sections - i - 1) * 40);
	memset(stub + pe.section_table_offset + (pe.n_sections - 1) * 40, 0, 40);
	put_le16(stub + pe.pe_offset + 6, (uint16_t)(pe.n_sections - 1));
}

int mkimage_main(int argc, char **argv)
{
	struct opts o = { .bz = { .cmdline_size = 4095, .kernel_alignment = 0x200000, .pref_address = 0x1000000,
				  .initrd_addr_max = 0x7fffffff,
				  .xloadflags = XLF_KERNEL_64 | XLF_EFI_HANDOVER_32 | XLF_EFI_HANDOVER_64 |
						XLF_CAN_BE_LOADED_ABOVE_4G } };
	uint8_t *payload, *img = NULL, *stub, *wrapped = NULL;
	size_t payload_len = 0, img_len = 0, stub_len = 0, wrapped_len = 0;
	int r = 1;

	if (parse_args(argc, argv, &o) || !(payload = read_all(o.payload, &payload_len)))
		return 2;
	/* A paragraph of zeros at the end, always: a loader must accept a file a
	 * few bytes short of syssize (the boot tests cut into this padding). */
	payload = realloc(payload, payload_len + TAIL_PAD);
	if (!payload)
		return 2;
	memset(payload + payload_len, 0, TAIL_PAD);
	payload_len += TAIL_PAD;
	if (EFI_ERROR(bz_write(payload, payload_len, &o.bz, &img, &img_len)) || fill_manifest(img, img_len))
		goto out;
	if (!o.stub) {
		r = write_all(o.out, img, img_len) ? 1 : 0;
		goto out;
	}
	stub = read_all(o.stub, &stub_len);
	if (stub && o.compat_entry)
		drop_section(stub, stub_len, ".sbat");
	if (stub && !EFI_ERROR(wrap_bzimage_compat(stub, stub_len, img, img_len, "probe.img", o.compat_entry, &wrapped,
						   &wrapped_len)))
		r = write_all(o.out, wrapped, wrapped_len) ? 1 : 0;
	free(stub);
	free(wrapped);
out:
	free(payload);
	free(img);
	return r;
}

int main(int argc, char **argv)
{
	return mkimage_main(argc, argv);
}
