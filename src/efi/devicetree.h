/* Device trees for Linux: a Type #1 entry's "devicetree" file or a UKI's
 * .dtb, installed as the firmware's devicetree table (UEFI 2.10 §4.6.1.3)
 * before the kernel starts, and the table before it put back when the boot
 * fails. devicetree_aa64.c does it; devicetree_x86.c's are no-ops, as x86
 * Linux reads no device tree from UEFI (and the x86 loaders parse no
 * "devicetree" key, FW_NATIVE_DT). */
#ifndef EFI_DEVICETREE_H
#define EFI_DEVICETREE_H

#include "firmware.h"

/* Our table while it is installed: cleared by dt_restore(). */
struct dt_table {
	void *table;     /* ours, in EfiACPIReclaimMemory (NULL: none installed) */
	const void *old; /* the devicetree table before ours (NULL: none) */
};

/**
 * dt_install() - check the header of the devicetree blob @data (@size bytes,
 * core/fdt.h), copy it into EfiACPIReclaimMemory, let the firmware's
 * EFI_DT_FIXUP_PROTOCOL (when it has one) apply its fix-ups and memory
 * reservations, in a larger copy when it asks for more room, and install
 * the result as the devicetree table. @name: for messages.
 * Return: EFI_SUCCESS (*@t holds what dt_restore() undoes), or why not,
 * logged; then the table is as it was and nothing is held.
 */
EFI_STATUS dt_install(const uint8_t *data, size_t size, const char *name, struct dt_table *t);
/**
 * dt_install_file() - dt_install() of the file @path under @root, read
 * whole (at most FDT_FILE_MAX bytes). Return: as dt_install(); a file that
 * cannot be read is said with its path.
 */
EFI_STATUS dt_install_file(EFI_FILE_PROTOCOL *root, const char *path, struct dt_table *t);
/**
 * dt_restore() - after a boot that failed: the devicetree table before
 * dt_install() again (none if there was none), our copy freed (kept if
 * the firmware would not take our table back: it still points there).
 */
void dt_restore(struct dt_table *t);

#endif
