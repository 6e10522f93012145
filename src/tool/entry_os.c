/* The automatic entries for other loaders on the ESP, found as the loader
 * finds them (src/efi/entries.c load_os_entries()): the same paths
 * (bls_os_path()) and entries (bls_add_os_entries()). The loader leaves the
 * fallback loader out when it holds the same bytes as the file the loader
 * was started from; the tool, which cannot know that file, takes handoff's
 * own copy, EFI/handoff/handoff<arch>.efi, and without one the fallback
 * itself (then nothing but it starts the loader). */
#include "entry.h"
#include "core/bls.h"
#include <stdlib.h>

static bool fallback_is_handoff(const char *esp, const char *path, enum fw_arch fw)
{
	char *own = resolve_kind(esp, fw == FW_IA32 ? "EFI/handoff/handoffia32.efi" : "EFI/handoff/handoffx64.efi",
				 /* want_dir= */ false);
	uint8_t *buf = NULL;
	size_t len = 0;
	bool same = !own || (read_file(own, TOOL_READ_MAX, &buf, &len) == 0 && file_has_content(path, buf, len));

	free(buf);
	free(own);
	return same;
}

unsigned os_entries_found(const char *esp, enum fw_arch fw)
{
	unsigned found = 0;

	for (unsigned i = 0; i < BLS_OS_MAX; i++) {
		char *path = resolve_kind(esp, bls_os_path(i, fw), /* want_dir= */ false);

		if (path && (i != BLS_OS_DEFAULT || !fallback_is_handoff(esp, path, fw)))
			found |= 1u << i;
		free(path);
	}
	return found;
}
