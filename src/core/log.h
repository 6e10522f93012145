/* Diagnostics. Core code logs once, at the point of failure, naming the
 * object and the field; the platform decides where the line goes (the
 * firmware console in UEFI, stderr or a test's capture buffer on the host). */
#ifndef CORE_LOG_H
#define CORE_LOG_H

#include "platform.h"
#include <efi/efi.h>

enum log_level { LOG_ERROR, LOG_WARNING, LOG_INFO, LOG_DEBUG };

/** log_write() - platform hook: emit one formatted line (no trailing newline). */
void log_write(enum log_level level, const char *line);

void log_printf(enum log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * log_error_status() - log an error line and hand the status back, so a
 * failure reads `return log_error_status(err, "%s: cannot open: %m", path);`
 * (%m: the name of @status).
 * Return: @status.
 */
EFI_STATUS log_error_status(EFI_STATUS status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The unpacker (src/pack/unpack.c) is stored as it is, not compressed: the
 * src/core files it links are built with LOG_TERSE, without their lines
 * (about 1 KB), and it says one line of its own (docs/design.md "Packed
 * loaders"). */
#ifdef LOG_TERSE
#define log_error_status(status, ...) (status)
#endif

/** log_status() - a line at @level in which %m names @status (a failure the caller works around). */
void log_status(enum log_level level, EFI_STATUS status, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_error(...) log_printf(LOG_ERROR, __VA_ARGS__)
#define log_warning(...) log_printf(LOG_WARNING, __VA_ARGS__)
#define log_info(...) log_printf(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_printf(LOG_DEBUG, __VA_ARGS__)

/** efi_status_str() - the spec's name of a status code ("EFI_NOT_FOUND"). */
const char *efi_status_str(EFI_STATUS status);

#endif
