/* libFuzzer: signature lists and .auth files (src/core/siglist.c), as the
 * tool reads them from efivarfs (KEK, db for `keys create --microsoft`,
 * `status`) and from /etc/handoff/keys. Every entry lies in the input;
 * building the entries again and parsing that gives the same entries; an
 * .auth file's parts lie in it and building it again gives its very bytes. */
#include "core/siglist.h"
#include <stdlib.h>
#include <string.h>

static bool inside(const uint8_t *p, size_t n, const uint8_t *data, size_t size)
{
	return p >= data && n <= size && (size_t)(p - data) <= size - n;
}

static void check_lists(const uint8_t *data, size_t size)
{
	struct siglist_entry *e = NULL, *again = NULL;
	size_t n = 0, n2 = 0, len = 0;
	uint8_t *built = NULL;
	EFI_STATUS err;

	if (siglist_parse(data, size, "fuzz", &e, &n) != EFI_SUCCESS)
		return;
	for (size_t i = 0; i < n; i++)
		if (!inside(e[i].data, e[i].size, data, size))
			abort();
	err = siglist_build(e, n, &built, &len);
	if (err == EFI_INVALID_PARAMETER) /* one list per certificate may take more room than the input did */
		goto out;
	if (err != EFI_SUCCESS || len > SIGLIST_MAX || siglist_parse(built, len, "again", &again, &n2) != EFI_SUCCESS ||
	    n2 != n)
		abort();
	for (size_t i = 0; i < n; i++)
		if (memcmp(&again[i].type, &e[i].type, sizeof(e[i].type)) ||
		    memcmp(&again[i].owner, &e[i].owner, sizeof(e[i].owner)) || again[i].size != e[i].size ||
		    memcmp(again[i].data, e[i].data, e[i].size))
			abort();
out:
	free(again);
	free(built);
	free(e);
}

static void check_auth(const uint8_t *data, size_t size)
{
	struct siglist_auth a;
	uint8_t *built = NULL;
	size_t len = 0;

	if (siglist_auth_parse(data, size, "fuzz", &a) != EFI_SUCCESS)
		return;
	if (!inside(a.pkcs7, a.pkcs7_len, data, size) || !inside(a.data, a.data_len, data, size))
		abort();
	if (size <= SIGLIST_MAX &&
	    (siglist_auth_build(&a.time, a.pkcs7, a.pkcs7_len, a.data, a.data_len, &built, &len) != EFI_SUCCESS ||
	     len != size || memcmp(built, data, size)))
		abort();
	free(built);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check_lists(data, size);
	check_auth(data, size);
	return 0;
}
