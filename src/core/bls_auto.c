/* The automatic menu entries of loader.conf(5): the other loaders found on
 * the ESP (Windows Boot Manager, an EFI shell, another OS's fallback
 * loader), "Reboot Into Firmware Interface" (auto-firmware), "Reboot The
 * System" (auto-reboot) and "Power Off The System" (auto-poweroff), after
 * every other entry, and in Setup Mode "Enroll Secure Boot keys: NAME"
 * (secure-boot-enroll), with the ids systemd-boot gives them so that
 * LoaderEntries reads the same. */
#include "bls.h"
#include "array.h"
#include "config.h"
#include "fmt.h"

static const struct {
	uint8_t bit;
	enum bls_auto_action action;
	const char *id, *title;
} auto_entries[] = {
	{ CFG_AUTO_FIRMWARE, BLS_AUTO_FIRMWARE, "auto-reboot-to-firmware-setup", "Reboot Into Firmware Interface" },
	{ CFG_AUTO_POWEROFF, BLS_AUTO_POWEROFF, "auto-poweroff", "Power Off The System" },
	{ CFG_AUTO_REBOOT, BLS_AUTO_REBOOT, "auto-reboot", "Reboot The System" },
};

/* systemd-boot's automatic entries for other loaders on the ESP, in its
 * order; the fallback path is UEFI 2.10 §3.5.1.1's. */
static const struct {
	const char *id, *title, *path[2]; /* x86-64, IA-32 */
} os_entries[BLS_OS_MAX] = {
	[BLS_OS_WINDOWS] = { "auto-windows", "Windows Boot Manager",
			     { BLS_WINDOWS_PATH, BLS_WINDOWS_PATH } },
	[BLS_OS_SHELL] = { "auto-efi-shell", "EFI Shell", { "/shellx64.efi", "/shellia32.efi" } },
	[BLS_OS_DEFAULT] = { "auto-efi-default", "EFI Default Loader",
			     { "/EFI/BOOT/BOOTX64.EFI", "/EFI/BOOT/BOOTIA32.EFI" } },
};

/* AArch64's (a table of its own: fw_is() leaves it out of the x86 loaders). */
static const char *const os_paths_aa64[BLS_OS_MAX] = {
	[BLS_OS_WINDOWS] = BLS_WINDOWS_PATH,
	[BLS_OS_SHELL] = "/shellaa64.efi",
	[BLS_OS_DEFAULT] = "/EFI/BOOT/BOOTAA64.EFI",
};

const char *bls_os_path(enum bls_os os, enum fw_arch fw)
{
	return fw_is(fw, FW_AA64) ? os_paths_aa64[os] : os_entries[os].path[fw == FW_IA32];
}

/* Append @e, or free it when its strings are not all there (@complete) or there is no room. */
static EFI_STATUS add_entry(struct bls_entry *e, bool complete, struct bls_entry ***entries, size_t *n)
{
	if (!complete || array_append(entries, n, sizeof(e), &e) != EFI_SUCCESS) {
		bls_entry_free(e);
		mem_free(e);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

/* A new BLS_AUTO entry doing @action, with copies of @id and @title, and of
 * @efi as its "efi" and path when not NULL, appended to *@entries. */
static EFI_STATUS add_new(enum bls_auto_action action, const char *id, const char *title, const char *efi,
			  struct bls_entry ***entries, size_t *n)
{
	struct bls_entry *e = mem_zalloc(sizeof(*e));

	if (!e)
		return EFI_OUT_OF_RESOURCES;
	*e = (struct bls_entry){ .type = BLS_AUTO, .auto_action = action, .id = fmt_asprintf("%s", id),
				 .title = fmt_asprintf("%s", title) };
	if (efi) {
		e->efi = fmt_asprintf("%s", efi);
		e->path = fmt_asprintf("%s", efi);
	}
	return add_entry(e, e->id && e->title && (!efi || (e->efi && e->path)), entries, n);
}

EFI_STATUS bls_add_auto_entries(unsigned which, bool firmware_ui, struct bls_entry ***entries, size_t *n)
{
	if (!firmware_ui)
		which &= ~CFG_AUTO_FIRMWARE;
	for (size_t i = 0; i < ARRAY_SIZE(auto_entries); i++) {
		EFI_STATUS err = EFI_SUCCESS;

		if (which & auto_entries[i].bit)
			err = add_new(auto_entries[i].action, auto_entries[i].id, auto_entries[i].title, NULL, entries,
				      n);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}

EFI_STATUS bls_add_sb_keys_entry(const char *name, struct bls_entry ***entries, size_t *n)
{
	struct bls_entry *e = mem_zalloc(sizeof(*e));

	if (!e)
		return EFI_OUT_OF_RESOURCES;
	*e = (struct bls_entry){ .type = BLS_AUTO, .auto_action = BLS_AUTO_SB_KEYS,
				 .id = fmt_asprintf("secure-boot-keys-%s", name),
				 .title = fmt_asprintf("Enroll Secure Boot keys: %s", name),
				 .path = fmt_asprintf(SB_KEYS_DIR "\\%s", name) };
	return add_entry(e, e->id && e->title && e->path, entries, n);
}

EFI_STATUS bls_add_os_entries(unsigned found, enum fw_arch fw, struct bls_entry ***entries, size_t *n)
{
	for (unsigned i = 0; i < BLS_OS_MAX; i++) {
		EFI_STATUS err = EFI_SUCCESS;

		if (found & (1u << i))
			err = add_new(BLS_AUTO_EFI, os_entries[i].id, os_entries[i].title, bls_os_path(i, fw), entries,
				      n);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}
