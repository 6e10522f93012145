/* Synthetic bzImages for tests: a setup area with a boot protocol header and
 * a protected-mode part, with every field settable. */
#ifndef FAKE_IMAGE_H
#define FAKE_IMAGE_H

#include <stddef.h>
#include <stdint.h>

struct fake_bz {
	uint16_t version;
	uint8_t setup_sects;
	uint16_t xloadflags;
	uint32_t kernel_alignment;
	uint8_t relocatable;
	uint64_t pref_address;
	uint32_t init_size;
	uint32_t handover_offset;
	uint32_t cmdline_size;
	uint32_t initrd_addr_max;
	size_t kernel_size;     /* protected-mode bytes */
	const char *version_string;
};

/** fake_bz_default() - a 2.15 64-bit relocatable image like Debian's. */
struct fake_bz fake_bz_default(void);
/** fake_bz_build() - malloc'd image; *ret_len its size. */
uint8_t *fake_bz_build(const struct fake_bz *f, size_t *ret_len);

#endif
