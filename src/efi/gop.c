/* The framebuffer from the Graphics Output Protocol (UEFI 2.10 §12.9), in
 * the firmware-free form the boot_params builder takes. */
#include "boot.h"
#include <efi/proto/graphics_output.h>

static EFI_GUID gop_guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;

bool gop_framebuffer(struct fb_info *ret)
{
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop;
	const EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *info;

	/* No GOP (serial-only machine) is normal: the kernel then has no EFI fb. */
	if (BS->LocateProtocol(&gop_guid, NULL, (void **)&gop) != EFI_SUCCESS || !gop->Mode || !gop->Mode->Info)
		return false;
	info = gop->Mode->Info;
	*ret = (struct fb_info){
		.base = gop->Mode->FrameBufferBase,
		.size = gop->Mode->FrameBufferSize,
		.width = info->HorizontalResolution,
		.height = info->VerticalResolution,
		.pixels_per_scan_line = info->PixelsPerScanLine,
		.mask_red = info->PixelInformation.RedMask,
		.mask_green = info->PixelInformation.GreenMask,
		.mask_blue = info->PixelInformation.BlueMask,
		.mask_reserved = info->PixelInformation.ReservedMask,
	};
	switch (info->PixelFormat) {
	case PixelRedGreenBlueReserved8BitPerColor: ret->format = FB_RGBX8; break;
	case PixelBlueGreenRedReserved8BitPerColor: ret->format = FB_BGRX8; break;
	case PixelBitMask: ret->format = FB_BITMASK; break;
	default: ret->format = FB_BLT_ONLY; break;
	}
	return true;
}
