/* EFI variables through efivarfs (efivarfs.c). */
#ifndef TOOL_EFIVARFS_H
#define TOOL_EFIVARFS_H

#include "tool.h"

#define EFI_GLOBAL_GUID_STR "8be4df61-93ca-11d2-aa0d-00e098032b8c"
#define EFI_IMAGE_SECURITY_DATABASE_GUID_STR "d719b2cb-3d3a-4596-a3bc-dad00e67656f" /* db, dbx (UEFI 2.10 §32.6.1) */
#define LOADER_GUID_STR "4a67b082-0a4c-41cf-b6c7-440b29bb8c4f"
#define EFIVAR_NV_BS_RT 0x7u /* NON_VOLATILE | BOOTSERVICE_ACCESS | RUNTIME_ACCESS (UEFI 2.10 §8.2) */

/** efivar_read() - the data of variable @name-@guid (attributes stripped); NULL when absent. */
uint8_t *efivar_read(const char *name, const char *guid, size_t *ret_len);
/** efivar_write() - create or replace @name-@guid with @attrs and @data. Return: 0 or -1 (printed). */
int efivar_write(const char *name, const char *guid, uint32_t attrs, const void *data, size_t len);
/** efivar_write_mode() - efivar_write() creating the file with @mode (0600: a secret such as LoaderSystemToken). */
int efivar_write_mode(const char *name, const char *guid, uint32_t attrs, const void *data, size_t len, mode_t mode);
/** efivar_delete() - remove @name-@guid; absent is fine. Return: 0 or -1 (printed). */
int efivar_delete(const char *name, const char *guid);
/** efivar_read_str() - a UTF-16 string variable as UTF-8 (to the first NUL; str16le_to_8()); NULL when absent. */
char *efivar_read_str(const char *name, const char *guid);
/** efivar_write_str() - @value (well-formed UTF-8) as UTF-16 with a NUL. Return: 0 or -1 (printed). */
int efivar_write_str(const char *name, const char *guid, uint32_t attrs, const char *value);

#endif
