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

/**
 * cmdline_for_stub() - the command line an image with an embedded .cmdline
 * (@section, NULL when it has none) uses when started with @load_options:
 * those override the section only with Secure Boot off, since the signed
 * image decides otherwise; without either, "". Allocated; NULL only when out
 * of memory. @load_options is UTF-16 of @load_options_size bytes, unaligned,
 * possibly odd-sized or without a NUL; the line taken from it ends at a NUL or
 * a line feed, as Linux's EFI stub reads LoadOptions, and is well-formed UTF-8
 * (str16le_to_8()). A .cmdline is taken as it is (cmdline_from_section()).
 */
char *cmdline_for_stub(const uint8_t *load_options, size_t load_options_size, const uint8_t *section,
		       size_t section_size, bool secure_boot);
/**
 * cmdline_stub_takes_load_options() - whether cmdline_for_stub() uses the
 * LoadOptions rather than the section: they hold a line, and there is no
 * section or Secure Boot is off. The stub then measures that line into PCR 12
 * as systemd-stub does.
 */
bool cmdline_stub_takes_load_options(const uint8_t *load_options, size_t load_options_size, bool has_section,
				     bool secure_boot);


/* The command line in the forms the schemes hand over, made together from the
 * same checked bytes, so that what is measured is what the kernel reads. */
struct cmdline_forms {
	const char *utf8;   /* the line itself (not a copy): cmd_line_ptr for handover and legacy */
	size_t utf8_len;    /* bytes before its NUL */
	CHAR16 *utf16;      /* UTF-16 with a NUL: the stub scheme's LoadOptions, measured into PCR 9 and 12 */
	size_t utf16_size;  /* bytes, the NUL included */
};

/**
 * cmdline_check() - @s[0..@n) can be a kernel command line: well-formed UTF-8
 * (utf8_check()) without a line feed, where Linux's EFI stub would end its
 * LoadOptions (libstub efi_convert_cmdline()) while the kernel's own parser
 * reads on. Logged as "@what: ... at byte offset N".
 * Return: EFI_SUCCESS or EFI_INVALID_PARAMETER.
 */
EFI_STATUS cmdline_check(const char *s, size_t n, const char *what);

/**
 * cmdline_forms_make() - the one place where a command line becomes what the
 * kernel is handed (UTF-8 bytes, or UTF-16 LoadOptions) and what is measured
 * (that UTF-16 with its NUL), for every scheme; a line cmdline_check() refuses
 * gives no forms at all. Free with cmdline_forms_free(), also after a failure.
 * Return: EFI_SUCCESS, EFI_INVALID_PARAMETER or EFI_OUT_OF_RESOURCES (logged).
 */
EFI_STATUS cmdline_forms_make(const char *cmdline, struct cmdline_forms *ret);
void cmdline_forms_free(struct cmdline_forms *f);

/* What cmdline_kernel_flags() reports. */
enum {
	CMDLINE_DISABLE_MTRR_TRIM = 1 << 0, /* "disable_mtrr_trim" */
	CMDLINE_EFI_NORUNTIME = 1 << 1,     /* "efi=noruntime" or "noefi": no EFI runtime services */
};

/**
 * cmdline_kernel_flags() - which of the CMDLINE_* settings Linux takes from
 * @cmdline, parsing it as the kernel does: '-' and '_' alike in a name,
 * nothing after "--" (kernel/params.c parse_args()); "efi=" is a comma list
 * in which "runtime" undoes "noruntime", and a later "efi=" an earlier one
 * (drivers/firmware/efi/efi.c parse_efi_cmdline()).
 * Return: a mask of CMDLINE_* (the ones found before memory ran out).
 */
unsigned cmdline_kernel_flags(const char *cmdline);

#endif
