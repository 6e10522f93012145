/* The line syntax shared by loader.conf and Boot Loader Specification Type #1
 * entries (UAPI.1 "Type #1 Boot Loader Specification Entries"): UTF-8 text,
 * "key value" lines, '#' comments, blank lines ignored. As systemd-boot, a
 * leading UTF-8 BOM and CRLF line ends are accepted. A malformed line is
 * logged as "<path>:<line>: <reason>", counted and skipped; the rest counts. */
#ifndef CORE_CONF_LINE_H
#define CORE_CONF_LINE_H

#include "platform.h"

/* Longest line accepted, in bytes without the line end. */
#define CONF_LINE_MAX 4096u

struct conf_reader {
	const char *text;
	size_t len;
	size_t pos;          /* start of the next line */
	unsigned line;       /* 1-based number of the line last read */
	const char *path;    /* for messages */
	unsigned n_errors;   /* malformed lines seen so far */
	const char *watch_key;    /* set by the caller: a key whose rejected lines it must know of ... */
	bool watch_key_rejected;  /* ... one was: too long, a NUL, not UTF-8 or no value (conf_next()) */
};

/* One "key value" line; key and value point into the text (not NUL-terminated). */
struct conf_kv {
	const char *key;
	size_t key_len;
	const char *value;   /* surrounding whitespace trimmed; never empty */
	size_t value_len;
	unsigned line;
};

/** conf_reader_init() - start reading @text (@len bytes) named @path; skips a UTF-8 BOM. */
void conf_reader_init(struct conf_reader *r, const char *text, size_t len, const char *path);

/**
 * conf_next() - the next "key value" line. Comments and blank lines are
 * skipped; a line that is too long, holds a NUL byte, is not well-formed UTF-8
 * (utf8_check(): the byte offset in the line is named) or has a key without a
 * value is logged, counted in @r->n_errors and skipped; when it starts with
 * @r->watch_key as its key, @r->watch_key_rejected is set (a key that must
 * fail closed: loader.conf's editor-password).
 * Return: true with *@ret filled, false at the end of the text.
 */
bool conf_next(struct conf_reader *r, struct conf_kv *ret);

/**
 * conf_line_error() - log "<path>:<line>: <reason>" as an error and count it
 * in @r->n_errors: for lines the caller finds malformed (bad value).
 */
void conf_line_error(struct conf_reader *r, const struct conf_kv *kv, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** conf_key_is() - the line's key is exactly @name (case-sensitive, as systemd-boot). */
bool conf_key_is(const struct conf_kv *kv, const char *name);

/** conf_value_is() - the value equals @s, ASCII case-insensitively. */
bool conf_value_is(const struct conf_kv *kv, const char *s);

/** conf_strndup() - @s[0..@n) as a new NUL-terminated string; NULL when out of memory. */
char *conf_strndup(const char *s, size_t n);

/** conf_parse_bool() - yes/y/true/t/on/1 or no/n/false/f/off/0 (any case). Return: false if none. */
bool conf_parse_bool(const struct conf_kv *kv, bool *ret);

/**
 * conf_parse_uint() - a decimal number of ASCII digits only (no sign, no
 * spaces), at most @max. Return: false when not a number or above @max.
 */
bool conf_parse_uint(const struct conf_kv *kv, uint64_t max, uint64_t *ret);

#endif
