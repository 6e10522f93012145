/* The probe's IA-32 code: entered from 32-bit firmware (the 32-bit handover
 * entry, or the IA-32 PE entry a .compat section names), it asks the
 * firmware what the 64-bit probe cannot ask once it has left for long mode:
 * the command line and initrd a kernel's own stub would take (LoadOptions,
 * LoadFile2 on the Linux initrd media path; boot.rst "EFI stub"), the memory
 * map (GetMemoryMap with no buffer first: boot services must answer
 * EFI_BUFFER_TOO_SMALL) and the GOP mode. Built as a flat position-
 * independent blob (mk/probe.mk) without data of its own: everything goes
 * into the report the caller passes. UEFI 2.10 §4.3, §7.2, §9.1, §12.9, §13.2. */
#include "probe/efi32.h"
#include <efi/efi.h>
#include <efi/linux.h>
#include <efi/proto/device_path.h>
#include <efi/proto/graphics_output.h>
#include <efi/proto/load_file.h>
#include <efi/proto/loaded_image.h>

_Static_assert(sizeof(void *) == 4, "gather.c is IA-32 code");

/* clang may call these for struct copies and zeroing. */
void *memset(void *dst, int c, size_t n)
{
	uint8_t *d = dst;

	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	uint8_t *d = dst;
	const uint8_t *s = src;

	while (n--)
		*d++ = *s++;
	return dst;
}

static void gather_map(struct probe32_report *r, EFI_BOOT_SERVICES *bs)
{
	UINTN size = 0, key = 0, desc_size = 0;
	UINT32 desc_version = 0;

	r->bs_status = bs->GetMemoryMap(&size, NULL, &key, &desc_size, &desc_version);
	r->bs_tested = 1;
	if (r->bs_status != EFI_BUFFER_TOO_SMALL)
		return;
	size = PROBE32_MAP_MAX;
	if (bs->GetMemoryMap(&size, (EFI_MEMORY_DESCRIPTOR *)r->map, &key, &desc_size, &desc_version) != EFI_SUCCESS)
		return;
	r->map_size = size;
	r->desc_size = desc_size;
	r->desc_version = desc_version;
}

static void gather_gop(struct probe32_report *r, EFI_BOOT_SERVICES *bs)
{
	EFI_GUID guid = EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID;
	EFI_GRAPHICS_OUTPUT_PROTOCOL *gop = NULL;
	const EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *mode;

	if (bs->LocateProtocol(&guid, NULL, (void **)&gop) != EFI_SUCCESS || !gop || !(mode = gop->Mode) || !mode->Info)
		return;
	r->gop_present = 1;
	r->fb_base = mode->FrameBufferBase;
	r->fb_size = mode->FrameBufferSize;
	r->width = mode->Info->HorizontalResolution;
	r->height = mode->Info->VerticalResolution;
	r->pixels_per_scan_line = mode->Info->PixelsPerScanLine;
}

/* LoadOptions (UCS-2, §9.1) to the 8-bit line a kernel's stub would make. */
static void gather_options(struct probe32_report *r, EFI_BOOT_SERVICES *bs, EFI_HANDLE image)
{
	EFI_GUID guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;
	const CHAR16 *opts;
	UINT32 n = 0;

	if (bs->HandleProtocol(image, &guid, (void **)&li) != EFI_SUCCESS || !li)
		return;
	opts = li->LoadOptions;
	if (opts)
		for (; n < li->LoadOptionsSize / sizeof(CHAR16) && n + 1 < PROBE32_CMDLINE_MAX && opts[n]; n++)
			r->cmdline[n] = opts[n] < 0x80 ? (char)opts[n] : '?';
	r->cmdline[n] = '\0';
	r->have_options = 1;
}

/* The initrd a loader offers on the Linux initrd media device path. */
static void gather_initrd(struct probe32_report *r, EFI_BOOT_SERVICES *bs)
{
	EFI_GUID lf2_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
	LINUX_INITRD_MEDIA_DEVICE_PATH path = {
		.vendor = { .Header = { MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP, { sizeof(VENDOR_DEVICE_PATH), 0 } },
			    .Guid = LINUX_INITRD_MEDIA_GUID },
		.end = { END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, { END_DEVICE_PATH_LENGTH, 0 } },
	};
	EFI_DEVICE_PATH_PROTOCOL *dp = (EFI_DEVICE_PATH_PROTOCOL *)&path;
	EFI_LOAD_FILE2_PROTOCOL *lf2 = NULL;
	EFI_PHYSICAL_ADDRESS addr = 0;
	EFI_HANDLE handle = NULL;
	UINTN size = 0;

	r->initrd_status = bs->LocateDevicePath(&lf2_guid, &dp, &handle);
	if (r->initrd_status != EFI_SUCCESS)
		return;
	r->initrd_status = bs->HandleProtocol(handle, &lf2_guid, (void **)&lf2);
	if (r->initrd_status == EFI_SUCCESS)
		r->initrd_status = lf2->LoadFile(lf2, dp, FALSE, &size, NULL);
	if (r->initrd_status != EFI_BUFFER_TOO_SMALL || size == 0)
		return;
	r->initrd_status = bs->AllocatePages(AllocateAnyPages, EfiLoaderData, EFI_SIZE_TO_PAGES(size), &addr);
	if (r->initrd_status == EFI_SUCCESS)
		r->initrd_status = lf2->LoadFile(lf2, dp, FALSE, &size, (void *)(uintptr_t)addr);
	if (r->initrd_status == EFI_SUCCESS) {
		r->initrd_addr = addr;
		r->initrd_size = size;
	}
}

/* First in the blob (gather.lds): called from src/probe/entry.S. */
__attribute__((section(".text.gather32"))) void probe32_gather(struct probe32_report *r, EFI_HANDLE image,
								EFI_SYSTEM_TABLE *st, uint32_t want_options)
{
	EFI_BOOT_SERVICES *bs;

	memset(r, 0, sizeof(*r) - PROBE32_MAP_MAX);
	if (!st || st->Hdr.Signature != EFI_SYSTEM_TABLE_SIGNATURE || !(bs = st->BootServices) ||
	    bs->Hdr.Signature != EFI_BOOT_SERVICES_SIGNATURE)
		return; /* nothing to call: boot_services_unusable says so */
	r->systab_ok = 1;
	if (want_options) {
		gather_options(r, bs, image);
		gather_initrd(r, bs);
	}
	/* last: the initrd's pages are then allocated memory in the map */
	gather_map(r, bs);
	gather_gop(r, bs);
}
