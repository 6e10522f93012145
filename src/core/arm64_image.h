/* The arm64 kernel Image's header (Linux Documentation/arch/arm64/booting.rst):
 * the magic "ARM\x64" at offset 0x38, whatever else the file is (its PE
 * header, for the kernel's EFI stub, sits beside it). */
#ifndef CORE_ARM64_IMAGE_H
#define CORE_ARM64_IMAGE_H

#include "platform.h"

#define ARM64_IMAGE_MAGIC_OFFSET 0x38

/** arm64_image_is() - @buf (@len bytes) starts with an arm64 kernel Image header. */
static inline bool arm64_image_is(const uint8_t *buf, size_t len)
{
	return len >= ARM64_IMAGE_MAGIC_OFFSET + 4 && memcmp(buf + ARM64_IMAGE_MAGIC_OFFSET, "ARM\x64", 4) == 0;
}

#endif
