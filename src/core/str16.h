/* UTF-8 <-> UTF-16 strings (UEFI 2.10 §2.3.1: CHAR16 strings; Unicode 15.0
 * §3.9 for the encoding forms). One strict UTF-8 decoder, utf8_decode(), is
 * behind every conversion and every "is this text" check. */
#ifndef CORE_STR16_H
#define CORE_STR16_H

#include "platform.h"
#include <efi/efi.h>

/* What stands for text that cannot be decoded (Unicode 15.0 §3.9, U+FFFD). */
#define UNICODE_REPLACEMENT 0xfffdu
/* The longest UTF-8 sequence, in bytes. */
#define UTF8_MAX 4

/**
 * utf8_decode() - the well-formed UTF-8 sequence at @s (at most @n bytes):
 * Unicode 15.0 Table 3-7, so no overlong form, no surrogate (U+D800..DFFF),
 * nothing above U+10FFFF, no truncated sequence and no stray continuation
 * byte. Reads no byte after the first one that is not a continuation byte.
 * Return: its length (1..4) with *@ret_cp set, or 0 when it is ill-formed.
 */
size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *ret_cp);

/** utf8_encode() - @cp (<= U+10FFFF, no surrogate) as UTF-8 into @out (UTF8_MAX bytes). Return: its length. */
size_t utf8_encode(uint32_t cp, char *out);

/**
 * utf8_check() - whether @s[0..@n) is well-formed UTF-8 (utf8_decode()).
 * Return: true, or false with *@ret_offset where the first ill-formed sequence starts.
 */
bool utf8_check(const char *s, size_t n, size_t *ret_offset);

/* Room for utf8_problem()'s text. */
#define UTF8_PROBLEM_MAX 64
/**
 * utf8_problem() - the one wording of ill-formed text, for every reader
 * (entry files, loader.conf, os-release, command lines).
 * Return: NULL when @s[0..@n) is well-formed UTF-8, else @buf holding
 * "invalid UTF-8 at byte offset N (0xXX)": where the first ill-formed
 * sequence starts, and its first byte.
 */
const char *utf8_problem(const char *s, size_t n, char buf[UTF8_PROBLEM_MAX]);

/** utf8_next() - decode one code point at *@p (NUL-terminated) and advance; an ill-formed byte gives U+FFFD. */
uint32_t utf8_next(const char **p);

/**
 * str8_to_16() - UTF-8 to a new UTF-16 string ('/' -> '\\' when @path): code
 * points above U+FFFF as surrogate pairs, each ill-formed byte as U+FFFD.
 * Return: NULL when out of memory.
 */
CHAR16 *str8_to_16(const char *s, bool path);

/**
 * str16le_to_8() - UTF-16LE at @s (unaligned; at most @max units, stops at a
 * NUL) to a new UTF-8 string: surrogate pairs combined, a lone surrogate as
 * U+FFFD, so the result is always well-formed UTF-8. NULL when out of memory.
 */
char *str16le_to_8(const uint8_t *s, size_t max);

/** str16_to_8() - str16le_to_8() of a CHAR16 string. */
char *str16_to_8(const CHAR16 *s, size_t max);

/** strlen16() - CHAR16s before the NUL. */
size_t strlen16(const CHAR16 *s);
/** str8_has_suffix_ci() - does @s end in @suffix, ASCII letters in any case? */
bool str8_has_suffix_ci(const char *s, const char *suffix);

#endif
