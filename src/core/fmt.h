/* printf-style formatting into a buffer, the same code on host and in UEFI.
 * Supports %d %i %u %x %X %o %p %s %c %%, flags "-0+ #", width, precision,
 * '*', and the length modifiers hh h l ll z j t; %m names an EFI_STATUS
 * (fmt_vsnprintf_status(), log_error_status()), as systemd's %m names errno. */
#ifndef CORE_FMT_H
#define CORE_FMT_H

#include "platform.h"
#include <efi/efi.h>

/**
 * fmt_vsnprintf() - format into buf, always NUL-terminated when size > 0.
 * Return: the length the full output would have had (as C99 vsnprintf).
 */
size_t fmt_vsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
/** fmt_vsnprintf_status() - fmt_vsnprintf() where %m is efi_status_str(@status). */
size_t fmt_vsnprintf_status(char *buf, size_t size, EFI_STATUS status, const char *fmt, va_list ap);
size_t fmt_snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/** fmt_asprintf() - format into a new mem_alloc() buffer; NULL when out of memory. */
char *fmt_asprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
