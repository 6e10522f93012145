/* reboot-for-bitlocker (systemd-boot's loader.conf key, README "Dual
 * boot"): BitLocker seals Windows's key to PCR 4 among others, and PCR 4
 * holds every image started before Windows Boot Manager, so chainloaded it
 * finds handoff there and asks for its recovery key. When a partition
 * carries BitLocker's signature, the firmware is asked instead to start its
 * own Boot#### for bootmgfw.efi at the next boot (BootNext, UEFI 2.10
 * §3.1.2) and the machine is reset; otherwise, or when that cannot be done,
 * Windows is chainloaded with a warning. */
#include "loader.h"
#include "loader_vars.h"
#include "core/bootopt.h"
#include <efi/proto/block_io.h>
#include <efi/proto/disk_io.h>

#define BOOT_ORDER_MAX 512     /* entries: far more than any firmware keeps */
#define BOOT_OPTION_MAX 4096u  /* bytes: a description and a device path or two */

static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE_GUID;
static EFI_GUID bio_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID dio_guid = EFI_DISK_IO_PROTOCOL_GUID;

/* Does a partition (of any disk, as systemd-boot looks) begin with BitLocker's volume header? */
static bool bitlocker_found(void)
{
	EFI_HANDLE *handles = NULL;
	UINTN n = 0;
	bool found = false;

	if (BS->LocateHandleBuffer(ByProtocol, &dio_guid, NULL, &n, &handles) != EFI_SUCCESS)
		return false;
	for (UINTN i = 0; i < n && !found; i++) {
		EFI_BLOCK_IO_PROTOCOL *bio;
		EFI_DISK_IO_PROTOCOL *dio;
		uint8_t head[BITLOCKER_HEAD_SIZE];

		if (BS->HandleProtocol(handles[i], &bio_guid, (void **)&bio) != EFI_SUCCESS ||
		    BS->HandleProtocol(handles[i], &dio_guid, (void **)&dio) != EFI_SUCCESS ||
		    !bio->Media->LogicalPartition || !bio->Media->MediaPresent)
			continue;
		found = dio->ReadDisk(dio, bio->Media->MediaId, 0, sizeof(head), head) == EFI_SUCCESS &&
			bootopt_bitlocker(head, sizeof(head));
	}
	BS->FreePool(handles);
	return found;
}

/* "Boot####": @num in upper-case hex, as §3.1.1 names them. */
static void boot_var_name(uint16_t num, CHAR16 name[9])
{
	memcpy(name, u"Boot", 4 * sizeof(CHAR16));
	for (unsigned k = 0; k < 4; k++)
		name[4 + k] = (CHAR16)"0123456789ABCDEF"[num >> (12 - 4 * k) & 0xf];
	name[8] = 0;
}

/* The first Boot#### in BootOrder that starts bootmgfw.efi from a file path. */
static EFI_STATUS windows_boot_option(uint16_t *ret)
{
	_cleanup_free_ uint8_t *opt = mem_alloc(BOOT_OPTION_MAX);
	uint16_t order[BOOT_ORDER_MAX];
	UINTN size = sizeof(order);

	if (!opt || RT->GetVariable(u"BootOrder", &global_guid, NULL, &size, order) != EFI_SUCCESS)
		return EFI_NOT_FOUND;
	for (size_t i = 0; i < size / sizeof(order[0]); i++) {
		UINTN n = BOOT_OPTION_MAX;
		struct boot_option o;
		CHAR16 name[9];

		boot_var_name(order[i], name);
		if (RT->GetVariable(name, &global_guid, NULL, &n, opt) == EFI_SUCCESS &&
		    bootopt_parse(opt, n, &o) == EFI_SUCCESS && bootopt_boots_file(&o, BLS_WINDOWS_PATH)) {
			*ret = order[i];
			return EFI_SUCCESS;
		}
	}
	return EFI_NOT_FOUND;
}

void bitlocker_reboot(const struct loader *l, const struct bls_entry *e)
{
	const char *why = "reboot-for-bitlocker is off";
	uint16_t num;

	if (!bitlocker_found())
		return;
	if (l->cfg.reboot_for_bitlocker) {
		why = "no Boot#### for it, or BootNext refused";
		if (windows_boot_option(&num) == EFI_SUCCESS &&
		    RT->SetVariable(u"BootNext", &global_guid, VAR_NON_VOLATILE, sizeof(num), &num) == EFI_SUCCESS) {
			log_info("BitLocker: the firmware starts Boot%04X after a reset (BootNext)", num);
			loader_save_selected(l, e); /* default @saved: as if it had been chainloaded */
			RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
		}
	}
	log_warning("BitLocker: chainloaded (%s), so PCR 4 holds handoff and Windows may ask for its recovery key",
		    why);
}
