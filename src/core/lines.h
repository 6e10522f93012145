/* "key value" configuration lines, as loader.conf and BLS entries use them:
 * '#' comments, blank lines, CRLF or LF, an optional UTF-8 BOM, the key up to
 * the first blank, the value trimmed. Shared by config.c and bls.c. */
#ifndef CORE_LINES_H
#define CORE_LINES_H

#include "platform.h"
#include <efi/efi.h>

#define LINE_MAX_LEN 4096

struct kv_line {
	unsigned number;     /* 1-based */
	const char *key;     /* not NUL-terminated */
	size_t key_len;
	const char *value;
	size_t value_len;
};

/* Return false to record the line as malformed (the callback logs why). */
typedef bool (*kv_line_fn)(void *ctx, const struct kv_line *line);

/**
 * kv_parse() - call @fn for each key/value line of @text. Lines that are too
 * long, contain NUL bytes or have a key but no value are logged as
 * "<path>:<line>: ..." and skipped. Return: the number of malformed lines.
 */
unsigned kv_parse(const char *text, size_t len, const char *path, kv_line_fn fn, void *ctx);

/** kv_key_is() - the line's key equals @key. */
bool kv_key_is(const struct kv_line *l, const char *key);
/** kv_value_dup() - the value as a new NUL-terminated string (NULL: out of memory). */
char *kv_value_dup(const struct kv_line *l);
/** kv_value_bool() - yes/no/true/false/on/off/1/0. */
bool kv_value_bool(const struct kv_line *l, bool *ret);

#endif
