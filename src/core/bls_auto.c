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
	const char *id, *title, *path[2]; /* by enum fw_arch */
} os_entries[BLS_OS_MAX] = {
	[BLS_OS_WINDOWS] = { "auto-windows", "Windows Boot Manager",
			     { BLS_WINDOWS_PATH, BLS_WINDOWS_PATH } },
	[BLS_OS_SHELL] = { "auto-efi-shell", "EFI Shell", { "/shellx64.efi", "/shellia32.efi" } },
	[BLS_OS_DEFAULT] = { "auto-efi-default", "EFI Default Loader",
			     { "/EFI/BOOT/BOOTX64.EFI", "/EFI/BOOT/BOOTIA32.EFI" } },
};

const char *bls_os_path(enum bls_os os, enum fw_arch fw)
{
	return os_entries[os].path[fw == FW_IA32];
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

EFI_STATUS bls_add_auto_entries(unsigned which, bool firmware_ui, struct bls_entry ***entries, size_t *n)
{
	if (!firmware_ui)
		which &= ~CFG_AUTO_FIRMWARE;
	for (size_t i = 0; i < ARRAY_SIZE(auto_entries); i++) {
		struct bls_entry *e;
		EFI_STATUS err;

		if (!(which & auto_entries[i].bit))
			continue;
		e = mem_zalloc(sizeof(*e));
		if (!e)
			return EFI_OUT_OF_RESOURCES;
		*e = (struct bls_entry){ .type = BLS_AUTO, .auto_action = auto_entries[i].action,
					 .id = fmt_asprintf("%s", auto_entries[i].id),
					 .title = fmt_asprintf("%s", auto_entries[i].title) };
		err = add_entry(e, e->id && e->title, entries, n);
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
		struct bls_entry *e;
		EFI_STATUS err;

		if (!(found & (1u << i)))
			continue;
		e = mem_zalloc(sizeof(*e));
		if (!e)
			return EFI_OUT_OF_RESOURCES;
		*e = (struct bls_entry){ .type = BLS_AUTO, .auto_action = BLS_AUTO_EFI,
					 .id = fmt_asprintf("%s", os_entries[i].id),
					 .title = fmt_asprintf("%s", os_entries[i].title),
					 .efi = fmt_asprintf("%s", bls_os_path(i, fw)),
					 .path = fmt_asprintf("%s", bls_os_path(i, fw)) };
		err = add_entry(e, e->id && e->title && e->efi && e->path, entries, n);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}
