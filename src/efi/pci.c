/* PCI option ROMs for the kernel (SETUP_PCI setup_data): after
 * ExitBootServices the kernel cannot ask the firmware for them, and some
 * drivers need the ROM image. Best effort: a device whose ROM cannot be
 * copied is skipped, as Linux's own stub does. */
#include "boot.h"
#include <efi/proto/pci_io.h>

static EFI_GUID pci_guid = EFI_PCI_IO_PROTOCOL_GUID;

#define PCI_VENDOR_DEVICE_OFFSET 0

static void add_rom(struct boot_params *bp, EFI_PCI_IO_PROTOCOL *pci)
{
	struct pci_setup_rom *rom;
	UINTN seg, bus, dev, func;
	uint32_t id;

	if (!pci->RomImage || !pci->RomSize || pci->RomSize > UINT32_MAX - sizeof(*rom))
		return;
	if (pci->Pci.Read(pci, EfiPciIoWidthUint32, PCI_VENDOR_DEVICE_OFFSET, 1, &id) != EFI_SUCCESS ||
	    pci->GetLocation(pci, &seg, &bus, &dev, &func) != EFI_SUCCESS)
		return;
	rom = mem_alloc(sizeof(*rom) + pci->RomSize);
	if (!rom)
		return;
	*rom = (struct pci_setup_rom){
		.type = SETUP_PCI,
		.len = (uint32_t)(sizeof(*rom) - sizeof(struct setup_data) + pci->RomSize),
		.vendor = (uint16_t)id,
		.devid = (uint16_t)(id >> 16),
		.pcilen = pci->RomSize,
		.segment = seg,
		.bus = bus,
		.device = dev,
		.function = func,
	};
	memcpy(rom->romdata, pci->RomImage, pci->RomSize);
	bp_append_setup_data(bp, (struct setup_data *)rom, (uintptr_t)rom);
}

void pci_add_option_roms(struct boot_params *bp)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (BS->LocateHandleBuffer(ByProtocol, &pci_guid, NULL, &n, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n; i++) {
		EFI_PCI_IO_PROTOCOL *pci;
		if (BS->HandleProtocol(handles[i], &pci_guid, (void **)&pci) == EFI_SUCCESS)
			add_rom(bp, pci);
	}
	BS->FreePool(handles);
}
