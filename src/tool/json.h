/* A tiny JSON writer: objects, arrays, strings (escaped, always valid UTF-8
 * out whatever bytes come in), integers, booleans, null; pretty-printed with
 * two-space indentation. Keys are NULL inside arrays and at the top level. */
#ifndef TOOL_JSON_H
#define TOOL_JSON_H

#include "tool.h"

#define JSON_MAX_DEPTH 16

struct json {
	struct strbuf *out;
	int depth;
	bool has_items[JSON_MAX_DEPTH];
};

void json_init(struct json *j, struct strbuf *out);
void json_obj_begin(struct json *j, const char *key);
void json_obj_end(struct json *j);
void json_arr_begin(struct json *j, const char *key);
void json_arr_end(struct json *j);
void json_str(struct json *j, const char *key, const char *s);
/** json_strn() - @n bytes of @s (may hold NULs or invalid UTF-8: replaced by U+FFFD). */
void json_strn(struct json *j, const char *key, const char *s, size_t n);
void json_uint(struct json *j, const char *key, uint64_t v);
void json_bool(struct json *j, const char *key, bool v);
void json_null(struct json *j, const char *key);

#endif
