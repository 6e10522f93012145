/* Device trees for Linux on AArch64: the kernel's EFI stub takes the
 * firmware's devicetree table (UEFI 2.10 §4.6.1.3) and adds /chosen to it
 * (Documentation/arch/arm64/booting.rst, "UEFI"). A Type #1 entry's
 * "devicetree" file or a UKI's .dtb replaces the firmware's table: header
 * checked (core/fdt.h), copied into EfiACPIReclaimMemory (§4.6.1.3 and EBBR
 * ask for that type; pool memory is 8-byte aligned, as a blob must be),
 * given to EFI_DT_FIXUP_PROTOCOL when the firmware has it (U-Boot: the nodes
 * and memory reservations it adds to its own tree), then installed. Any
 * failure leaves the old table; a failed boot puts it back (dt_restore). */
#include "devicetree.h"
#include "core/fdt.h"
#include <efi/proto/dt_fixup.h>

#define DT_FIXUP_TRIES 3 /* the firmware may ask for more room after it grew once */

static EFI_GUID dtb_table_guid = EFI_DTB_TABLE_GUID;
static EFI_GUID dt_fixup_guid = EFI_DT_FIXUP_PROTOCOL_GUID;

/* A copy of the blob (@h of @data) fixed up by the firmware, in *@ret. On
 * EFI_BUFFER_TOO_SMALL the protocol leaves the blob as it was and gives the
 * size it needs: a new copy of that size is tried. Another error leaves the
 * copy undefined (the protocol's specification): not installed. Without
 * the protocol the copy is the blob. */
static EFI_STATUS dt_copy(const uint8_t *data, const struct fdt_header_info *h, void **ret)
{
	EFI_DT_FIXUP_PROTOCOL *fixup = NULL;
	UINTN need = h->totalsize, have;
	EFI_STATUS err = EFI_BUFFER_TOO_SMALL;

	BS->LocateProtocol(&dt_fixup_guid, NULL, (void **)&fixup); /* none: fixup stays NULL */
	for (int i = 0; i < DT_FIXUP_TRIES && err == EFI_BUFFER_TOO_SMALL; i++) {
		mem_free(TAKE_PTR(*ret));
		err = BS->AllocatePool(EfiACPIReclaimMemory, have = need, ret);
		if (EFI_ERROR(err))
			break;
		memcpy(*ret, data, h->totalsize);
		if (!fixup)
			break;
		err = fixup->Fixup(fixup, *ret, &need, EFI_DT_APPLY_FIXUPS | EFI_DT_RESERVE_MEMORY);
		if (need <= have && err == EFI_BUFFER_TOO_SMALL)
			break; /* it cannot need less than it had */
	}
	return err;
}

EFI_STATUS dt_install(const uint8_t *data, size_t size, const char *name, struct dt_table *t)
{
	struct fdt_header_info h;
	void *copy = NULL;
	EFI_STATUS err = fdt_check_header(data, size, name, &h);

	if (EFI_ERROR(err))
		return err;
	err = dt_copy(data, &h, &copy);
	if (!EFI_ERROR(err)) {
		t->old = efi_config_table(&dtb_table_guid);
		err = BS->InstallConfigurationTable(&dtb_table_guid, copy);
	}
	if (EFI_ERROR(err)) {
		mem_free(copy);
		return log_error_status(err, "%s: devicetree table not installed: %m", name);
	}
	t->table = copy;
	log_info("%s: installed as the devicetree table", name);
	return EFI_SUCCESS;
}

EFI_STATUS dt_install_file(EFI_FILE_PROTOCOL *root, const char *path, struct dt_table *t)
{
	_cleanup_free_ uint8_t *data = NULL;
	size_t size;
	EFI_STATUS err = file_read_all(root, path, FDT_FILE_MAX, &data, &size);

	return EFI_ERROR(err) ? err : dt_install(data, size, path, t);
}

void dt_restore(struct dt_table *t)
{
	/* InstallConfigurationTable() with NULL removes ours when there was none
	 * (UEFI 2.10 §7.5); if the firmware keeps ours, so do we its memory */
	if (t->table && !EFI_ERROR(BS->InstallConfigurationTable(&dtb_table_guid, (void *)t->old)))
		mem_free(t->table);
	t->table = NULL;
}
