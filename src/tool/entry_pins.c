/* The pins of a network boot tree (loader/entries.list, README "Network
 * boot") as `entry list` shows them: which of an entry's files are pinned,
 * and a pin the file no longer matches, which the loader would refuse. The
 * list is parsed and paths compared by the loader's own code (net_list.c). */
#include "entry.h"
#include "core/array.h"
#include "core/net_list.h"
#include "core/netboot.h"
#include <stdlib.h>
#include <string.h>

struct net_list *entry_pins_load(const char *esp)
{
	char *path = path_join(esp, "loader/entries.list");
	struct net_list *l = NULL;
	uint8_t *text = NULL;
	size_t len = 0;

	if (read_file_opt(path, 1u << 20, &text, &len) == 0 && text) {
		l = xmalloc(sizeof(*l));
		if (net_list_parse((const char *)text, len, "loader/entries.list", l) != EFI_SUCCESS) {
			free(l);
			l = NULL;
		}
	}
	free(text);
	free(path);
	return l;
}

void entry_pins_free(struct net_list *l)
{
	if (l)
		net_list_free(l);
	free(l);
}

void entry_pins_check(const struct net_list *l, const char *esp, const char *ref, char ***pinned, size_t *n)
{
	char *norm = NULL, *file;
	const uint8_t *pin;
	uint8_t digest[SHA256_DIGEST_SIZE], *data;
	size_t len;

	if (!l || !ref || net_path_normalize(ref, &norm) != EFI_SUCCESS || !(pin = net_list_pin(l, norm))) {
		free(norm);
		return;
	}
	file = resolve_kind(esp, norm, /* want_dir= */ false);
	if (file && read_file(file, TOOL_READ_MAX, &data, &len) == 0) {
		sha256(data, len, digest);
		if (memcmp(digest, pin, sizeof(digest)) != 0)
			log_error("%s: its sha256 pin in loader/entries.list does not match the file: "
				  "a network boot refuses it (handoff entry add --pin pins it again)", ref);
		free(data);
	}
	free(file);
	array_append(pinned, n, sizeof(char *), &norm);
}
