/* From a menu entry to a running kernel: read the image, choose the scheme
 * (plan_scheme) and what must be verified and measured (plan_trust), open the
 * initrds, say what will happen, and hand over to the scheme. Every failure
 * names the entry and the file and returns to the menu. */
#include "loader.h"
#include "vars.h"
#include "boot.h"
#include "measure.h"
#include "core/fmt.h"

/* A "linux" entry by its protocol; an "efi" entry (or a UKI) is started as
 * an EFI application, for the firmware this loader was built for. Then what
 * must be verified and measured. */
static EFI_STATUS plan_image(struct boot_plan *plan, const struct bls_entry *e, bool secure_boot)
{
	struct trust_request r = { .img = &plan->info, .secure_boot = secure_boot, .loader_entry = true,
				   .cmdline_empty = plan->cmdline[0] == '\0' };
	EFI_STATUS err = image_identify(plan->image, plan->image_size, plan->kernel_path, &plan->info);

	if (EFI_ERROR(err))
		return err;
	err = plan_scheme_on(&plan->info, e->kernel ? e->protocol : SCHEME_STUB, FW_ARCH_NATIVE, plan->kernel_path,
			     &plan->scheme);
	if (EFI_ERROR(err))
		return err;
	r.scheme = plan->scheme;
	r.fw = FW_ARCH_NATIVE;
	r.shim = secure_boot && shim_present();
	r.tpm = tpm_present();
	return plan_trust(&r, plan->kernel_path, &plan->trust);
}

char *volume_path(const struct volume *vol, const char *path)
{
	return fmt_asprintf("%s%s%s", vol->prefix, path[0] == '/' || path[0] == '\\' ? "" : "/", path);
}

/* The entry's initrd paths on its volume. */
static char **initrd_paths(const struct volume *vol, const struct bls_entry *e)
{
	char **v = mem_zalloc((e->n_initrd + 1) * sizeof(char *));

	for (size_t i = 0; v && i < e->n_initrd; i++)
		if (!(v[i] = volume_path(vol, e->initrd[i]))) {
			strv_free(v, i);
			return NULL;
		}
	return v;
}

/* loader.conf's auto-reboot, auto-poweroff, auto-firmware (UEFI 2.10 §8.5.1). */
static EFI_STATUS run_auto_entry(const struct bls_entry *e)
{
	if (e->auto_action == BLS_AUTO_FIRMWARE)
		return reboot_into_firmware();
	RT->ResetSystem(e->auto_action == BLS_AUTO_POWEROFF ? EfiResetShutdown : EfiResetCold, EFI_SUCCESS, 0, NULL);
	return log_error_status(EFI_DEVICE_ERROR, "entry '%s': ResetSystem returned", e->id);
}

EFI_STATUS boot_entry(struct loader *l, struct bls_entry *e, const char *cmdline)
{
	const struct volume *vol = e->volume;
	_cleanup_free_ uint8_t *image = NULL;
	_cleanup_free_ char *title = bls_display_title(e);
	_cleanup_free_ char *kernel_path = NULL;
	char **initrds_on_vol = NULL;
	struct initrd_set initrds = { 0 };
	const char *why;
	struct boot_plan plan = {
		.title = title ? title : e->id,
		.device = vol->handle,
		.cmdline = cmdline ? cmdline : (e->options ? e->options : ""),
		.initrds = &initrds,
	};
	EFI_STATUS err;

	if (e->type == BLS_AUTO)
		return run_auto_entry(e);
	boot_count_bump(e); /* before anything can fail: a try is a try (UAPI.1 "Boot counting") */
	kernel_path = volume_path(vol, e->kernel ? e->kernel : e->efi);
	plan.kernel_path = kernel_path;
	if (!kernel_path)
		return EFI_OUT_OF_RESOURCES;
	log_info("entry '%s': loading %s%s%s", plan.title, plan.kernel_path, vol == l->volumes ? "" : " from ", vol == l->volumes ? "" : vol->name);
	err = file_read_all(vol->root, plan.kernel_path, &image, &plan.image_size);
	if (EFI_ERROR(err))
		return log_error_status(err, "entry '%s': cannot load %s", plan.title, plan.kernel_path);
	plan.image = image;
	err = plan_image(&plan, e, l->secure_boot);
	if (EFI_ERROR(err))
		return log_error_status(err, "entry '%s': cannot boot %s", plan.title, plan.kernel_path);
	if (plan_cmdline_locked(&plan.info, l->secure_boot) && cmdline)
		log_warning("entry '%s': the edited command line is not used: Secure Boot locks the .cmdline of %s",
			    plan.title, plan.kernel_path);
	if (e->n_initrd && !plan_initrds_allowed(&plan.info, &why))
		log_warning("entry '%s': initrd lines ignored: %s", plan.title, why);
	else if (e->kernel) {
		initrds_on_vol = initrd_paths(vol, e);
		err = initrds_on_vol ? initrd_set_add_files(&initrds, vol->root, initrds_on_vol, e->n_initrd) : EFI_OUT_OF_RESOURCES;
		if (EFI_ERROR(err)) {
			initrd_set_close(&initrds);
			strv_free(initrds_on_vol, e->n_initrd);
			return log_error_status(err, "entry '%s': initrd missing, not booting", plan.title);
		}
	}
	log_info("booting '%s' by %s%s (%llu KiB kernel, %zu initrd, %llu KiB)%s%s", plan.title, scheme_name(plan.scheme),
		 e->protocol == SCHEME_AUTO ? " (protocol auto)" : "", (unsigned long long)(plan.image_size >> 10),
		 initrds.n, (unsigned long long)(initrds.total_size >> 10),
		 plan.trust.verify != VERIFY_NONE ? ", to be verified by " : "", plan.trust.verify != VERIFY_NONE ? verifier_name(plan.trust.verify) : "");
	loader_var_set_str(u"HandoffBootScheme", scheme_name(plan.scheme));
	loader_save_selected(l, e);
	loader_var_set_time(u"LoaderTimeExecUSec");
	err = boot_run(&plan);
	initrd_set_close(&initrds);
	strv_free(initrds_on_vol, e->n_initrd);
	return log_error_status(err, "entry '%s': boot by %s failed", plan.title, scheme_name(plan.scheme));
}
