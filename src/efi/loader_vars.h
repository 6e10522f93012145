/* EFI variables: Secure Boot and the Boot Loader Interface. */
#ifndef EFI_VARS_GLUE_H
#define EFI_VARS_GLUE_H

#include "firmware.h"

/* Attributes of non-volatile Boot Loader Interface variables (UEFI 2.10 §8.2). */
#define VAR_NON_VOLATILE (EFI_VARIABLE_NON_VOLATILE | EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

/** loader_var_set_str() - a Boot Loader Interface string variable (UCS-2, volatile). */
void loader_var_set_str(const CHAR16 *name, const char *value);
/** loader_var_set_str_attr() - the same with @attributes (EFI_VARIABLE_NON_VOLATILE for LoaderEntryLastBooted). */
void loader_var_set_str_attr(const CHAR16 *name, const char *value, uint32_t attributes);
void loader_var_set_raw(const CHAR16 *name, const void *data, size_t size);
/** loader_var_get_raw() - read @name into @buf of *@size bytes; *@size: the variable's size (GetVariable, §8.2). */
EFI_STATUS loader_var_get_raw(const CHAR16 *name, void *buf, size_t *size);
/** loader_var_exists() - the Boot Loader Interface variable @name is set. */
bool loader_var_exists(const CHAR16 *name);
/** loader_var_get_str() - a Boot Loader Interface string variable as UTF-8; NULL when unset or not a string. */
char *loader_var_get_str(const CHAR16 *name);
/** loader_var_delete() - remove a (one-shot) Boot Loader Interface variable. */
void loader_var_delete(const CHAR16 *name);
/** loader_var_set_time() - microseconds since CPU reset (cpu_counter()), as LoaderTime*USec. */
void loader_var_set_time(const CHAR16 *name);

/* bli_origin.c */
struct EFI_LOADED_IMAGE_PROTOCOL;
/**
 * bli_publish_origin() - LoaderFirmwareType, LoaderFirmwareInfo,
 * LoaderImageIdentifier (from @li's FilePath) and LoaderDevicePartUUID (its
 * DeviceHandle's GPT partition); with @keep, only those no loader has set.
 */
void bli_publish_origin(const struct EFI_LOADED_IMAGE_PROTOCOL *li, bool keep);
/** image_file_path() - @li's own path on its volume (its file path node), UTF-8; NULL if none. */
char *image_file_path(const struct EFI_LOADED_IMAGE_PROTOCOL *li);

/** firmware_ui_supported() - OsIndicationsSupported has EFI_OS_INDICATIONS_BOOT_TO_FW_UI (UEFI 2.10 §8.5.4). */
bool firmware_ui_supported(void);
/** reboot_into_firmware() - set OsIndications' BOOT_TO_FW_UI and reset. Returns only on failure (logged). */
EFI_STATUS reboot_into_firmware(void);

#endif
