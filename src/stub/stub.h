/* handoff's EFI stub: the image side. A PE file (a UKI, or a bzImage wrapped
 * by `handoff wrap`) whose sections carry a kernel and what it needs. */
#ifndef STUB_H
#define STUB_H

#include "efi/boot.h"

struct blob {
	const uint8_t *data;
	size_t size;
};

struct stub_sections {
	struct blob linux;    /* the kernel (from .linux, or reassembled from .bzimage) */
	bool wrapped;         /* .bzimage: the kernel's PE header is this stub's own */
	struct blob initrd;
	struct blob cmdline;
	bool has_cmdline;
};

/** stub_find_sections() - locate the sections in the loaded image (by RVA). */
EFI_STATUS stub_find_sections(const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_sections *ret);

#endif
