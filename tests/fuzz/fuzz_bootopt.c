/* libFuzzer: Boot#### load options as reboot-for-bitlocker reads them from
 * variables (src/core/bootopt.c, UEFI 2.10 §3.1.3). The input is the
 * variable, in a buffer of exactly its size (ASan sees a read past it).
 * Parsed, its parts lie end to end and fill it exactly: the Description up
 * to its first NUL on a CHAR16 boundary, then FilePathListLength bytes, then
 * the optional data. bootopt_boots_file() never reads outside the list and
 * answers the same for a path spelt in another case and with the other
 * slash; a match is a file path node ending with that name. The BitLocker
 * check reads no more than it is given. */
#include "core/bls.h"
#include "core/bootopt.h"
#include <stdlib.h>

static void check_parsed(const uint8_t *buf, size_t len, const struct boot_option *o)
{
	const uint8_t *end = buf + len;

	if (o->description != buf + 6 || o->description_size % 2 ||
	    o->file_path_list != o->description + o->description_size + 2 ||
	    o->file_path_list_size != get_le16(buf + 4) ||
	    o->optional_data != o->file_path_list + o->file_path_list_size ||
	    o->optional_data + o->optional_data_size != end || get_le16(o->file_path_list - 2) != 0)
		abort();
	for (size_t i = 0; i < o->description_size; i += 2)
		if (get_le16(o->description + i) == 0)
			abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size ? size : 1);
	struct boot_option o;

	memcpy(buf, data, size);
	(void)bootopt_bitlocker(buf, size);
	if (bootopt_parse(buf, size, &o) == EFI_SUCCESS) {
		bool win, shell;

		check_parsed(buf, size, &o);
		win = bootopt_boots_file(&o, BLS_WINDOWS_PATH);
		shell = bootopt_boots_file(&o, "/shellx64.efi");
		if (win && shell)
			abort(); /* one file node, one name */
		if (win != bootopt_boots_file(&o, "\\efi\\MICROSOFT\\boot\\BootMgFw.EFI"))
			abort();
		if (win && o.file_path_list_size < 4 + 2 * (sizeof(BLS_WINDOWS_PATH) - 1) + 4)
			abort(); /* the name's 32 characters must have been there */
	}
	free(buf);
	return 0;
}
