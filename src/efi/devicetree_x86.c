/* x86 Linux takes no device tree from UEFI (boot.rst has none; its EFI stub
 * reads no devicetree table): the x86 loaders and the stub install none, and
 * their parser never keeps a "devicetree" path (FW_NATIVE_DT), so these
 * no-ops let boot_entry.c and uki_run.c call the AArch64 code
 * (devicetree_aa64.c) unconditionally at no cost. */
#include "devicetree.h"

EFI_STATUS dt_install(const uint8_t *data, size_t size, const char *name, struct dt_table *t)
{
	return EFI_SUCCESS;
}

EFI_STATUS dt_install_file(EFI_FILE_PROTOCOL *root, const char *path, struct dt_table *t)
{
	return EFI_SUCCESS;
}

void dt_restore(struct dt_table *t)
{
}
