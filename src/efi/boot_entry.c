/* From a menu entry to a running kernel, in the order docs/design.md "The
 * boot flow" gives: open the kernel and read its head, open the initrds,
 * plan everything (plan_boot, before any allocation), read the kernel once
 * (into its final pages when handoff places it), say what will happen, and
 * hand over to the scheme. Every failure names the entry and the file and
 * returns to the menu. */
#include "loader.h"
#include "loader_vars.h"
#include "arch.h"
#include "devicetree.h"
#include "measure.h"
#include "net.h"
#include "core/bootopt.h"
#include "core/cpio.h"
#include "core/fmt.h"
#include "core/fwquirk.h"
#include "core/initrd_layout.h"
#include "core/addon.h"
#include "core/smbios.h"

#define KERNEL_FILE_MAX (2ull << 30) /* no kernel or UKI is near this */

/* The kernel file, open, with its size and head (setup area, PE headers). */
struct kernel_file {
	EFI_FILE_PROTOCOL *f;
	uint64_t size;
	uint8_t *head;
	size_t head_len;
};

static void kernel_file_close(struct kernel_file *k)
{
	file_close(k->f);
	mem_free(k->head);
	*k = (struct kernel_file){ 0 };
}

/* The kernel or UKI @path on @root, or for a "uki-url" entry (@url) the
 * UKI the firmware's HTTP Boot fetched (net_uri.c), read as a file. */
static EFI_STATUS kernel_file_open(EFI_FILE_PROTOCOL *root, const char *path, const char *url, struct kernel_file *ret)
{
	struct kernel_file k = { 0 };
	uint8_t *data;
	uint64_t size;
	EFI_STATUS err;

	if (url) {
		err = net_uri_fetch(url, &data, &size);
		if (!EFI_ERROR(err) && !(k.f = net_mem_file(fmt_asprintf("%s", url), data, size)))
			err = EFI_OUT_OF_RESOURCES;
	} else
		err = file_open(root, path, &k.f);
	if (EFI_ERROR(err))
		return url ? err : log_error_status(err, "%s: cannot open: %m", path);
	err = file_size(k.f, &k.size);
	if (EFI_ERROR(err))
		log_error_status(err, "%s: cannot get size: %m", path);
	else if (k.size >= KERNEL_FILE_MAX)
		err = log_error_status(EFI_BAD_BUFFER_SIZE, "%s: %llu bytes, too large to load", path,
				       (unsigned long long)k.size);
	else {
		k.head_len = (size_t)MIN(k.size, (uint64_t)BZ_HEAD_MAX);
		k.head = mem_alloc(k.head_len);
		err = k.head ? file_read_exact(k.f, k.head, k.head_len, path) : EFI_OUT_OF_RESOURCES;
	}
	if (EFI_ERROR(err)) {
		kernel_file_close(&k);
		return err;
	}
	*ret = k;
	return EFI_SUCCESS;
}

/* The whole file, read once: into the kernel's region when the plan places
 * the kernel for handover or legacy (its protected-mode part lands at its
 * final address), else into pool memory. A kernel that is not relocatable
 * and not moved after the exit goes to pool memory too: its region is then
 * asked for at pref_address exactly, without the setup area below it
 * (linux_load()). The plan was made from the head, so the head read again
 * must be the same bytes. */
static EFI_STATUS kernel_file_read(struct boot_job *job, struct kernel_file *k, uint8_t **ret_pool)
{
	const struct kernel_layout *lay = &job->plan.kernel;
	/* a UKI's .initrd on a page boundary: the kernel can take it where it is read (linux_load.c) */
	const struct pe_section *initrd = job->info.is_pe ? pe_find_section(&job->info.pe, ".initrd") : NULL;
	uint8_t *buf;
	EFI_STATUS err;

	/* handoff places x86 kernels only (AArch64 boots by the stub): not linked there */
	if (FW_ARCH_NATIVE != FW_AA64 && job->plan.place_kernel && job->plan.scheme != SCHEME_STUB &&
	    (lay->relocatable || lay->move_after_exit)) {
		err = kernel_region_alloc(&job->plan.kernel, job->info.bz.setup_size, job->kernel_path, &job->region);
		if (EFI_ERROR(err))
			return err;
		buf = (uint8_t *)(uintptr_t)(job->region.kernel_addr - job->info.bz.setup_size);
	} else if (!(buf = *ret_pool = mem_alloc(k->size + 1 + (initrd ? EFI_PAGE_SIZE : 0)))) /* < KERNEL_FILE_MAX */
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: no memory for %llu bytes", job->kernel_path,
					(unsigned long long)k->size);
	else if (initrd)
		buf += initrd_page_shift((uintptr_t)buf, initrd->raw_offset);
	err = k->f->SetPosition(k->f, 0);
	if (!EFI_ERROR(err))
		err = file_read_exact(k->f, buf, k->size, job->kernel_path);
	if (!EFI_ERROR(err) && memcmp(buf, k->head, k->head_len) != 0)
		err = log_error_status(EFI_VOLUME_CORRUPTED, "%s: changed while it was being read", job->kernel_path);
	if (!EFI_ERROR(err))
		err = image_identify(buf, (size_t)k->size, job->kernel_path, &job->info);
	job->image = buf;
	job->image_size = (size_t)k->size;
	return err;
}

static char *volume_path(const struct volume *vol, const char *path)
{
	return fmt_asprintf("%s%s%s", vol->prefix, path[0] == '/' || path[0] == '\\' ? "" : "/", path);
}

/* The entry's initrd paths on its volume, freed by initrd_paths_free(). */
struct initrd_paths {
	char **v;
	size_t n;
};

static void initrd_paths_free(struct initrd_paths *p)
{
	strv_free(p->v, p->n);
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

/* loader.conf's auto-reboot, auto-poweroff, auto-firmware (UEFI 2.10 §8.5.1)
 * and the Secure Boot key sets. */
static EFI_STATUS run_auto_entry(const struct loader *l, const struct bls_entry *e)
{
	if (e->auto_action == BLS_AUTO_SB_KEYS)
		return sb_enroll(l, e->path);
	if (e->auto_action == BLS_AUTO_FIRMWARE)
		return reboot_into_firmware();
	RT->ResetSystem(e->auto_action == BLS_AUTO_POWEROFF ? EfiResetShutdown : EfiResetCold, EFI_SUCCESS, 0, NULL);
	return log_error_status(EFI_DEVICE_ERROR, "entry '%s': ResetSystem returned", e->id);
}

static EFI_STATUS open_initrds(const struct volume *vol, const struct bls_entry *e, const struct boot_job *job,
				char ***ret_paths, struct initrd_set *set)
{
	const char *why;

	if (e->n_initrd && !plan_initrds_allowed(&job->info, &why)) {
		log_warning("initrd lines ignored: %s", why);
		return EFI_SUCCESS;
	}
	if (!e->kernel)
		return EFI_SUCCESS;
	*ret_paths = initrd_paths(vol, e);
	if (!*ret_paths)
		return log_error_status(EFI_OUT_OF_RESOURCES, "no memory for the initrd paths");
	return initrd_set_add_files(set, vol->root, *ret_paths, e->n_initrd);
}

/* A "linux" entry by its protocol; an "efi" entry (or a UKI) as an EFI
 * application for the firmware this loader was built for. */
static EFI_STATUS plan_entry(struct boot_job *job, const struct bls_entry *e, const struct kernel_file *k,
			     const struct loader *l, bool uki_direct)
{
	struct boot_request r = {
		.img = &job->info,
		.image_size = (size_t)k->size,
		.requested = e->kernel ? e->protocol : SCHEME_STUB,
		.fw = FW_ARCH_NATIVE,
		.cmdline_len = strlen(job->cmdline),
		.initrd_size = job->initrds->total_size,
		.secure_boot = l->secure_boot,
		.shim = l->secure_boot && shim_present(),
		.tpm = tpm_present(),
		.cmdline_outside = job->cmdline_outside,
		.uki_direct = uki_direct,
		.sb_mode = l->sb_mode,
	};

	return plan_boot(&r, job->kernel_path, &job->plan);
}

static void say_what_boots(const struct boot_job *job, const struct bls_entry *e)
{
	const struct trust_plan *t = &job->plan.trust;

	log_info("booting '%s' by %s%s (%llu KiB kernel, %zu initrd, %llu KiB)%s%s", job->title,
		 scheme_name(job->plan.scheme), e->protocol == SCHEME_AUTO ? " (protocol auto)" : "",
		 (unsigned long long)(job->image_size >> 10), job->initrds->n,
		 (unsigned long long)(job->initrds->total_size >> 10),
		 t->verify != VERIFY_NONE ? ", to be verified by " : "",
		 t->verify != VERIFY_NONE ? verifier_name(t->verify) : "");
}

/* Options Linux needs on this firmware that the line lacks: said, not added
 * (the line is the user's, and measured), docs/compatibility.md "U-Boot". */
static void warn_missing_options(const char *cmdline)
{
	unsigned missing = fwquirk_missing_options(FW_ARCH_NATIVE, ST->FirmwareVendor, cmdline);

	if (missing)
		log_warning("on U-Boot, Linux needs%s%s on its command line",
			    missing & CMDLINE_DISABLE_MTRR_TRIM ? " disable_mtrr_trim" : "",
			    missing & CMDLINE_EFI_NORUNTIME ? " efi=noruntime" : "");
}

/* A Type #1 entry's "extra" files, each in a cpio archive after its initrds
 * where systemd-boot puts them (/.extra/credentials, sysext, confext), each
 * archive measured after the command line as systemd-stub measures the same
 * files beside a UKI (core/sidecar.h: PCR 12, system extensions 13), kept
 * until the boot is over; a name of another kind is said and left out. */
struct extras {
	struct boot_measure *m; /* .data: the archive */
	size_t n;
};

static void extras_free(struct extras *x)
{
	for (size_t i = 0; i < x->n; i++)
		mem_free((void *)x->m[i].data);
	mem_free(x->m);
}

static EFI_STATUS add_extras(const struct volume *vol, const struct bls_entry *e, struct boot_job *job,
			     struct extras *x)
{
	if (e->n_extra && !(x->m = mem_zalloc(e->n_extra * sizeof(*x->m))))
		return EFI_OUT_OF_RESOURCES;
	for (size_t i = 0; i < e->n_extra; i++) {
		const char *name;
		const struct sidecar_spec *kind = bls_extra_kind(e->extra[i], &name);
		_cleanup_free_ char *path = volume_path(vol, e->extra[i]);
		_cleanup_free_ uint8_t *data = NULL;
		uint8_t *cpio = NULL;
		size_t size, cpio_size;
		EFI_STATUS err;

		if (!kind) {
			log_warning("%s: extra: not .cred, .sysext.raw or .confext.raw, left out", e->extra[i]);
			continue;
		}
		err = path ? file_read_all(vol->root, path, FILE_READ_ALL_MAX, &data, &size) : EFI_OUT_OF_RESOURCES;
		if (!EFI_ERROR(err)) {
			struct cpio_file file = { name, data, size };

			err = cpio_archive(kind->target, kind->dir_mode, kind->file_mode, &file, 1, &cpio, &cpio_size);
		}
		if (EFI_ERROR(err))
			return err;
		x->m[x->n++] = (struct boot_measure){ kind->pcr, kind->desc, cpio, cpio_size };
		err = initrd_set_add_data(job->initrds, e->extra[i], cpio, cpio_size);
		if (EFI_ERROR(err))
			return err;
	}
	job->measure_after = x->m;
	job->n_measure_after = x->n;
	return EFI_SUCCESS;
}

/* A "devicetree" file on the entry's volume as the firmware's devicetree
 * table (AArch64; the x86 loaders keep no such path: FW_NATIVE_DT). Nothing
 * verifies such a file, and it tells the kernel its memory and devices:
 * under Secure Boot it is refused (a signed UKI's .dtb is verified with it). */
static EFI_STATUS install_devicetree(const struct volume *vol, const struct bls_entry *e, bool secure_boot,
				     struct dt_table *dt)
{
	_cleanup_free_ char *path = NULL;

	if (!FW_NATIVE_DT || !e->devicetree)
		return EFI_SUCCESS;
	if (secure_boot)
		return log_error_status(EFI_SECURITY_VIOLATION,
					"%s: refused by Secure Boot: a devicetree file is not verified (a signed UKI's "
					".dtb is)", e->devicetree);
	path = volume_path(vol, e->devicetree);
	return path ? dt_install_file(vol->root, path, dt) : EFI_OUT_OF_RESOURCES;
}

/* The stub scheme starts the copy the firmware loaded (LoadImage from our
 * buffer): our read buffer is dropped before it starts, so a booting image
 * is never held more times than systemd-boot holds it: the loaded image and
 * what the kernel copies out of it (a UKI's initrd), not a third copy (issue
 * 24). A kernel the firmware did not load (the IA-32 .compat entry) still
 * boots from the buffer. */
static void drop_read_buffer(struct boot_job *job, EFI_HANDLE child, uint8_t **pool)
{
	if (!child || !*pool || job->plan.scheme != SCHEME_STUB || job->info.pe.machine != PE_MACHINE_NATIVE)
		return;
	mem_free(TAKE_PTR(*pool));
	job->image = NULL;
}

/* One boot attempt of @e: every failure is said once, with the entry as its
 * context, and everything taken is released on the way out. */
static EFI_STATUS boot_entry_job(struct loader *l, struct bls_entry *e, struct boot_job *job, const char *cmdline)
{
	const struct volume *vol = e->volume;
	_cleanup_free_ uint8_t *pool_image = NULL;
	_cleanup_(kernel_file_close) struct kernel_file k = { 0 };
	_cleanup_(initrd_set_close) struct initrd_set initrds = { 0 };
	_cleanup_(initrd_paths_free) struct initrd_paths paths = { .n = e->n_initrd };
	_cleanup_(extras_free) struct extras extras = { 0 };
	_cleanup_(dt_restore) struct dt_table dt = { 0 }; /* the old table back if the boot fails */
	EFI_HANDLE child = NULL;
	bool direct = false;
	EFI_STATUS err;

	job->initrds = &initrds;
	err = kernel_file_open(vol->root, job->kernel_path, e->url ? job->kernel_path : NULL, &k);
	if (EFI_ERROR(err))
		return err;
	err = image_identify_head(k.head, k.head_len, k.size, job->kernel_path, &job->info);
	if (EFI_ERROR(err))
		return err;
	if (plan_cmdline_locked(&job->info, l->secure_boot) && cmdline)
		log_warning("the edited command line is not used: Secure Boot locks the .cmdline of %s",
			    job->kernel_path);
	err = open_initrds(vol, e, job, &paths.v, &initrds);
	if (!EFI_ERROR(err))
		err = add_extras(vol, e, job, &extras);
	if (!EFI_ERROR(err))
		err = plan_entry(job, e, &k, l, /* uki_direct= */ false);
	if (!EFI_ERROR(err))
		err = kernel_file_read(job, &k, &pool_image);
	if (!EFI_ERROR(err) && (direct = boot_uki_applies(job))) /* boot_uki.c: planned again, as such */
		err = plan_entry(job, e, &k, l, /* uki_direct= */ true);
	if (EFI_ERROR(err))
		return err;
	if (e->kernel)
		warn_missing_options(job->cmdline);
	err = install_devicetree(vol, e, l->secure_boot, &dt);
	if (EFI_ERROR(err))
		return err;
	say_what_boots(job, e);
	loader_var_set_str(u"HandoffBootScheme", scheme_name(job->plan.scheme));
	err = boot_verify(job, &child);
	if (EFI_ERROR(err))
		return err;
	/* only an entry whose image was accepted is remembered (default @saved) */
	loader_save_selected(l, e);
	if (e->kernel || job->info.is_uki) /* only Linux takes it, as systemd-boot */
		random_seed_pass(l);
	loader_var_set_time(u"LoaderTimeExecUSec");
	if (direct)
		return boot_uki(job, child);
	drop_read_buffer(job, child, &pool_image);
	return boot_start(job, child);
}

/* A Type #1 "linux" entry's line (or the edited one) with the host's
 * io.systemd.boot.kernel-cmdline-extra after it, as systemd-boot: measured
 * into PCR 12 with it, as one line. NULL: none (or no memory). */
static char *with_smbios_extra(const struct bls_entry *e, const char *line)
{
	_cleanup_free_ char *extra = NULL;

	if (e->type == BLS_TYPE1 && e->kernel)
		extra = smbios_cmdline(SMBIOS_BOOT_CMDLINE_EXTRA);

	return extra ? addon_join(line, extra) : NULL;
}

EFI_STATUS boot_entry(struct loader *l, struct bls_entry *e, const char *cmdline)
{
	const struct volume *vol = e->volume;
	_cleanup_free_ char *title = bls_display_title(e);
	_cleanup_free_ char *kernel_path = NULL, *context = NULL, *line = NULL, *profiled = NULL;
	_cleanup_(boot_job_release) struct boot_job job = {
		.title = title ? title : e->id,
		.device = vol->handle,
		.cmdline = cmdline ? cmdline : (e->options ? e->options : ""),
		.cmdline_outside = true,
	};
	EFI_STATUS err;

	if (e->type == BLS_AUTO && e->auto_action != BLS_AUTO_EFI)
		return run_auto_entry(l, e);
	if (!e->url) /* as systemd-boot: not for a UKI from the network */
		boot_count_bump(e); /* before anything can fail: a try is a try (UAPI.1 "Boot counting") */
	if ((line = with_smbios_extra(e, job.cmdline)))
		job.cmdline = line;
	if (e->profile && (profiled = bls_load_options(e, job.cmdline))) /* "@N options" */
		job.cmdline = profiled;
	if (e->url && e->url[0] == ':' && !l->volumes[0].url)
		return log_error_status(EFI_NOT_FOUND, "entry '%s': uki-url '%s': relative, but no URL to start from",
					job.title, e->url);
	job.kernel_path = kernel_path = e->url ? bls_url_resolve(e->url, l->volumes[0].url)
					       : volume_path(vol, e->kernel ? e->kernel : e->efi);
	context = fmt_asprintf("entry '%s': ", job.title);
	if (!kernel_path || !context || (e->profile && !profiled))
		return log_error_status(EFI_OUT_OF_RESOURCES, "entry '%s': out of memory", job.title);
	log_info("entry '%s': loading %s%s%s", job.title, job.kernel_path, vol == l->volumes ? "" : " from ",
		 vol == l->volumes ? "" : vol->name);
	con_log_context(context);
	if (e->efi && bootopt_path_eq(e->efi, BLS_WINDOWS_PATH))
		bitlocker_reboot(l, e);
	err = boot_entry_job(l, e, &job, cmdline);
	con_log_context(NULL);
	return err;
}
