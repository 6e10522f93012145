/* UKI addons (src/core/addon.h) as systemd-stub 254+ takes them (its
 * load_addons(), man systemd-stub): \loader\addons\*.addon.efi for every UKI,
 * then <this UKI's path>.extra.d\*.addon.efi, each directory in file name
 * order. Each is loaded by the firmware's LoadImage (under Secure Boot
 * verified against db/dbx, or by shim's hook; with a TPM measured into PCR 4
 * by the firmware), its sections read from the loaded image, and unloaded:
 * never started. One that is refused or malformed is said, by name, and left
 * out; the UKI boots without it. Their lines, global ones first, are joined
 * into one, which the caller appends to the command line and boot_verify()
 * measures into PCR 12 once, as systemd-stub does. */
#include "uki_run.h"
#include "core/addon.h"
#include "core/fmt.h"
#include "loader_vars.h"

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;

/* The addon's .cmdline, from the image the firmware loaded (and verified). */
static EFI_STATUS addon_read_loaded(EFI_HANDLE h, const char *uname, const char *path, char **ret)
{
	_cleanup_free_ struct pe_info *pe = mem_alloc(sizeof(*pe));
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_STATUS err;

	if (!pe)
		return EFI_OUT_OF_RESOURCES;
	err = BS->HandleProtocol(h, &li_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "addon %s: no loaded image: %m", path);
	err = pe_parse_loaded(li->ImageBase, li->ImageSize, path, pe);
	if (!EFI_ERROR(err))
		err = addon_parse(pe, li->ImageBase, li->ImageSize, PE_LAYOUT_MEMORY, uname, path, ret);
	return err;
}

static EFI_STATUS addon_load(EFI_HANDLE device, const char *path, const char *uname, char **ret)
{
	EFI_HANDLE h;
	EFI_STATUS err = image_load_file(device, "addon", path, &h);

	if (EFI_ERROR(err))
		return err;
	err = addon_read_loaded(h, uname, path, ret);
	BS->UnloadImage(h);
	return err;
}

/* Every addon of @dir, in name order, appended to *@line. */
static EFI_STATUS addons_from_dir(EFI_HANDLE device, EFI_FILE_PROTOCOL *root, const char *dir, const char *uname,
				  char **line)
{
	char **names = NULL;
	size_t n = 0;
	EFI_STATUS err = file_list_dir(root, dir, ADDON_SUFFIX, &names, &n);

	if (err == EFI_NOT_FOUND) /* no such directory: no addons */
		return EFI_SUCCESS;
	if (EFI_ERROR(err)) /* as systemd-stub: the UKI boots without them */
		log_warning("addons in %s: cannot list: %s, ignored", dir, efi_status_str(err));
	err = EFI_SUCCESS;
	strv_sort(names, n);
	for (size_t i = 0; i < n && !EFI_ERROR(err); i++) {
		_cleanup_free_ char *path = NULL, *add = NULL;
		char *joined;

		if (names[i][0] == '.')
			continue;
		path = fmt_asprintf("%s\\%s", dir, names[i]);
		if (!path)
			err = EFI_OUT_OF_RESOURCES;
		else if (addon_load(device, path, uname, &add) == EFI_SUCCESS) {
			joined = addon_join(*line, add);
			if (!joined)
				err = EFI_OUT_OF_RESOURCES;
			mem_free(*line);
			*line = joined;
			log_info("stub: addon %s: \"%s\"", path, add);
		}
	}
	strv_free(names, n);
	return err;
}

/* The UKI's .uname as a string (trailing blanks dropped), or NULL. */
static char *uki_uname(const struct stub_sections *s)
{
	const struct uki_blob *u = &s->uki.s[UKI_UNAME];
	size_t n = u->data ? u->size : 0;

	while (n && (u->data[n - 1] == '\n' || u->data[n - 1] == ' ' || !u->data[n - 1]))
		n--;
	return n ? fmt_asprintf("%.*s", (int)n, (const char *)u->data) : NULL;
}

EFI_STATUS stub_load_addons(const EFI_LOADED_IMAGE_PROTOCOL *li, const struct stub_sections *s, char **ret)
{
	_cleanup_free_ char *uname = uki_uname(s), *self = NULL, *dir = NULL;
	EFI_FILE_PROTOCOL *root = NULL;
	char *line = fmt_asprintf("%s", "");
	EFI_STATUS err;

	*ret = NULL;
	if (!line)
		return EFI_OUT_OF_RESOURCES;
	if (!li->DeviceHandle || file_open_root(li->DeviceHandle, &root) != EFI_SUCCESS) {
		*ret = line; /* no file system to look in: no addons, as systemd-stub */
		return EFI_SUCCESS;
	}
	err = addons_from_dir(li->DeviceHandle, root, ADDON_GLOBAL_DIR, uname, &line);
	self = image_file_path(li);
	if (!EFI_ERROR(err) && self) {
		dir = fmt_asprintf("%s%s", self, ADDON_UKI_DIR_SUFFIX);
		err = dir ? addons_from_dir(li->DeviceHandle, root, dir, uname, &line) : EFI_OUT_OF_RESOURCES;
	}
	file_close(root);
	if (EFI_ERROR(err)) {
		mem_free(line);
		return log_error_status(err, "stub: addons: %m");
	}
	*ret = line;
	return EFI_SUCCESS;
}
