/* A newc cpio archive of one file in memory, byte for byte as systemd-stub
 * writes the /.extra archives it appends to the initrd (pack_cpio_literal():
 * the kernel's early-userspace "buffer format", lower-case hex fields, no
 * mtime, inodes counted from 1), so the initrd sees the same files from
 * handoff's stub as from systemd's. */
#ifndef CORE_CPIO_H
#define CORE_CPIO_H

#include "platform.h"
#include <efi/efi.h>

#define CPIO_DIR_MODE  0555u /* systemd-stub's modes for .pcrsig and .pcrpkey */
#define CPIO_FILE_MODE 0444u

struct cpio_file {
	const char *name;  /* one component, no slash */
	const void *data;
	size_t size;
};

/**
 * cpio_archive() - an archive holding directory @dir (mode @dir_mode; its
 * leading components, as in ".extra/credentials", each a directory of mode
 * 0555 before it), the @n @files in the order given as "@dir/name" (mode
 * @file_mode) and the trailer: systemd-stub's pack_cpio(), byte for byte.
 * Every record is 4-byte aligned, so archives concatenate.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_size; EFI_BAD_BUFFER_SIZE
 * for a file of 4 GiB or more (newc sizes are 32 bits); EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS cpio_archive(const char *dir, uint32_t dir_mode, uint32_t file_mode, const struct cpio_file *files,
			size_t n, uint8_t **ret, size_t *ret_size);

/**
 * cpio_one_file() - an archive holding directory @dir (mode @dir_mode; one
 * component, no slash), the file "@dir/@name" (mode @file_mode, @size bytes of
 * @data) and the trailer; every record 4-byte aligned, so archives concatenate.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_size; EFI_BAD_BUFFER_SIZE
 * for a file of 4 GiB or more (newc sizes are 32 bits); EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS cpio_one_file(const char *dir, const char *name, const void *data, size_t size, uint32_t dir_mode,
			 uint32_t file_mode, uint8_t **ret, size_t *ret_size);

#endif
