/* Kernel command-line handling shared by the loader and the stub. */
#ifndef CORE_CMDLINE_H
#define CORE_CMDLINE_H

#include "platform.h"
#include <efi/efi.h>

/**
 * cmdline_initrd_paths() - the value of every "initrd=" option, in order,
 * with the kernel's quoting rules (a double-quoted part may hold spaces).
 * Free the result with strv_free() (array.h).
 * Return: EFI_SUCCESS (*ret_n may be 0) or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS cmdline_initrd_paths(const char *cmdline, char ***ret, size_t *ret_n);
/**
 * cmdline_from_section() - a command line from embedded bytes (".cmdline"):
 * stops at NUL, drops trailing whitespace/newlines. Allocated.
 */
char *cmdline_from_section(const uint8_t *data, size_t size);

#endif
