/* libFuzzer: loader/entries.list (src/core/net_list.c), the one file a
 * network boot server lists its entries and pins in. Besides memory safety,
 * checks what the parser promises: every path kept is normalized (no leading
 * '/', no '\\', no empty, "." or ".." component, no control character) and one
 * word (no blank, no '#'), a line without a pin names an entry file, a
 * directory listing gives plain names, a pin is found under its own path. */
#include "core/net_list.h"
#include <stdlib.h>
#include <string.h>

static void check_path(const char *p)
{
	size_t n = strlen(p);

	if (n == 0 || p[0] == '/' || p[n - 1] == '/' || strstr(p, "//") || strchr(p, '\\'))
		__builtin_trap();
	for (const char *c = p; *c; c++)
		if ((unsigned char)*c <= ' ' || *c == 0x7f || *c == '#')
			__builtin_trap();
	for (const char *c = p; c; c = strchr(c, '/'), c = c ? c + 1 : NULL)
		if ((c[0] == '.' && (c[1] == '/' || !c[1])) || (c[0] == '.' && c[1] == '.' && (c[2] == '/' || !c[2])))
			__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct net_list l;
	size_t cursor = 0;
	const char *name;

	if (net_list_parse((const char *)data, size, "fuzz.list", &l) != EFI_SUCCESS)
		return 0;
	if (l.n_errors > size)
		__builtin_trap();
	for (size_t i = 0; i < l.n; i++) {
		check_path(l.items[i].path);
		if (l.items[i].pinned && !net_list_pin(&l, l.items[i].path))
			__builtin_trap();
		if (!l.items[i].pinned && !net_list_entry_file(l.items[i].path))
			__builtin_trap();
		if (!net_list_vouches(&l, l.items[i].path))
			__builtin_trap();
	}
	while ((name = net_list_next_in(&l, "loader/entries", &cursor)))
		if (!*name || strchr(name, '/'))
			__builtin_trap();
	if (!net_list_has_dir(&l, ""))
		__builtin_trap();
	net_list_free(&l);
	return 0;
}
