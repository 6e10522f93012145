/* EFI variables: Secure Boot and the Boot Loader Interface. */
#ifndef EFI_VARS_GLUE_H
#define EFI_VARS_GLUE_H

#include "firmware.h"

/** loader_var_set_str() - a Boot Loader Interface string variable (UCS-2, volatile). */
void loader_var_set_str(const CHAR16 *name, const char *value);
void loader_var_set_raw(const CHAR16 *name, const void *data, size_t size);
/** loader_var_get_str() - a Boot Loader Interface string variable as UTF-8; NULL when unset or not a string. */
char *loader_var_get_str(const CHAR16 *name);
/** loader_var_delete() - remove a (one-shot) Boot Loader Interface variable. */
void loader_var_delete(const CHAR16 *name);
/** loader_var_set_time() - microseconds since CPU reset (TSC), as LoaderTime*USec. */
void loader_var_set_time(const CHAR16 *name);

#endif
