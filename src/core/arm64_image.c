/* What `handoff uki` reads of an arm64 kernel Image besides its header
 * (arm64_image.h): the version its banner gives, for .uname and the default
 * .osrel, as the x86 path reads a bzImage's kernel_version. */
#include "arm64_image.h"

void arm64_image_version(const uint8_t *buf, size_t len, char *ret, size_t size)
{
	static const char tag[] = "Linux version ";
	const size_t tag_len = sizeof(tag) - 1;
	size_t n = 0;

	ret[0] = '\0';
	for (size_t at = 0; len >= tag_len && at <= len - tag_len; at++) {
		if (buf[at] != 'L' || memcmp(buf + at, tag, tag_len) != 0)
			continue;
		at += tag_len;
		while (at + n < len && n + 1 < size && buf[at + n] && buf[at + n] != '\n')
			n++;
		memcpy(ret, buf + at, n);
		ret[n] = '\0';
		return;
	}
}
