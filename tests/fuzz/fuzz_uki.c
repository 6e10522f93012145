/* libFuzzer: the UKI side of the PE code. The input is read as a file and as
 * a loaded image (pe_parse, pe_parse_loaded, uki_parse, uki_parse_profile and
 * uki_profile_find for each profile, uki_profile_from_options, uki_stub_is_handoff,
 * wrap_find, osrel_parse on .osrel), scanned for an arm64 Image's banner
 * (arm64_image_version(), as `handoff uki` reads .uname from an arm64
 * kernel), and used as the stub for both writers,
 * whose output must parse again: pe_add_sections() and wrap_bzimage() may
 * refuse an input, but what they return must be a valid PE (and, for wrap,
 * a valid bzImage). */
#define _GNU_SOURCE /* memmem */
#include "core/arm64_image.h"
#include "core/osrel.h"
#include "core/pe_write.h"
#include "core/uki.h"
#include "core/wrap.h"
#include <stdlib.h>

static void read_side(const uint8_t *data, size_t size, enum pe_layout layout, struct pe_info *pe)
{
	struct uki_sections u;
	struct wrap_view v;
	struct osrel o;

	if (uki_parse(pe, data, size, layout, "fuzz", &u) == EFI_SUCCESS) {
		(void)uki_stub_is_handoff(&u); /* reads .sbat to its last byte, never past it */
		if (u.s[UKI_OSREL].data) {
			osrel_parse((const char *)u.s[UKI_OSREL].data, u.s[UKI_OSREL].size, ".osrel", &o);
			osrel_free(&o);
		}
	}
	/* every profile, and the first LoadOptions bytes as an "@N" (uki_profile.c) */
	for (uint32_t p = 0; p <= uki_profile_count(pe) && p < 8; p++) {
		const uint8_t *opts = data;
		size_t n = size < 24 ? size : 24, before = n;

		if (uki_parse_profile(pe, data, size, layout, "fuzz", p, &u) == EFI_SUCCESS && !u.s[UKI_LINUX].data)
			abort();
		if (uki_profile_find(pe, p, ".cmdline") >= (int)pe->n_sections)
			abort();
		(void)uki_profile_from_options(&opts, &n);
		if (n > before || opts != data + (before - n))
			abort();
	}
	if (wrap_find(pe, data, size, layout, "fuzz", &v) == EFI_SUCCESS && v.head_size + v.body_size < v.head_size)
		abort();
}

/* A minimal 64-bit bzImage: 4 setup sectors, 512 bytes of kernel. */
static const uint8_t *tiny_bzimage(size_t *len)
{
	static uint8_t b[5 * 512 + 512];

	b[0x1f1] = 4;
	put_le32(b + 0x1f4, 512 / 16);
	put_le16(b + 0x1fe, 0xaa55);
	b[0x201] = 0x6a;
	put_le32(b + 0x202, 0x53726448);
	put_le16(b + 0x206, 0x020f);
	put_le16(b + 0x236, 1);
	*len = sizeof(b);
	return b;
}

static void write_side(const uint8_t *data, size_t size, struct pe_info *pe)
{
	static const uint8_t payload[] = "payload";
	struct pe_new_section s = { .name = ".linux", .data = payload, .size = sizeof(payload),
				    .characteristics = PE_SCN_CNT_INITIALIZED_DATA | PE_SCN_MEM_READ };
	const uint8_t *bz;
	uint8_t *out;
	size_t out_len, bz_len;
	struct bz_info bi;

	if (pe_add_sections(data, size, "fuzz", &s, 1, &out, &out_len) == EFI_SUCCESS) {
		if (pe_parse(out, out_len, "out", pe) != EFI_SUCCESS || !pe_find_section(pe, ".linux"))
			abort();
		mem_free(out);
	}
	bz = tiny_bzimage(&bz_len);
	if (wrap_bzimage(data, size, bz, bz_len, "bz", &out, &out_len) == EFI_SUCCESS) {
		if (pe_parse(out, out_len, "wrapped", pe) != EFI_SUCCESS ||
		    bz_parse(out, out_len, "wrapped", &bi) != EFI_SUCCESS)
			abort();
		if (memcmp(out + 0x1f1, bz + 0x1f1, bz_len - 0x1f1) != 0)
			abort();
		mem_free(out);
	}
}

/* The version ends within the output (its NUL) and is the input's bytes. */
static void banner_side(const uint8_t *data, size_t size)
{
	char v[16];
	size_t n;

	arm64_image_version(data, size, v, sizeof(v));
	n = strnlen(v, sizeof(v));
	if (n == sizeof(v) || (n && !memmem(data, size, v, n)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct pe_info pe;

	banner_side(data, size);

	if (pe_parse(data, size, "fuzz", &pe) == EFI_SUCCESS) {
		read_side(data, size, PE_LAYOUT_FILE, &pe);
		write_side(data, size, &pe);
	}
	if (pe_parse_loaded(data, size, "fuzz", &pe) == EFI_SUCCESS)
		read_side(data, size, PE_LAYOUT_MEMORY, &pe);
	return 0;
}
