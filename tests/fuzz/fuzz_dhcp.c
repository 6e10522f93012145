/* libFuzzer: the boot file and server of a DHCP answer (src/core/dhcp.c),
 * bytes from the network kept by the PXE base code. Checks: options are read
 * inside the message only (ASan), the file name is NUL-terminated, at most
 * DHCP_FILE_MAX bytes and, when the answer is taken, not empty, without a
 * control character, with a server address. */
#include "core/dhcp.h"
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dhcp_boot b;
	bool ok = dhcp_boot_parse(data, size, &b);
	size_t n = strnlen(b.file, sizeof(b.file));

	if (n > DHCP_FILE_MAX)
		__builtin_trap();
	if (ok && (n == 0 || !memcmp(b.server, "\0\0\0\0", 4)))
		__builtin_trap();
	for (size_t i = 0; ok && i < n; i++)
		if ((unsigned char)b.file[i] < 0x20 || b.file[i] == 0x7f)
			__builtin_trap();
	return 0;
}
