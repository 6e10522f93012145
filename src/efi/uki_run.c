/* What handoff's stub does with a UKI's sections (or a wrapped kernel), from
 * inside the image the firmware started (src/stub/main.c) or, for a UKI whose
 * stub is handoff's own, from the loader's read buffer (src/efi/boot_uki.c):
 * one code path, the sections read by their RVAs or their file offsets.
 * A loader chooses the profile of a multi-profile UKI by "@N" before the
 * LoadOptions' line (systemd-stub(7)); then the sections are that profile's.
 * Command line: the embedded .cmdline, overridden by LoadOptions only
 * when Secure Boot is off (the signed image decides otherwise;
 * cmdline_for_stub), then the UKI's addons' and the host's SMBIOS extras.
 * Initrds: .ucode, the embedded one, then a loader's LoadFile2
 * initrd or, when no loader offers one, the initrd= files from the stub's
 * volume; under Secure Boot a UKI with .initrd or .cmdline takes none from
 * outside. (systemd-boot names its initrds in initrd= and serves the same
 * bytes by LoadFile2; Linux's own stub also takes LoadFile2 over initrd=.) The
 * kernel starts by its own EFI stub when it has one, else by handover, else by
 * legacy boot: the loader's schemes, one code path. */
#include "uki_run.h"
#include "devicetree.h"
#include "core/addon.h"
#include "core/cmdline.h"
#include "core/smbios.h"
#include "measure.h"
#include <efi/proto/loaded_image.h>

/* What the stub takes from outside its image, released after the boot. */
struct stub_outside {
	struct lf2_foreign foreign;  /* the loader's initrd, unregistered while we boot */
	EFI_FILE_PROTOCOL *root;     /* the volume of initrd= files */
	char **paths;
	size_t n_paths;
};

static void stub_outside_release(struct stub_outside *o)
{
	initrd_lf2_restore_foreign(&o->foreign);
	strv_free(o->paths, o->n_paths);
	file_close(o->root);
}

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

/* The embedded kernel was verified with this whole image by whoever started
 * it ("preverified", src/core/trust.h). A wrapped bzImage's PE entry is this
 * stub itself, so the stub scheme would start us again: @no_stub. After the
 * firmware refused to load it, PCR 4 has it already (@pcr4_done). */
static EFI_STATUS plan_embedded(struct boot_job *job, bool no_stub, const struct sb_vars *sb, bool pcr4_done,
				bool initrd_in_memory)
{
	struct boot_request r = {
		.img = &job->info, .image_size = job->image_size, .requested = SCHEME_AUTO, .fw = FW_ARCH_NATIVE,
		.no_stub = no_stub, .cmdline_len = strlen(job->cmdline), .initrd_size = job->initrds->total_size,
		.secure_boot = sb_enforced(sb), .sb_mode = sb_mode(sb), .tpm = tpm_present(), .preverified = true,
		.pcr4_done = pcr4_done, .cmdline_outside = job->cmdline_outside, .initrd_in_memory = initrd_in_memory,
	};

	return plan_boot(&r, job->kernel_path, &job->plan);
}

/* A wrapped kernel is in two pieces (wrap.h): planned from its head, then
 * put together once, in its final pages, so linux_load() copies nothing. */
static EFI_STATUS place_wrapped(struct boot_job *job, const struct stub_sections *s, const struct sb_vars *sb)
{
	size_t total = s->head.size + s->body.size, head_len = MIN(total, (size_t)BZ_HEAD_MAX);
	_cleanup_free_ uint8_t *head = mem_alloc(head_len);
	uint8_t *dst;
	EFI_STATUS err;

	if (!head)
		return EFI_OUT_OF_RESOURCES;
	memcpy(head, s->head.data, MIN(head_len, s->head.size));
	if (head_len > s->head.size)
		memcpy(head + s->head.size, s->body.data, head_len - s->head.size);
	job->image_size = total;
	err = image_identify_head(head, head_len, total, job->kernel_path, &job->info);
	if (!EFI_ERROR(err))
		err = plan_embedded(job, /* no_stub= */ true, sb, /* pcr4_done= */ false, false);
	if (!EFI_ERROR(err))
		err = kernel_region_alloc(&job->plan.kernel, job->info.bz.setup_size, job->kernel_path, &job->region);
	if (EFI_ERROR(err))
		return err;
	dst = (uint8_t *)(uintptr_t)(job->region.kernel_addr - job->info.bz.setup_size);
	memcpy(dst, s->head.data, s->head.size);
	memcpy(dst + s->head.size, s->body.data, s->body.size);
	job->image = dst;
	return image_identify(dst, total, job->kernel_path, &job->info);
}

/* From the loader's buffer (PE_LAYOUT_FILE), a lone .initrd is already where
 * the kernel can take it (plan_boot(): handover first). Started by firmware,
 * the stub starts the kernel as systemd-stub does. */
static EFI_STATUS plan_kernel(struct boot_job *job, const struct stub_sections *s, const struct sb_vars *sb,
			      enum pe_layout layout)
{
	bool in_memory = layout == PE_LAYOUT_FILE && job->initrds->n == 1 && job->initrds->files[0].data;
	EFI_STATUS err;

	if (s->wrapped && FW_ARCH_NATIVE != FW_AA64) /* a bzImage (wrap.h): x86's; on AArch64 below, refused */
		return place_wrapped(job, s, sb);
	job->image = s->linux.data;
	job->image_size = s->linux.size;
	err = image_identify(job->image, job->image_size, job->kernel_path, &job->info);
	return EFI_ERROR(err) ? err : plan_embedded(job, /* no_stub= */ false, sb, /* pcr4_done= */ false, in_memory);
}

/* The firmware refused to LoadImage the embedded kernel on its own: boot the
 * same (already verified) bytes by the next scheme. image_verify() has put it
 * into PCR 4 before it said so (LOAD_FALLBACK, src/core/trust.h). */
static EFI_STATUS boot_embedded(struct boot_job *job, const struct sb_vars *sb)
{
	EFI_STATUS err = boot_run(job);

	if ((err != EFI_SECURITY_VIOLATION && err != EFI_ACCESS_DENIED) || !job->plan.trust.refusal_falls_back)
		return err;
	err = plan_embedded(job, /* no_stub= */ true, sb, /* pcr4_done= */ true, false);
	if (EFI_ERROR(err))
		return err;
	log_info("stub: booting the embedded kernel by %s, covered by this image's signature",
		 scheme_name(job->plan.scheme));
	return boot_run(job);
}

/* Under Secure Boot a UKI that carries its own .initrd or .cmdline is a sealed
 * unit: an initrd from outside (a loader's LoadFile2, initrd= files) would run
 * unverified code as /init, so none is taken and the loader's is hidden from
 * the kernel too (its EFI stub would take it, on handover too). Said once, so
 * that a missing initrd is not a mystery; one that cannot be hidden stops the
 * boot (issue 21). */
static EFI_STATUS hide_outside_initrd(const struct stub_sections *s, struct lf2_foreign *hidden)
{
	const char *own = s->initrd.size ? ".initrd" : ".cmdline";
	EFI_STATUS err = initrd_lf2_hide_foreign(hidden);

	if (err == EFI_NOT_FOUND)
		return EFI_SUCCESS;
	if (EFI_ERROR(err))
		return log_error_status(err, "stub: Secure Boot: not booting this image, which carries its own %s, "
					"with the loader's initrd in reach of its kernel", own);
	log_warning("stub: Secure Boot: the initrd offered by the loader is not used: this image carries its own %s",
		    own);
	return EFI_SUCCESS;
}

/* Initrds in order: .ucode (the kernel's early microcode loader reads the
 * uncompressed cpio archives at the start of the initrd and stops at the
 * first other one: systemd-stub puts it first), the embedded one, then a
 * loader's (LoadFile2) or, when no loader offers one, the initrd= files;
 * none from outside when sealed. */
static EFI_STATUS gather_initrds(struct initrd_set *set, const struct stub_sections *s,
				 const EFI_LOADED_IMAGE_PROTOCOL *li, const char *cmdline, bool secure_boot,
				 struct stub_outside *o)
{
	EFI_STATUS err = EFI_SUCCESS;

	if (s->ucode.size)
		err = initrd_set_add_data(set, ".ucode section", s->ucode.data, s->ucode.size);
	if (!EFI_ERROR(err) && s->initrd.size)
		err = initrd_set_add_data(set, ".initrd section", s->initrd.data, s->initrd.size);
	if (EFI_ERROR(err))
		return err;
	if (!plan_stub_takes_outside_initrds(secure_boot, s->initrd.size != 0, s->has_cmdline))
		return hide_outside_initrd(s, &o->foreign);
	err = initrd_set_add_foreign(set, &o->foreign);
	if (err == EFI_NOT_FOUND)
		err = add_cmdline_initrds(set, li, cmdline, &o->root, &o->paths, &o->n_paths);
	return err;
}

EFI_STATUS uki_run(const EFI_LOADED_IMAGE_PROTOCOL *li, const EFI_DEVICE_PATH_PROTOCOL *self_dp, enum pe_layout layout)
{
	_cleanup_(stub_outside_release) struct stub_outside o = { 0 };
	_cleanup_(stub_extras_free) struct stub_extras extras = { 0 };
	_cleanup_(initrd_set_close) struct initrd_set initrds = { 0 };
	_cleanup_(dt_restore) struct dt_table dt = { 0 };
	_cleanup_free_ char *cmdline = NULL, *addons = NULL, *full = NULL, *smbios = NULL, *fuller = NULL;
	_cleanup_(boot_job_release) struct boot_job job = { .title = "stub", .kernel_path = "embedded kernel",
							    .device = li->DeviceHandle, .devpath = self_dp,
							    .initrds = &initrds };
	struct stub_sections s;
	struct sb_vars sb;
	bool secure_boot;
	EFI_STATUS err;
	/* "@N ": the profile of a multi-profile UKI (systemd-boot's way), the rest the line */
	const uint8_t *opts = li->LoadOptions;
	size_t opts_size = opts ? li->LoadOptionsSize : 0;
	uint32_t profile = uki_profile_from_options(&opts, &opts_size);

	secure_boot_read(&sb);
	secure_boot = sb_enforced(&sb);
	err = stub_find_sections(li, layout, profile, &s);
	if (!EFI_ERROR(err) && s.wrapped) { /* Linux's stub knows no profiles */
		opts = li->LoadOptions;
		opts_size = li->LoadOptionsSize;
		profile = 0;
	}
	if (!EFI_ERROR(err))
		err = stub_measure_sections(&s, profile);
	if (EFI_ERROR(err))
		return err;
	cmdline = cmdline_for_stub(opts, opts_size, s.has_cmdline ? s.cmdline.data : NULL, s.cmdline.size,
				   secure_boot);
	if (!cmdline)
		return EFI_OUT_OF_RESOURCES;
	job.cmdline = cmdline;
	if (!s.wrapped) { /* addons extend a UKI's line, whichever it is (systemd-stub) */
		err = stub_load_addons(li, &s, &addons);
		if (EFI_ERROR(err))
			return err;
		if (*addons && !(job.cmdline = full = addon_join(cmdline, addons)))
			return EFI_OUT_OF_RESOURCES;
		job.cmdline_addons = addons;
		/* then the host's io.systemd.stub.kernel-cmdline-extra, as systemd-stub */
		smbios = smbios_cmdline(SMBIOS_STUB_CMDLINE_EXTRA);
		if (smbios && !(job.cmdline = fuller = addon_join(job.cmdline, smbios)))
			return EFI_OUT_OF_RESOURCES;
		job.cmdline_smbios = smbios;
	}
	/* A UKI measures the LoadOptions it takes into PCR 12, as systemd-stub; a
	 * wrapped bzImage stands in for Linux's own stub, which measures PCR 9 only. */
	job.cmdline_outside = !s.wrapped && cmdline_stub_takes_load_options(opts, opts_size, s.has_cmdline,
									     secure_boot);
	err = gather_initrds(&initrds, &s, li, cmdline, secure_boot, &o);
	if (!EFI_ERROR(err) && !s.wrapped) /* credentials and extensions, as systemd-stub */
		err = stub_add_sidecars(&initrds, li, &extras);
	if (!EFI_ERROR(err))
		err = stub_add_extras(&initrds, &s, &extras);
	job.measure_after = extras.measure;
	job.n_measure_after = extras.n_measure;
	if (!EFI_ERROR(err))
		err = plan_kernel(&job, &s, &sb, layout);
	if (!EFI_ERROR(err) && s.uki.s[UKI_DTB].size) /* as systemd-stub; AArch64 only (devicetree.h) */
		err = dt_install(s.uki.s[UKI_DTB].data, s.uki.s[UKI_DTB].size, "stub: .dtb section", &dt);
	if (EFI_ERROR(err))
		return err;
	if (!s.wrapped) /* a UKI: what systemd-stub tells the system */
		stub_export_variables(li, tpm_present(),
				      tpm_present() && (job.plan.trust.measure_pcr12 || *addons || smbios || profile ||
							extras.buf[SIDECAR_CREDENTIALS] ||
							extras.buf[SIDECAR_GLOBAL_CREDENTIALS]),
				      &extras, profile);
	log_info("stub: booting the embedded kernel by %s (%zu initrd, %llu KiB)", scheme_name(job.plan.scheme),
		 initrds.n, (unsigned long long)(initrds.total_size >> 10));
	return boot_embedded(&job, &sb);
}
