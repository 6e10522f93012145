/* A read-only EFI_FILE_PROTOCOL (UEFI 2.10 §13.5), the shape both volumes
 * handoff serves itself share: ext4 (ext4_sfs.c) and the network boot tree
 * (net_fs.c). Each supplies Open, Close, Read and GetInfo; writes are
 * refused, and positions follow §13.5 (a directory can only be rewound). */
#ifndef EFI_RO_FILE_H
#define EFI_RO_FILE_H

#include "firmware.h"

struct ro_file {
	EFI_FILE_PROTOCOL proto; /* first: This points here */
	uint64_t pos;            /* byte offset, or a directory's cursor */
	uint64_t size;           /* a file's size */
	bool dir;
};

/** ro_file_init() - @f's protocol: the given functions and the read-only rest. */
void ro_file_init(struct ro_file *f, EFI_FILE_OPEN open, EFI_FILE_CLOSE close, EFI_FILE_READ read,
		  EFI_FILE_GET_INFO get_info);

/**
 * ro_file_info() - an EFI_FILE_INFO named @name in @buf (*@size in/out as
 * GetInfo and a directory's Read), zeroed but its Size, FileName and
 * Attribute (read-only, @dir); the caller fills the sizes and times.
 * Return: the info, or NULL with *@err (EFI_BUFFER_TOO_SMALL: *@size says how much).
 */
EFI_FILE_INFO *ro_file_info(const char *name, bool dir, UINTN *size, void *buf, EFI_STATUS *err);

#endif
