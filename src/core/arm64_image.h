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

/**
 * arm64_image_version() - the kernel's version string, from the first
 * "Linux version " in @buf (@len bytes: an uncompressed Image holds the
 * kernel's banner, init/version.c's linux_banner; its header has no pointer
 * to it, unlike a bzImage's kernel_version): the bytes after it up to a NUL
 * or a line feed, at most @size - 1 of them, into @ret, NUL-terminated; ""
 * when there is none. @size > 0.
 */
void arm64_image_version(const uint8_t *buf, size_t len, char *ret, size_t size);

#endif
