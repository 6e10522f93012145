/* handoff disk --arch: the machine a disk is for (cmd_disk.c). */
#ifndef TOOL_DISK_ARCH_H
#define TOOL_DISK_ARCH_H

#include "tool.h"
#include "core/gpt.h"

/* The firmware's fallback path for a removable medium is
 * \EFI\BOOT\BOOT{machine}.EFI (UEFI 2.10 §3.5.1.1). */
struct disk_arch {
	const char *fallback;          /* in the ESP */
	uint16_t machine;              /* the loader's PE machine */
	char *(*find)(const char *opt);
	const char *root_name;
	EFI_GUID root_type;
};

extern const struct disk_arch disk_arch_x64, disk_arch_aa64;

/**
 * disk_add_fallback() - handoff's loader for @arch (checked to be an EFI
 * application for its machine) as @arch->fallback on the FAT ESP @esp of the
 * image @img, unless the ESP's tree @esp_dir brings that file.
 * Return: 0 or -1 (printed).
 */
int disk_add_fallback(const char *img, const struct gpt_part *esp, const char *esp_dir, const struct disk_arch *arch);

#endif
