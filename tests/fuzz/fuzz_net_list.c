/* libFuzzer: loader/entries.list (src/core/net_list.c), the one file a
 * network boot server lists its entries and pins in. Besides memory safety,
 * checks what the parser promises: every path kept is normalized (no leading
 * '/', no '\\', no empty, "." or ".." component, no control character) and one
 * word (no blank, no '#'), a line without a pin names an entry file, a
 * directory listing gives plain names, a pin is found under its own path, a
 * host line names a MAC address (6 bytes) and is found by it. The
 * input's second half, after a NUL, is read as the machine's list: entry
 * lines replaced, no host line added. */
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

static size_t count_hosts(const struct net_list *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct net_list_item *it = &l->items[i];

		if (it->host_len && it->host_len != 6)
			__builtin_trap();
		if (it->host_len && (it->pinned || net_list_host(l, it->host) == NULL))
			__builtin_trap();
		n += it->host_len != 0;
	}
	return n;
}

/* The machine's list (after the first NUL) read into @l: the entries are
 * the host list's alone (none if it has none), no host line comes. */
static void check_host_list(struct net_list *l, const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	const char *text = nul ? (const char *)nul + 1 : "";
	size_t hosts = count_hosts(l), cursor = 0, len = nul ? size - (size_t)(nul + 1 - data) : 0;

	if (net_list_parse_host(text, len, "host.list", l) != EFI_SUCCESS)
		return;
	if (count_hosts(l) != hosts || !l->hosted)
		__builtin_trap();
	if (!nul && net_list_next_in(l, "loader/entries", &cursor))
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
		if (!l.items[i].pinned && !l.items[i].host_len && !net_list_entry_file(l.items[i].path))
			__builtin_trap();
		if (!net_list_vouches(&l, l.items[i].path))
			__builtin_trap();
	}
	while ((name = net_list_next_in(&l, "loader/entries", &cursor)))
		if (!*name || strchr(name, '/'))
			__builtin_trap();
	if (!net_list_has_dir(&l, ""))
		__builtin_trap();
	check_host_list(&l, data, size);
	net_list_free(&l);
	return 0;
}
