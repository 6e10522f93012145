/* Boot counting (UAPI.1 Boot Loader Specification "Boot counting", systemd's
 * Boot Loader Interface "LoaderBootCountPath"): just before an entry whose
 * file name ends in "+LEFT[-DONE]" boots, it is renamed to one try less
 * (src/core/bls_count.c) through EFI_FILE_PROTOCOL.SetInfo (UEFI 2.10
 * §13.5.14), and LoaderBootCountPath tells the OS the new name so that
 * systemd-bless-boot can drop the counter after a good boot. handoff's ext4
 * driver is read-only: such entries boot uncounted, with a warning. */
#include "loader.h"
#include "loader_vars.h"
#include "core/bls_count.h"
#include "core/fmt.h"

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

/* The file name part of @path ('/' separated, as the loader builds paths). */
static const char *base_name(const char *path)
{
	const char *b = path;

	for (const char *p = path; *p; p++)
		if (*p == '/' || *p == '\\')
			b = p + 1;
	return b;
}

/* SetInfo with the same EFI_FILE_INFO and another FileName renames the
 * file in its directory. */
static EFI_STATUS rename_file(EFI_FILE_PROTOCOL *f, const char *new_name)
{
	_cleanup_free_ CHAR16 *name16 = str8_to_16(new_name, /* path= */ false);
	_cleanup_free_ EFI_FILE_INFO *old = NULL, *info = NULL;
	size_t size;
	EFI_STATUS err;

	if (!name16)
		return EFI_OUT_OF_RESOURCES;
	err = file_info(f, &old);
	if (EFI_ERROR(err))
		return err;
	size = sizeof(*info) + (strlen16(name16) + 1) * sizeof(CHAR16);
	info = mem_alloc(size);
	if (!info)
		return EFI_OUT_OF_RESOURCES;
	memcpy(info, old, sizeof(*info));
	memcpy(info->FileName, name16, size - sizeof(*info));
	info->Size = size;
	err = f->SetInfo(f, &file_info_guid, size, info);
	if (!EFI_ERROR(err))
		err = f->Flush(f);
	return err;
}

/* LoaderBootCountPath: the new path from the partition's root, '\'-separated. */
static void set_count_path(const char *new_path)
{
	_cleanup_free_ char *p = fmt_asprintf("%s", new_path);

	for (char *c = p; c && *c; c++)
		if (*c == '/')
			*c = '\\';
	if (p)
		loader_var_set_str(u"LoaderBootCountPath", p);
}

void boot_count_bump(struct bls_entry *e)
{
	const struct volume *vol = e->volume;
	const char *name = base_name(e->path), *suffix = e->type == BLS_TYPE2 ? ".efi" : ".conf";
	_cleanup_free_ char *next = NULL, *new_path = NULL;
	EFI_FILE_PROTOCOL *f;
	struct bls_counter c;
	EFI_STATUS err;

	if (!e->counted)
		return;
	bls_count_parse(name, suffix, &c);
	next = bls_count_next_name(name, &c);
	new_path = next ? fmt_asprintf("%.*s%s", (int)(name - e->path), e->path, next) : NULL;
	if (!new_path)
		return;
	err = file_open_rw(vol->root, e->path, &f);
	if (err == EFI_WRITE_PROTECTED || err == EFI_ACCESS_DENIED) {
		log_warning("entry '%s': %s is on a read-only volume (%s): booting without boot counting", e->id,
			    e->path, vol->name);
		return;
	}
	if (!EFI_ERROR(err)) {
		err = rename_file(f, next);
		file_close(f);
	}
	if (EFI_ERROR(err)) {
		log_status(LOG_WARNING, err, "entry '%s': cannot rename %s to %s: %m; booting without boot counting",
			   e->id, e->path, next);
		return;
	}
	set_count_path(new_path);
	if (e->type == BLS_TYPE2) { /* the UKI itself was renamed */
		mem_free(e->efi);
		e->efi = fmt_asprintf("%s", new_path + strlen(vol->prefix));
	}
	mem_free(e->path);
	e->path = TAKE_PTR(new_path);
}
