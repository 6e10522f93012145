/* The firmware's boot options (Boot####, UEFI 2.10 §3.1.3 EFI_LOAD_OPTION)
 * and BitLocker's volume signature: what reboot-for-bitlocker looks for
 * before it asks the firmware to start Windows Boot Manager itself. */
#ifndef CORE_BOOTOPT_H
#define CORE_BOOTOPT_H

#include "platform.h"
#include <efi/efi.h>

/* A Boot#### variable's parts, pointing into the caller's buffer. */
struct boot_option {
	uint32_t attributes;               /* LOAD_OPTION_* (efi/vars.h) */
	const uint8_t *description;        /* UTF-16LE, without its NUL */
	size_t description_size;           /* bytes, even */
	const uint8_t *file_path_list;     /* FilePathListLength bytes of device paths */
	size_t file_path_list_size;
	const uint8_t *optional_data;      /* the rest of the variable */
	size_t optional_data_size;
};

/* The BitLocker volume header's OEM id, at byte 3 of the partition's first sector. */
#define BITLOCKER_SIGNATURE "-FVE-FS-"
#define BITLOCKER_SIGNATURE_OFFSET 3u
#define BITLOCKER_HEAD_SIZE (BITLOCKER_SIGNATURE_OFFSET + sizeof(BITLOCKER_SIGNATURE) - 1)

/**
 * bootopt_parse() - split the @len bytes of a Boot#### variable: Attributes,
 * FilePathListLength, a NUL-terminated Description, the file path list, the
 * optional data. Every length is checked against @len.
 * Return: EFI_SUCCESS, or EFI_INVALID_PARAMETER (quiet: the caller names the
 * variable) when it is shorter than its fields say.
 */
EFI_STATUS bootopt_parse(const uint8_t *buf, size_t len, struct boot_option *ret);

/**
 * bootopt_boots_file() - does @o's first device path end in a file path node
 * (§10.3.5.4) naming @path? ASCII case is ignored and '/' is '\\'; a node
 * of the wrong length or a list without an end node is no match.
 */
bool bootopt_boots_file(const struct boot_option *o, const char *path);

/** bootopt_path_eq() - are @a and @b the same path on FAT: ASCII case ignored, '/' is '\\'? */
bool bootopt_path_eq(const char *a, const char *b);

/** bootopt_bitlocker() - do the @len bytes of a partition's first sector carry BitLocker's signature? */
bool bootopt_bitlocker(const uint8_t *sector, size_t len);

#endif
