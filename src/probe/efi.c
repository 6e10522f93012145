/* What the firmware says, on the handover entry (boot services still up,
 * UEFI 2.10 §7): does GetMemoryMap answer EFI_BUFFER_TOO_SMALL for an empty
 * buffer, the whole map, the GOP mode, and whether the image handle is the
 * image carrying the probe (wrapped probe.img or a UKI, entered through
 * handoff's stub) or a loader's. */
#include "probe.h"
#include <efi/proto/graphics_output.h>
#include <efi/proto/loaded_image.h>

#define MAP_BUF_SIZE 0x10000u

static uint8_t map_buf[MAP_BUF_SIZE] __attribute__((aligned(8)));

static void gather_map(struct probe_input *in, EFI_BOOT_SERVICES *bs)
{
	UINTN size = 0, key = 0, desc_size = 0;
	UINT32 desc_version = 0;

	in->bs_status = bs->GetMemoryMap(&size, NULL, &key, &desc_size, &desc_version);
	in->bs_tested = true;
	if (in->bs_status != EFI_BUFFER_TOO_SMALL)
		return;
	size = sizeof(map_buf);
	if (bs->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)map_buf, &key, &desc_size, &desc_version) != EFI_SUCCESS)
		return;
	in->fw_map_addr = (uintptr_t)map_buf;
	in->fw_map_size = size;
	in->fw_desc_size = desc_size;
	in->fw_desc_version = desc_version;
}

static void gather_gop(struct probe_input *in, EFI_BOOT_SERVICES *bs)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	const EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *mode;

	if (bs->LocateProtocol(&(EFI_GUID)EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID, NULL, (void **)&gop) != EFI_SUCCESS ||
	    !gop)
		return;
	mode = gop->Mode;
	if (!mode || !mode->Info)
		return;
	in->gop = (struct probe_gop){
		.present = true, .fb_base = mode->FrameBufferBase, .fb_size = mode->FrameBufferSize,
		.width = mode->Info->HorizontalResolution, .height = mode->Info->VerticalResolution,
		.pixels_per_scan_line = mode->Info->PixelsPerScanLine,
	};
}

static bool started_by_our_stub(EFI_BOOT_SERVICES *bs, EFI_HANDLE image)
{
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	if (!image ||
	    bs->HandleProtocol(image, &(EFI_GUID)EFI_LOADED_IMAGE_PROTOCOL_GUID, (void **)&li) != EFI_SUCCESS || !li)
		return false;
	return probe_image_carries_kernel(mem_read, NULL, (uintptr_t)li->ImageBase);
}

void probe_efi_gather(struct probe_input *in, EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	EFI_BOOT_SERVICES *bs;

	in->systab_addr = (uintptr_t)st;
	if (!probe_systab_valid(mem_read, NULL, (uintptr_t)st, NULL) || !st->BootServices ||
	    st->BootServices->Hdr.Signature != EFI_BOOT_SERVICES_SIGNATURE)
		return; /* nothing to call: boot_services_unusable */
	bs = st->BootServices;
	gather_map(in, bs);
	gather_gop(in, bs);
	if (started_by_our_stub(bs, image))
		in->entry = PROBE_ENTRY_STUB;
}
