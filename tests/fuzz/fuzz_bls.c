/* libFuzzer: BLS entry parsing, sorting, default selection, version compare.
 * The input is split at the first two NUL bytes into: an entry, a glob, and
 * two version strings (the second half of the rest). */
#include "core/bls.h"
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bls_entry a, b, *v[2];
	char *copy = malloc(size + 1);
	size_t n = 0;

	memcpy(copy, data, size);
	copy[size] = '\0';
	if (bls_parse_entry(copy, size, "a.conf", "a.conf", &a) == EFI_SUCCESS) {
		if (bls_parse_entry(copy, size, "b-1.2~rc.conf", "b.conf", &b) == EFI_SUCCESS) {
			v[n++] = &b;
		}
		v[n++] = &a;
		bls_sort(v, n);
		bls_find_default(v, n, copy);
		free(bls_display_title(v[0]));
		for (size_t i = 0; i < n; i++)
			bls_entry_free(v[i]);
	}
	bls_version_cmp(copy, copy + size / 2);
	glob_match(copy, copy + size / 2);
	free(copy);
	return 0;
}
