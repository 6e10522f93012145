/* EFI_GUID as text (UEFI 2.10 Appendix A: "8-4-4-4-12", the first three
 * fields stored little-endian). */
#ifndef CORE_GUID_H
#define CORE_GUID_H

#include "platform.h"
#include <efi/efi.h>

#define GUID_STRING_SIZE 37

/** guid_format() - @g as lowercase "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx". */
void guid_format(const EFI_GUID *g, char out[GUID_STRING_SIZE]);
/**
 * guid_parse() - the @len bytes of @s (not NUL-terminated) as a GUID in that
 * form, hex digits in either case. Return: false (*@ret untouched) unless
 * @s is exactly such a GUID.
 */
bool guid_parse(const char *s, size_t len, EFI_GUID *ret);

#endif
