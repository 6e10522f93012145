/* CRC32C (Castagnoli), a nibble at a time as crc32.c: ext4 checksums only
 * metadata (a block at a time), so a 16-entry table (64 bytes) is a better
 * trade than a byte table (1 KiB that the packer cannot compress) in a loader
 * whose size is budgeted. */
#include "crc32c.h"

/* crc32c_nibble[i]: the reflected polynomial 0x82f63b78 applied to i over 4 bits. */
static const uint32_t crc32c_nibble[16] = {
	0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1, 0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
	0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9, 0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
};

uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ crc32c_nibble[crc & 0xf];
		crc = (crc >> 4) ^ crc32c_nibble[crc & 0xf];
	}
	return crc;
}

uint32_t crc32c(const void *buf, size_t len)
{
	return ~crc32c_update(~0u, buf, len);
}
