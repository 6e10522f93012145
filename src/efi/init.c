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
