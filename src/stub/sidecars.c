/* A UKI's companion files (src/core/sidecar.h): credentials, system and
 * configuration extensions from <UKI>.extra.d\ and \loader\credentials\,
 * each kind packed into one cpio archive in the initrd's /.extra, as
 * systemd-stub's pack_cpio() does (files in name order; one that cannot be
 * read is said and left out). Each archive is measured whole, after the
 * command line (boot_verify()). The stub's alone: the loader starts a UKI
 * that has companion files (src/efi/uki_sidecars.c) rather than boot it from
 * its buffer, so that it does not carry this code. */
#include "efi/uki_run.h"
#include "core/array.h"
#include "core/cpio.h"
#include "core/fmt.h"
#include "efi/loader_vars.h"

/* The files of @kind in @dir, read and packed into *@ret (NULL: none). */
static EFI_STATUS sidecar_pack(EFI_FILE_PROTOCOL *root, const char *dir, enum sidecar_kind kind, uint8_t **ret,
			       size_t *ret_size)
{
	const struct sidecar_spec *s = sidecar_spec(kind);
	struct cpio_file *files = NULL;
	char **names = NULL;
	size_t n = 0, k = 0;
	EFI_STATUS err = file_list_dir(root, dir, s->suffix, &names, &n);

	if (err == EFI_NOT_FOUND) /* no such directory: nothing to take */
		return EFI_SUCCESS;
	if (EFI_ERROR(err)) /* as systemd-stub: the UKI boots without them */
		log_warning("%s: cannot list: %s, ignored", dir, efi_status_str(err));
	strv_sort(names, n);
	files = n ? mem_zalloc(n * sizeof(*files)) : NULL;
	for (size_t i = 0; i < n && files; i++) {
		_cleanup_free_ char *path = fmt_asprintf("%s\\%s", dir, names[i]);
		uint8_t *data;

		if (!sidecar_takes(kind, names[i]) || !path ||
		    file_read_all(root, path, UINT32_MAX, &data, &files[k].size) != EFI_SUCCESS)
			continue; /* file_read_all() said why */
		files[k].name = names[i];
		files[k++].data = data;
	}
	err = n && !files ? EFI_OUT_OF_RESOURCES : EFI_SUCCESS;
	if (k)
		err = cpio_archive(s->target, s->dir_mode, s->file_mode, files, k, ret, ret_size);
	for (size_t i = 0; i < k; i++)
		mem_free((void *)files[i].data);
	mem_free(files);
	strv_free(names, n);
	return err;
}

EFI_STATUS stub_add_sidecars(struct initrd_set *set, const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_extras *x)
{
	_cleanup_free_ char *self = image_file_path(li), *own = NULL;
	EFI_FILE_PROTOCOL *root = NULL;
	EFI_STATUS err = EFI_SUCCESS;

	if (!li->DeviceHandle || file_open_root(li->DeviceHandle, &root) != EFI_SUCCESS)
		return EFI_SUCCESS; /* no file system to look in: none, as systemd-stub */
	own = self ? fmt_asprintf("%s" SIDECAR_DIR_SUFFIX, self) : NULL;
	for (enum sidecar_kind i = 0; i < _SIDECAR_MAX && !EFI_ERROR(err); i++) {
		const struct sidecar_spec *s = sidecar_spec(i);
		const char *dir = s->dir ? s->dir : own;

		if (dir)
			err = sidecar_pack(root, dir, i, &x->buf[i], &x->size[i]);
		if (!EFI_ERROR(err) && x->buf[i]) {
			x->measure[x->n_measure++] = (struct boot_measure){ s->pcr, s->desc, x->buf[i], x->size[i] };
			err = initrd_set_add_data(set, s->target, x->buf[i], x->size[i]);
		}
	}
	file_close(root);
	return err;
}
