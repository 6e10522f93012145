/* handoff-stub.efi: started by firmware or a loader, it boots the kernel it
 * carries. Command line: the embedded .cmdline, overridden by LoadOptions only
 * when Secure Boot is off (the signed image decides otherwise;
 * cmdline_for_stub). Initrds: the embedded one, then a loader's LoadFile2
 * initrd or, when no loader offers one, the initrd= files from the stub's
 * volume; under Secure Boot a UKI with .initrd or .cmdline takes none from
 * outside. (systemd-boot names its initrds in initrd= and serves the same
 * bytes by LoadFile2; Linux's own stub also takes LoadFile2 over initrd=.) The
 * kernel starts by its own EFI stub when it has one, else by handover, else by
 * legacy boot: the loader's schemes, one code path. */
#include "stub.h"
#include "core/cmdline.h"
#include "efi/measure.h"
#include <efi/proto/loaded_image.h>

static EFI_STATUS add_cmdline_initrds(struct initrd_set *set, const EFI_LOADED_IMAGE_PROTOCOL *li,
				      const char *cmdline, EFI_FILE_PROTOCOL **ret_root, char ***paths, size_t *n)
{
	EFI_STATUS err = cmdline_initrd_paths(cmdline, paths, n);

	if (EFI_ERROR(err) || *n == 0)
		return err;
	err = file_open_root(li->DeviceHandle, ret_root);
	if (EFI_ERROR(err))
		return log_error_status(err, "initrd= given, but the stub's volume cannot be read");
	return initrd_set_add_files(set, *ret_root, *paths, *n);
}

/* Auto choice for the embedded kernel, from @first on. A wrapped bzImage's PE
 * header is this stub itself, so its stub scheme would start us again: skip
 * it. The embedded kernel was verified with this whole image by whoever
 * started it, so it is "preverified" (src/core/trust.h): under Secure Boot
 * nothing is verified again, but the stub scheme's LoadImage may still be
 * refused by a firmware that does not trust the kernel on its own. */
static EFI_STATUS choose_scheme(struct boot_plan *plan, size_t first, bool secure_boot)
{
	static const enum boot_scheme order[] = { SCHEME_STUB, SCHEME_HANDOVER, SCHEME_LEGACY };
	struct trust_request r = { .img = &plan->info, .secure_boot = secure_boot, .tpm = tpm_present(), .preverified = true };

	for (size_t i = first; i < ARRAY_SIZE(order); i++)
		if (scheme_supported(&plan->info, order[i], NULL)) {
			plan->scheme = r.scheme = order[i];
			return plan_trust(&r, plan->kernel_path, &plan->trust);
		}
	return log_error_status(EFI_UNSUPPORTED, "stub: the embedded kernel has no usable entry (no EFI stub, handover or 64-bit entry)");
}

/* The firmware refused to LoadImage the embedded kernel on its own: boot the
 * same (already verified) bytes by the next scheme. */
static EFI_STATUS boot_embedded(struct boot_plan *plan, bool secure_boot)
{
	EFI_STATUS err = boot_run(plan);

	if ((err != EFI_SECURITY_VIOLATION && err != EFI_ACCESS_DENIED) || plan->scheme != SCHEME_STUB)
		return err;
	err = choose_scheme(plan, 1, secure_boot);
	if (EFI_ERROR(err))
		return err;
	log_info("stub: booting the embedded kernel by %s, covered by this image's signature", scheme_name(plan->scheme));
	return boot_run(plan);
}

/* Under Secure Boot a UKI that carries its own .initrd or .cmdline is a sealed
 * unit: an initrd from outside (a loader's LoadFile2, initrd= files) would run
 * unverified code as /init, so none is taken and the loader's is hidden from
 * the kernel too. Said once, so that a missing initrd is not a mystery. */
static bool outside_initrds_refused(const struct stub_sections *s, bool secure_boot, struct lf2_foreign *hidden)
{
	if (plan_stub_takes_outside_initrds(secure_boot, s->initrd.size != 0, s->has_cmdline))
		return false;
	if (initrd_lf2_hide_foreign(hidden))
		log_warning("stub: Secure Boot: the initrd offered by the loader is not used: this image carries its own %s",
			    s->initrd.size ? ".initrd" : ".cmdline");
	return true;
}

static EFI_STATUS stub_boot(const EFI_LOADED_IMAGE_PROTOCOL *li, const EFI_DEVICE_PATH_PROTOCOL *self_dp)
{
	struct stub_sections s;
	struct initrd_set initrds = { 0 };
	struct lf2_foreign foreign = { 0 };
	EFI_FILE_PROTOCOL *root = NULL;
	char **paths = NULL;
	size_t n_paths = 0;
	uint8_t *loader_initrd = NULL;
	uint64_t loader_initrd_size = 0;
	_cleanup_free_ char *cmdline = NULL;
	struct boot_plan plan = { .title = "stub", .kernel_path = "embedded kernel", .device = li->DeviceHandle,
				  .devpath = self_dp, .initrds = &initrds };
	bool secure_boot = secure_boot_enabled();
	EFI_STATUS err;

	err = stub_find_sections(li, &s);
	if (EFI_ERROR(err))
		return err;
	stub_measure_sections(&s);
	cmdline = cmdline_for_stub(li->LoadOptions, li->LoadOptionsSize, s.has_cmdline ? s.cmdline.data : NULL,
				   s.cmdline.size, secure_boot);
	if (!cmdline)
		return EFI_OUT_OF_RESOURCES;
	plan.cmdline = cmdline;
	plan.image = s.linux.data;
	plan.image_size = s.linux.size;
	err = image_identify(s.linux.data, s.linux.size, plan.kernel_path, &plan.info);
	if (!EFI_ERROR(err))
		err = choose_scheme(&plan, s.wrapped ? 1 : 0, secure_boot);
	if (!EFI_ERROR(err) && s.initrd.size)
		err = initrd_set_add_data(&initrds, ".initrd section", s.initrd.data, s.initrd.size);
	if (!EFI_ERROR(err) && !outside_initrds_refused(&s, secure_boot, &foreign)) {
		if (initrd_lf2_take_foreign(&loader_initrd, &loader_initrd_size, &foreign) == EFI_SUCCESS)
			err = initrd_set_add_data(&initrds, "loader's initrd", loader_initrd, loader_initrd_size);
		else
			err = add_cmdline_initrds(&initrds, li, cmdline, &root, &paths, &n_paths);
	}
	if (!EFI_ERROR(err)) {
		log_info("stub: booting the embedded kernel by %s (%zu initrd, %llu KiB)", scheme_name(plan.scheme),
			 initrds.n, (unsigned long long)(initrds.total_size >> 10));
		err = boot_embedded(&plan, secure_boot);
	}
	initrd_set_close(&initrds);
	initrd_lf2_restore_foreign(&foreign);
	pages_free((uintptr_t)loader_initrd, loader_initrd_size);
	strv_free(paths, n_paths);
	file_close(root);
	return err;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
	static EFI_GUID li_dp_guid = EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;
	EFI_LOADED_IMAGE_PROTOCOL *li;
	EFI_DEVICE_PATH_PROTOCOL *self_dp = NULL;
	EFI_STATUS err;

	efi_init(image, systab);
	err = BS->HandleProtocol(image, &li_guid, (void **)&li);
	if (EFI_ERROR(err))
		return log_error_status(err, "stub: no loaded image protocol: %s", efi_status_str(err));
	if (BS->HandleProtocol(image, &li_dp_guid, (void **)&self_dp) != EFI_SUCCESS)
		self_dp = NULL;
	err = stub_boot(li, self_dp);
	return log_error_status(err, "stub: boot failed: %s", efi_status_str(err));
}
