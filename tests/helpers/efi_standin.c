/* A stand-in for another OS's loader in the dual boot tests (tests/boot/
 * test_dualboot.py): Windows Boot Manager, an EFI shell. It says on the
 * console that it runs, with its name (-DSTANDIN_NAME='u"bootmgfw"') and
 * the file it was loaded from (LoadedImage's FilePath, UEFI 2.10 §9.1), then
 * powers the machine off (§8.5.1), so the test sees who started it: the
 * loader (a chainload) or the firmware itself (BootNext). */
#include <efi/efi.h>
#include <efi/proto/device_path.h>
#include <efi/proto/loaded_image.h>
#include <efi/proto/simple_text_out.h>

#ifndef STANDIN_NAME
#error "build with -DSTANDIN_NAME='u\"name\"'"
#endif

static void say(EFI_SYSTEM_TABLE *st, const CHAR16 *s)
{
	st->ConOut->OutputString(st->ConOut, (CHAR16 *)s);
}

/* The last file path node's name, or "?". */
static const CHAR16 *file_path(const EFI_DEVICE_PATH_PROTOCOL *dp)
{
	const CHAR16 *name = u"?";

	for (const EFI_DEVICE_PATH_PROTOCOL *n = dp; n && n->Type != END_DEVICE_PATH_TYPE;) {
		uint16_t len = (uint16_t)(n->Length[0] | n->Length[1] << 8);

		if (len < 4)
			break;
		if (n->Type == MEDIA_DEVICE_PATH && n->SubType == MEDIA_FILEPATH_DP && len > 4)
			name = (const CHAR16 *)((const uint8_t *)n + 4);
		n = (const void *)((const uint8_t *)n + len);
	}
	return name;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *st)
{
	static const EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li = NULL;

	st->BootServices->HandleProtocol(image, (EFI_GUID *)&li_guid, (void **)&li);
	say(st, u"\r\nHANDOFF-STANDIN " STANDIN_NAME u" from ");
	say(st, li ? file_path(li->FilePath) : u"?");
	say(st, u"\r\n");
	st->RuntimeServices->ResetSystem(EfiResetShutdown, EFI_SUCCESS, 0, NULL);
	return EFI_SUCCESS;
}
