/* The loader's side of a UKI's companion files (src/core/sidecar.h): it
 * does not pack them, handoff's stub does (src/stub/sidecars.c). A UKI of
 * handoff's stub that has some is started, as any other UKI, instead of
 * booted from the loader's buffer (boot_uki_applies()); the loader's own
 * size budget is why. */
#include "uki_run.h"
#include "core/array.h"
#include "core/fmt.h"

/* Linked into the loader only: the stub links src/stub/sidecars.c's. */
EFI_STATUS stub_add_sidecars(struct initrd_set *set, const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_extras *x)
{
	return EFI_SUCCESS;
}

bool uki_has_sidecars(EFI_HANDLE device, const char *path)
{
	_cleanup_free_ char *own = fmt_asprintf("%s" SIDECAR_DIR_SUFFIX, path);
	EFI_FILE_PROTOCOL *root = NULL;
	bool found = false;

	if (!own || file_open_root(device, &root) != EFI_SUCCESS)
		return false;
	for (enum sidecar_kind i = 0; i < _SIDECAR_MAX && !found; i++) {
		const struct sidecar_spec *s = sidecar_spec(i);
		char **names = NULL;
		size_t n = 0;

		if (file_list_dir(root, s->dir ? s->dir : own, s->suffix, &names, &n) == EFI_SUCCESS)
			for (size_t k = 0; k < n && !found; k++)
				found = sidecar_takes(i, names[k]);
		strv_free(names, n);
	}
	file_close(root);
	return found;
}
