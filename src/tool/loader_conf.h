/* The ESP's \loader\loader.conf lines the tool writes: "boot-partition
 * PARTUUID" names a partition whose entries the loader reads besides the
 * ESP's and XBOOTLDR's (README "Security: what a hostile disk can and cannot
 * do"), as Debian's ext4 /boot when its kernels stay in place;
 * "editor-password" (set-editor-password) locks the loader's editor. */
#ifndef TOOL_LOADER_CONF_H
#define TOOL_LOADER_CONF_H

#include "tool.h"
#include "core/config.h"
#include <efi/efi.h>

#define LOADER_CONF "loader/loader.conf" /* below the ESP */
#define LOADER_CONF_MAX (1u << 20)

/**
 * loader_conf_names() - does the loader.conf text @text (@len bytes) name
 * @uuid in a boot-partition line, as the loader parses it? (Its other lines
 * are not judged here: nothing is printed.)
 */
bool loader_conf_names(const char *text, size_t len, const EFI_GUID *uuid);

/**
 * loader_conf_add_partition() - @text (@len bytes; NULL for no file) with
 * "# @comment" and "boot-partition @uuid" appended, after a line end when the
 * text lacks one; CRLF when the text's first line ends so. Everything already
 * there stays. Return: the new text (*@ret_len bytes), or NULL when @text
 * names @uuid already.
 */
char *loader_conf_add_partition(const char *text, size_t len, const EFI_GUID *uuid, const char *comment,
				size_t *ret_len);

/**
 * loader_conf_name_partition() - make @esp/loader/loader.conf name @uuid
 * (creating the file when missing), saying so on stdout.
 * Return: 1 written, 0 already named, -1 (reason printed).
 */
int loader_conf_name_partition(const char *esp, const EFI_GUID *uuid, const char *comment);

/**
 * loader_conf_set() - in @esp/loader/loader.conf (created when missing, with
 * @new_mode), the line setting @key becomes @line, or goes when @line is NULL
 * (text_set_setting(): the user's other lines kept); an existing file keeps
 * its mode. Return: 1 written, 0 unchanged, -1 (reason printed).
 */
int loader_conf_set(const char *esp, const char *key, const char *line, mode_t new_mode);

/**
 * loader_conf_read() - @esp/loader/loader.conf as the loader reads it, its
 * complaints not printed (defaults when there is none).
 * Return: 0, or -1 when it cannot be read or parsed (a read error printed).
 */
int loader_conf_read(const char *esp, struct loader_config *ret);

/**
 * boot_partition_uuid() - the partition the loader must be told of for
 * entries in @boot/loader/entries: the PARTUUID of @boot's partition
 * ($HANDOFF_BOOT_PARTUUID when set: an image build that knows the GUID it will
 * give the partition, or a test), unless @boot is on the ESP itself or of type
 * XBOOTLDR (read anyway). Without a mounted ESP (an image build, a chroot)
 * the disk may not exist yet (handoff disk --root names the root partition
 * it makes).
 * Return: 1 (*@ret_uuid set); 0 nothing to name; 2 not known yet, *@ret_why
 * (malloc'd) a note saying so; -1 cannot be told, *@ret_why the reason.
 */
int boot_partition_uuid(const char *boot, const char *esp, EFI_GUID *ret_uuid, char **ret_why);

#endif
