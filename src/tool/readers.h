/* The host tool's readers of bytes it did not write (entry files, the
 * kernel's command-line files, EFI variables, configuration files), apart from the files they
 * come from: pure, so tests/fuzz links them (Makefile FUZZ_TOOL_SRCS). */
#ifndef TOOL_READERS_H
#define TOOL_READERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * entry_text_refs() - the files an entry's @text (@len bytes) refers to
 * ("linux", "initrd", "efi", "devicetree" values), as paths under its
 * partition: only absolute ones without "..", so that remove never reaches
 * outside, and none from a line that is not well-formed UTF-8 or holds a NUL
 * (the loader skips such lines, conf_line.h).
 * Return: how many; *@ret is a malloc'd array of malloc'd paths (strv_free()).
 */
size_t entry_text_refs(const char *text, size_t len, char ***ret);

/**
 * text_words() - the words of @text (@len bytes, up to a NUL) separated by
 * blanks and line ends, joined by one space; words that start with @drop1 or
 * @drop2 (NULL: none) are left out (kernel-install's reading of
 * /proc/cmdline). Return: a malloc'd string, "" when there is no word.
 */
char *text_words(const char *text, size_t len, const char *drop1, const char *drop2);

/**
 * boot_order_put_first() - BootOrder (UEFI 2.10 §3.3: an array of UINT16) with
 * @num first and nowhere else, from its current value @cur (@len bytes, any
 * length: a last odd byte is dropped) into @out, which has room for @len + 2.
 * Return: bytes written to @out.
 */
size_t boot_order_put_first(const uint8_t *cur, size_t len, uint16_t num, uint8_t *out);

/**
 * count_path_relative() - LoaderBootCountPath (systemd's Boot Loader
 * Interface: the booted entry's file after the loader renamed it, from the
 * root of its partition, '\'-separated) as a relative '/'-separated path:
 * "\loader\entries\x+2-1.conf" gives "loader/entries/x+2-1.conf". The
 * value comes from a variable anyone with root could write: it must be
 * absolute, well-formed UTF-8 without control characters, with no empty,
 * "." or ".." component, at most PATH_VALUE_MAX bytes.
 * Return: a malloc'd path, or NULL with *@ret_why saying what is wrong.
 */
char *count_path_relative(const char *value, const char **ret_why);
#define PATH_VALUE_MAX 1024

/* One "key=value" line of a configuration file (handoff.conf, kernel-install's install.conf). */
struct kv_line {
	size_t line;         /* 1-based */
	char *key, *value;   /* NULL when the line is malformed */
	const char *problem; /* why it is malformed, or NULL */
};

/**
 * kv_parse() - the settings of @text (@len bytes): one "key=value" per line,
 * blanks around both trimmed, a value in matching single or double quotes
 * unquoted (kernel-install sources install.conf as shell); blank lines and
 * lines starting with '#' skipped. A line without '=', with an empty or
 * blank-holding key, a NUL, or not well-formed UTF-8 is returned with
 * @problem set. Return: how many lines; *@ret a malloc'd array (kv_free()).
 */
size_t kv_parse(const char *text, size_t len, struct kv_line **ret);
void kv_free(struct kv_line *v, size_t n);

/**
 * text_set_setting() - the configuration text @text (@len bytes; NULL for
 * none) with @key set: its first line that sets @key (blanks, @key, then a
 * blank or @sep: '=' for handoff.conf, ' ' for loader.conf) becomes @line,
 * later ones go, and without one @line is appended (@line NULL: every line
 * setting @key goes); every other line stays as it was. A last line without a line feed gets one, CRLF when the first
 * line ends so. Return: the new text (*@ret_len bytes, malloc'd).
 */
char *text_set_setting(const char *text, size_t len, const char *key, char sep, const char *line, size_t *ret_len);

#endif
