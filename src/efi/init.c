/* The firmware tables. Only src/efi holds them (docs/design.md "Layers"). */
#include "firmware.h"

EFI_SYSTEM_TABLE *ST;
EFI_BOOT_SERVICES *BS;
EFI_RUNTIME_SERVICES *RT;
EFI_HANDLE IH;

void efi_init(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	IH = image;
	ST = systab;
	BS = systab->BootServices;
	RT = systab->RuntimeServices;
}

const void *efi_config_table(const EFI_GUID *guid)
{
	for (UINTN i = 0; i < ST->NumberOfTableEntries; i++)
		if (memcmp(&ST->ConfigurationTable[i].VendorGuid, guid, sizeof(*guid)) == 0)
			return ST->ConfigurationTable[i].VendorTable;
	return NULL;
}
