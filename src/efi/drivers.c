/* UEFI drivers from the ESP, as systemd-boot loads them (its documentation,
 * "Drivers"): \EFI\handoff\drivers\ and \EFI\systemd\drivers\, the files
 * named *<arch>.efi in name order, before any partition is read, so that a
 * file system driver (btrfs, XFS) lets the loader read an XBOOTLDR partition
 * of that kind. Each is loaded by the firmware's LoadImage (under Secure Boot
 * verified against db/dbx; measured into PCR 4) and started; one that is
 * refused, is not a driver or fails to start is named and left out. Then
 * every controller is connected again (UEFI 2.10 §7.3.12), so the new
 * drivers bind to the partitions already there. */
#include "loader.h"
#include "arch.h"
#include "core/fmt.h"

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* UEFI 2.10 §7.4.1: a driver's image runs as boot or runtime services code. */
static bool image_is_driver(EFI_HANDLE h)
{
	EFI_LOADED_IMAGE_PROTOCOL *li;

	return BS->HandleProtocol(h, &li_guid, (void **)&li) == EFI_SUCCESS &&
	       (li->ImageCodeType == EfiBootServicesCode || li->ImageCodeType == EfiRuntimeServicesCode);
}

/* Load and start @path; true when it runs (a driver stays resident). */
static bool driver_start(EFI_HANDLE device, const char *path)
{
	EFI_HANDLE h;
	EFI_STATUS err = image_load_file(device, "driver", path, &h);

	if (EFI_ERROR(err))
		return false;
	if (!image_is_driver(h)) {
		log_error("driver %s: not a UEFI driver (an application?): not started", path);
		BS->UnloadImage(h);
		return false;
	}
	/* the firmware unloads a driver whose entry point fails (§7.4.2) */
	err = BS->StartImage(h, NULL, NULL);
	if (EFI_ERROR(err))
		log_error_status(err, "driver %s: failed to start: %m", path);
	return !EFI_ERROR(err);
}

/* Every driver of @dir; how many started. */
static size_t drivers_from_dir(EFI_HANDLE device, EFI_FILE_PROTOCOL *root, const char *dir)
{
	char **names = NULL;
	size_t n = 0, started = 0;

	if (file_list_dir(root, dir, ARCH_EFI_SUFFIX, &names, &n) != EFI_SUCCESS)
		return 0; /* no such directory: no drivers */
	strv_sort(names, n);
	for (size_t i = 0; i < n; i++) {
		_cleanup_free_ char *path = fmt_asprintf("%s\\%s", dir, names[i]);

		if (path && names[i][0] != '.' && driver_start(device, path)) {
			log_info("driver %s started", path);
			started++;
		}
	}
	strv_free(names, n);
	return started;
}

void connect_all_controllers(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;

	if (BS->LocateHandleBuffer(AllHandles, NULL, NULL, &n, &handles) != EFI_SUCCESS)
		return;
	for (UINTN i = 0; i < n; i++)
		BS->ConnectController(handles[i], NULL, NULL, TRUE);
	BS->FreePool(handles);
}

void drivers_load(const struct volume *boot)
{
	static const char *const dirs[] = { "\\EFI\\handoff\\drivers", "\\EFI\\systemd\\drivers" };
	size_t started = 0;

	if (boot->network) /* a server has no directory listing to find them by */
		return;
	for (size_t i = 0; i < ARRAY_SIZE(dirs); i++)
		started += drivers_from_dir(boot->handle, boot->root, dirs[i]);
	if (started)
		connect_all_controllers();
}
