/* PE test inputs: the real files the PE/UKI tests read (missing ones fail the
 * test, they do not skip it), a synthetic PE32+ builder, and reference
 * implementations written differently from src/core's, to check it against. */
#ifndef PE_FIXTURES_H
#define PE_FIXTURES_H

#include <stddef.h>
#include <stdint.h>

#define FIXTURE_STUB "/usr/lib/systemd/boot/efi/linuxx64.efi.stub"

/** fixture_read() - file at $@env or @path, malloc'd; NULL after a test_fail(). */
uint8_t *fixture_read(const char *env, const char *path, size_t *ret_len);
/** fixture_kernel() - Debian's kernel (HANDOFF_TEST_KERNEL, build/boot-cache/vmlinuz). */
uint8_t *fixture_kernel(size_t *ret_len);
/** fixture_stub() - systemd's linuxx64.efi.stub (HANDOFF_TEST_STUB), package systemd-boot-efi. */
uint8_t *fixture_stub(size_t *ret_len);
/** fixture_each_loader() - @fn on each unpacked loader the build links, x86-64 then IA-32 files. */
void fixture_each_loader(void (*fn)(const char *path, const uint8_t *file, size_t len));

/**
 * fixture_filter_round_trip() - a branch filter (@encode, @decode: x86_filter.h,
 * aa64_filter.h) on a copy of @src: encoding then decoding gives it back, and
 * decoding then encoding; over 1000 bytes, encoding changes something.
 * Failures name @what.
 */
void fixture_filter_round_trip(const char *what, const uint8_t *src, size_t len, void (*encode)(uint8_t *, size_t),
			       void (*decode)(uint8_t *, size_t));

struct fake_pe_section {
	const char *name;
	uint32_t vsize, raw_size, characteristics;
};

struct fake_pe {
	uint32_t pe_offset;          /* e_lfanew */
	uint32_t section_alignment, file_alignment, size_of_headers;
	uint16_t subsystem, machine;
	uint32_t n_dirs;             /* NumberOfRvaAndSizes */
	unsigned n_sections;
	struct fake_pe_section s[8];
	uint32_t cert_size;          /* > 0: a certificate table appended, directory 4 set */
};

/** fake_pe_default() - an lld-link-like EFI app: .text .rdata .data .reloc, SA 0x1000, FA 0x200. */
struct fake_pe fake_pe_default(void);
/** fake_pe_build() - malloc'd file; section data is a pattern of the section index and offset. */
uint8_t *fake_pe_build(const struct fake_pe *f, size_t *ret_len);
/** fake_pe_load() - what a loader puts in memory: headers at 0, each section at its RVA. */
uint8_t *fake_pe_load(const uint8_t *file, size_t len, size_t *ret_size);

/* Independent header reads: offsets written out from the PE/COFF spec here. */
uint32_t ref_pe_offset(const uint8_t *f);
uint32_t ref_opt(const uint8_t *f);                  /* optional header offset */
uint32_t ref_sec(const uint8_t *f, unsigned i);      /* section header i offset */
uint32_t ref_dir_rva(const uint8_t *f, unsigned i);
uint32_t ref_dir_size(const uint8_t *f, unsigned i);
/** ref_checksum() - PE checksum summed into 64 bits and folded at the end. */
uint32_t ref_checksum(const uint8_t *f, size_t len);

#endif
