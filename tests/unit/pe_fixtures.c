#include "pe_fixtures.h"
#include "test.h"
#include "core/platform.h"
#include <stdlib.h>

uint8_t *fixture_read(const char *env, const char *path, size_t *ret_len)
{
	const char *p = env && getenv(env) ? getenv(env) : path;
	uint8_t *buf = test_read_file(p, ret_len);

	if (!buf)
		test_fail(__FILE__, __LINE__, "cannot read test input %s", p);
	return buf;
}

uint8_t *fixture_kernel(size_t *ret_len)
{
	return fixture_read("HANDOFF_TEST_KERNEL", "build/boot-cache/vmlinuz", ret_len);
}

uint8_t *fixture_stub(size_t *ret_len)
{
	return fixture_read("HANDOFF_TEST_STUB", FIXTURE_STUB, ret_len);
}

void fixture_each_loader(void (*fn)(const char *path, const uint8_t *file, size_t len))
{
	static const char *const loaders[][2] = {
		{ "HANDOFF_TEST_LOADER_IMAGE", "build/efi/handoff-image.efi" },
		{ "HANDOFF_TEST_LOADER32_IMAGE", "build/efi32/handoffia32-image.efi" },
	};

	for (size_t i = 0; i < sizeof(loaders) / sizeof(loaders[0]); i++) {
		size_t len;
		uint8_t *f = fixture_read(loaders[i][0], loaders[i][1], &len);

		if (f)
			fn(loaders[i][1], f, len);
		free(f);
	}
}

void fixture_filter_round_trip(const char *what, const uint8_t *src, size_t len, void (*encode)(uint8_t *, size_t),
			       void (*decode)(uint8_t *, size_t))
{
	uint8_t *p = malloc(len ? len : 1);
	size_t changed = 0;

	memcpy(p, src, len);
	encode(p, len);
	for (size_t i = 0; i < len; i++)
		changed += p[i] != src[i];
	decode(p, len);
	if (memcmp(p, src, len) != 0)
		test_fail(__FILE__, __LINE__, "%s: not decoded back", what);
	if (len > 1000 && !changed)
		test_fail(__FILE__, __LINE__, "%s: nothing rewritten", what);
	decode(p, len);
	encode(p, len);
	if (memcmp(p, src, len) != 0)
		test_fail(__FILE__, __LINE__, "%s: decode then encode is not the identity", what);
	free(p);
}

struct fake_pe fake_pe_default(void)
{
	return (struct fake_pe){
		.pe_offset = 0x80, .section_alignment = 0x1000, .file_alignment = 0x200, .size_of_headers = 0x400,
		.subsystem = 10, .machine = 0x8664, .n_dirs = 16, .n_sections = 4,
		.s = {
			{ ".text", 0x1234, 0x1400, 0x60000020 },
			{ ".rdata", 0x300, 0x400, 0x40000040 },
			{ ".data", 0x2000, 0x200, 0xc0000040 },
			{ ".reloc", 0x20, 0x200, 0x42000040 },
		},
	};
}

uint8_t *fake_pe_build(const struct fake_pe *f, size_t *ret_len)
{
	size_t len = f->size_of_headers, raw = f->size_of_headers;
	uint32_t va = (f->size_of_headers + f->section_alignment - 1) & ~(f->section_alignment - 1);
	uint32_t coff = f->pe_offset + 4, opt = coff + 20, sec = opt + 112 + 8 * f->n_dirs;
	uint8_t *b;

	for (unsigned i = 0; i < f->n_sections; i++)
		len += f->s[i].raw_size;
	b = calloc(1, len + f->cert_size);
	b[0] = 'M';
	b[1] = 'Z';
	put_le32(b + 0x3c, f->pe_offset);
	memcpy(b + f->pe_offset, "PE\0\0", 4);
	put_le16(b + coff, f->machine);
	put_le16(b + coff + 2, (uint16_t)f->n_sections);
	put_le16(b + coff + 16, (uint16_t)(112 + 8 * f->n_dirs));
	put_le16(b + coff + 18, 0x22);
	put_le16(b + opt, 0x20b);
	put_le32(b + opt + 16, va);
	put_le32(b + opt + 32, f->section_alignment);
	put_le32(b + opt + 36, f->file_alignment);
	put_le32(b + opt + 60, f->size_of_headers);
	put_le16(b + opt + 68, f->subsystem);
	put_le32(b + opt + 108, f->n_dirs);
	for (unsigned i = 0; i < f->n_sections; i++) {
		uint8_t *h = b + sec + 40 * i;
		uint32_t span = f->s[i].vsize > f->s[i].raw_size ? f->s[i].vsize : f->s[i].raw_size;

		memcpy(h, f->s[i].name, strlen(f->s[i].name));
		put_le32(h + 8, f->s[i].vsize);
		put_le32(h + 12, va);
		put_le32(h + 16, f->s[i].raw_size);
		put_le32(h + 20, f->s[i].raw_size ? (uint32_t)raw : 0);
		put_le32(h + 36, f->s[i].characteristics);
		for (uint32_t j = 0; j < f->s[i].raw_size; j++)
			b[raw + j] = (uint8_t)(i * 0x40 + j * 13 + 1);
		if (strcmp(f->s[i].name, ".reloc") == 0 && f->n_dirs > 5) {
			put_le32(b + opt + 112 + 5 * 8, va);
			put_le32(b + opt + 112 + 5 * 8 + 4, f->s[i].vsize);
		}
		raw += f->s[i].raw_size;
		va += (span + f->section_alignment - 1) & ~(f->section_alignment - 1);
	}
	put_le32(b + opt + 56, va);
	if (f->cert_size && f->n_dirs > 4) {
		put_le32(b + opt + 112 + 4 * 8, (uint32_t)len);
		put_le32(b + opt + 112 + 4 * 8 + 4, f->cert_size);
		memset(b + len, 0xce, f->cert_size);
	}
	*ret_len = len + f->cert_size;
	return b;
}

uint32_t ref_pe_offset(const uint8_t *f) { return get_le32(f + 0x3c); }
uint32_t ref_opt(const uint8_t *f) { return ref_pe_offset(f) + 24; }
uint32_t ref_sec(const uint8_t *f, unsigned i)
{
	return ref_opt(f) + get_le16(f + ref_pe_offset(f) + 4 + 16) + 40 * i;
}
uint32_t ref_dir_rva(const uint8_t *f, unsigned i) { return get_le32(f + ref_opt(f) + 112 + 8 * i); }
uint32_t ref_dir_size(const uint8_t *f, unsigned i) { return get_le32(f + ref_opt(f) + 112 + 8 * i + 4); }

uint8_t *fake_pe_load(const uint8_t *file, size_t len, size_t *ret_size)
{
	uint32_t size = get_le32(file + ref_opt(file) + 56), hdrs = get_le32(file + ref_opt(file) + 60);
	unsigned n = get_le16(file + ref_pe_offset(file) + 6);
	uint8_t *m = calloc(1, size);

	memcpy(m, file, hdrs < len ? hdrs : len);
	for (unsigned i = 0; i < n; i++) {
		const uint8_t *h = file + ref_sec(file, i);
		uint32_t vsize = get_le32(h + 8), va = get_le32(h + 12), raw_size = get_le32(h + 16),
			 raw = get_le32(h + 20);
		memcpy(m + va, file + raw, raw_size < vsize || !vsize ? raw_size : vsize);
	}
	*ret_size = size;
	return m;
}

uint32_t ref_checksum(const uint8_t *f, size_t len)
{
	uint32_t field = ref_opt(f) + 64;
	uint64_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint64_t)f[i] + ((uint64_t)f[i + 1] << 8);
	if (len & 1)
		sum += f[len - 1];
	/* take the stored CheckSum back out: its two words were added above */
	sum -= get_le16(f + field);
	sum -= get_le16(f + field + 2);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint32_t)sum + (uint32_t)len;
}
