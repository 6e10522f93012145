/* From a menu entry to a running kernel: read the image, choose the scheme
 * (plan_scheme), open the initrds, say what will happen, and hand over to the
 * scheme. Every failure names the entry and the file and returns to the menu. */
#include "loader.h"
#include "vars.h"
#include "boot.h"

/* An "efi" entry (or a UKI): started as an EFI application, no initrd. */
static EFI_STATUS plan_efi_app(struct boot_plan *plan, bool secure_boot)
{
	if (image_identify(plan->image, plan->image_size, plan->kernel_path, &plan->info) != EFI_SUCCESS)
		return EFI_LOAD_ERROR;
	return plan_scheme(&plan->info, SCHEME_STUB, secure_boot, plan->kernel_path, &plan->scheme);
}

static EFI_STATUS plan_linux(struct boot_plan *plan, const struct bls_entry *e, bool secure_boot)
{
	EFI_STATUS err = image_identify(plan->image, plan->image_size, plan->kernel_path, &plan->info);

	if (EFI_ERROR(err))
		return err;
	if (!plan->info.is_bz && e->protocol != SCHEME_STUB && !plan->info.is_pe)
		return log_error_status(EFI_LOAD_ERROR, "%s: not a Linux kernel image", plan->kernel_path);
	return plan_scheme(&plan->info, e->protocol, secure_boot, plan->kernel_path, &plan->scheme);
}

EFI_STATUS boot_entry(struct loader *l, const struct bls_entry *e, const char *cmdline)
{
	_cleanup_free_ uint8_t *image = NULL;
	_cleanup_free_ char *title = bls_display_title(e);
	struct initrd_set initrds = { 0 };
	struct boot_plan plan = {
		.title = title ? title : e->id,
		.kernel_path = e->kernel ? e->kernel : e->efi,
		.device = l->device,
		.cmdline = cmdline ? cmdline : (e->options ? e->options : ""),
		.initrds = &initrds,
	};
	EFI_STATUS err;

	log_info("entry '%s': loading %s", plan.title, plan.kernel_path);
	err = file_read_all(l->root, plan.kernel_path, &image, &plan.image_size);
	if (EFI_ERROR(err))
		return log_error_status(err, "entry '%s': cannot load %s", plan.title, plan.kernel_path);
	plan.image = image;
	err = e->kernel ? plan_linux(&plan, e, l->secure_boot) : plan_efi_app(&plan, l->secure_boot);
	if (EFI_ERROR(err))
		return log_error_status(err, "entry '%s': cannot boot %s", plan.title, plan.kernel_path);
	if (e->kernel) {
		err = initrd_set_add_files(&initrds, l->root, e->initrd, e->n_initrd);
		if (EFI_ERROR(err)) {
			initrd_set_close(&initrds);
			return log_error_status(err, "entry '%s': initrd missing, not booting", plan.title);
		}
	}
	log_info("booting '%s' by %s%s (%llu KiB kernel, %zu initrd, %llu KiB)", plan.title, scheme_name(plan.scheme),
		 e->protocol == SCHEME_AUTO ? " (protocol auto)" : "", (unsigned long long)(plan.image_size >> 10),
		 initrds.n, (unsigned long long)(initrds.total_size >> 10));
	loader_var_set_str(u"HandoffBootScheme", scheme_name(plan.scheme));
	loader_var_set_str(u"LoaderEntrySelected", e->id);
	loader_var_set_time(u"LoaderTimeExecUSec");
	err = boot_run(&plan);
	initrd_set_close(&initrds);
	return log_error_status(err, "entry '%s': boot by %s failed", plan.title, scheme_name(plan.scheme));
}
