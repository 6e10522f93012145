/* CRC-32 as IEEE 802.3 defines it (reflected, polynomial 0x04c11db7, initial
 * value and final xor 0xffffffff): the checksum of GPT headers and entry
 * arrays (UEFI 2.10 §5.3.2) and of gzip/zip members. */
#ifndef CORE_CRC32_H
#define CORE_CRC32_H

#include "platform.h"

/**
 * crc32() - continue a CRC-32 over @len bytes of @buf.
 * @crc: 0 to start, or the result of a previous call over the preceding bytes.
 * Return: the CRC-32 of everything so far ("123456789" gives 0xcbf43926).
 */
uint32_t crc32(uint32_t crc, const void *buf, size_t len);

#endif
