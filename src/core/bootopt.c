/* Boot#### load options (UEFI 2.10 §3.1.3 EFI_LOAD_OPTION, §10.3 device
 * path nodes, §10.3.5.4 file path media node) and BitLocker's signature, as
 * reboot-for-bitlocker reads them (README "Dual boot"). Everything comes
 * from variables anyone with root may write: each length is checked before
 * it is used. */
#include "bootopt.h"
#include <efi/proto/device_path.h>

#define DESCRIPTION_OFFSET 6u /* after Attributes (4) and FilePathListLength (2) */

EFI_STATUS bootopt_parse(const uint8_t *buf, size_t len, struct boot_option *ret)
{
	size_t fpl_size, desc = 0, at;

	if (len < DESCRIPTION_OFFSET + 2)
		return EFI_INVALID_PARAMETER;
	fpl_size = get_le16(buf + 4);
	/* the description's NUL: the first 0x0000 on a CHAR16 boundary */
	while (DESCRIPTION_OFFSET + desc + 2 <= len && get_le16(buf + DESCRIPTION_OFFSET + desc))
		desc += 2;
	if (DESCRIPTION_OFFSET + desc + 2 > len)
		return EFI_INVALID_PARAMETER;
	at = DESCRIPTION_OFFSET + desc + 2;
	if (fpl_size > len - at)
		return EFI_INVALID_PARAMETER;
	*ret = (struct boot_option){
		.attributes = get_le32(buf),
		.description = buf + DESCRIPTION_OFFSET,
		.description_size = desc,
		.file_path_list = buf + at,
		.file_path_list_size = fpl_size,
		.optional_data = buf + at + fpl_size,
		.optional_data_size = len - at - fpl_size,
	};
	return EFI_SUCCESS;
}

static char fold(uint16_t c)
{
	if (c == '/')
		return '\\';
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : (char)c;
}

bool bootopt_path_eq(const char *a, const char *b)
{
	for (; *a && fold((uint8_t)*a) == fold((uint8_t)*b); a++, b++)
		;
	return fold((uint8_t)*a) == fold((uint8_t)*b);
}

/* A file path node's PathName (@name, @size bytes, NUL-terminated or not) against @path. */
static bool name_is(const uint8_t *name, size_t size, const char *path)
{
	size_t i = 0;

	for (; path[i]; i++) {
		uint16_t c = 2 * i + 2 <= size ? get_le16(name + 2 * i) : 0;

		if (c == 0 || c > 0x7f || fold(c) != fold((uint8_t)path[i]))
			return false;
	}
	return 2 * i + 2 > size || get_le16(name + 2 * i) == 0;
}

bool bootopt_boots_file(const struct boot_option *o, const char *path)
{
	const uint8_t *p = o->file_path_list, *last = NULL;
	size_t len = o->file_path_list_size, off = 0, last_len = 0;

	while (len - off >= END_DEVICE_PATH_LENGTH) {
		size_t n = get_le16(p + off + 2);

		if (n < END_DEVICE_PATH_LENGTH || n > len - off)
			return false;
		if (p[off] == END_DEVICE_PATH_TYPE) /* the end of the first instance */
			return last && last[0] == MEDIA_DEVICE_PATH && last[1] == MEDIA_FILEPATH_DP &&
			       name_is(last + 4, last_len - 4, path);
		last = p + off;
		last_len = n;
		off += n;
	}
	return false;
}

bool bootopt_bitlocker(const uint8_t *sector, size_t len)
{
	return len >= BITLOCKER_HEAD_SIZE &&
	       memcmp(sector + BITLOCKER_SIGNATURE_OFFSET, BITLOCKER_SIGNATURE, sizeof(BITLOCKER_SIGNATURE) - 1) == 0;
}
