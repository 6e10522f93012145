/* UTF-8 <-> UCS-2 strings (UEFI 2.10 §2.3.1: CHAR16 is UCS-2). */
#ifndef CORE_STR16_H
#define CORE_STR16_H

#include "platform.h"
#include <efi/efi.h>

/** str8_to_16() - UTF-8 to a new UCS-2 string ('/' -> '\\' when @path). NULL when out of memory. */
CHAR16 *str8_to_16(const char *s, bool path);
/** str16_to_8() - UCS-2 (at most @max chars, stops at NUL) to a new UTF-8 string. */
char *str16_to_8(const CHAR16 *s, size_t max);
/** strlen16() - CHAR16s before the NUL. */
size_t strlen16(const CHAR16 *s);
/** utf8_next() - decode one code point at *@p and advance; invalid bytes give U+FFFD. */
uint32_t utf8_next(const char **p);

#endif
