/* CRC32C (Castagnoli, reflected polynomial 0x82f63b78), as used by ext4
 * metadata_csum, iSCSI and SCTP (RFC 3720 appendix B.4). */
#ifndef CORE_CRC32C_H
#define CORE_CRC32C_H

#include "platform.h"

/**
 * crc32c_update() - continue a raw CRC32C over @len bytes at @buf.
 * "Raw" means no inversion on entry or exit: ext4 stores exactly this value,
 * started from ~0 (Linux's crc32c_le(), e2fsprogs' ext2fs_crc32c_le()).
 * Return: the updated CRC.
 */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

/**
 * crc32c() - the standard CRC32C of a buffer (initial ~0, final inversion);
 * crc32c("123456789") is 0xe3069283.
 * Return: the checksum.
 */
uint32_t crc32c(const void *buf, size_t len);

#endif
