/* os-release parser (freedesktop os-release(5), the format of a UKI's .osrel
 * section) and the minimal os-release `handoff uki` writes when none is given. */
#ifndef CORE_OSREL_H
#define CORE_OSREL_H

#include "platform.h"
#include <efi/efi.h>

/* The fields handoff shows or sorts by; each is a mem_alloc'd UTF-8 string,
 * or NULL when the text does not set it. */
struct osrel {
	char *pretty_name;   /* PRETTY_NAME */
	char *name;          /* NAME */
	char *id;            /* ID */
	char *version_id;    /* VERSION_ID */
	char *version;       /* VERSION */
	char *image_id;      /* IMAGE_ID */
	char *image_version; /* IMAGE_VERSION */
	char *build_id;      /* BUILD_ID */
	char *title;         /* TITLE: a UKI's .profile, read with the same syntax (UAPI.5) */
	unsigned n_bad_lines; /* malformed lines skipped (each logged as a warning) */
};

/**
 * osrel_parse() - parse os-release text.
 * @text, @len: the text (a NUL byte ends it early: sections may be padded);
 * @name: used in messages, which read "<name>:<line>: ...".
 *
 * Lines are KEY=VALUE, blank, or comments ('#' first). VALUE is a shell word:
 * unquoted, "double-quoted" (where \" \\ \$ \` are escapes and any other
 * backslash is kept) or 'single-quoted' (no escapes), and such pieces may be
 * concatenated; a backslash outside quotes escapes the next character.
 * Malformed lines (not well-formed UTF-8, no '=', bad key, unterminated quote,
 * unescaped blank inside the value) are logged as warnings and skipped. A
 * later assignment wins.
 *
 * Return: EFI_SUCCESS (even with skipped lines), or EFI_OUT_OF_RESOURCES.
 * Free *@ret with osrel_free(), also after a failure.
 */
EFI_STATUS osrel_parse(const char *text, size_t len, const char *name, struct osrel *ret);

/** osrel_free() - free the strings of @o and reset it (safe on a zeroed struct). */
void osrel_free(struct osrel *o);

/**
 * uname_from_kernel_version() - the release part of a bzImage kernel_version
 * string: its first blank-separated word ("6.1.0-57-amd64 (debian-kernel@...)
 * #1 SMP ..." gives "6.1.0-57-amd64").
 * Return: a mem_alloc'd string, or NULL when @kver has no word, the word is
 * not well-formed UTF-8, or memory is out.
 */
char *uname_from_kernel_version(const char *kver);

/**
 * osrel_default() - the os-release `handoff uki` writes without --os-release:
 * NAME="Linux", ID=linux, PRETTY_NAME="Linux <uname>", VERSION_ID="<uname>"
 * (the last two without the version when @kver has no word).
 * Return: a mem_alloc'd NUL-terminated text, or NULL when out of memory.
 */
char *osrel_default(const char *kver);

#endif
