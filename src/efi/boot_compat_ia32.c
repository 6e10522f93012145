/* The stub scheme on 32-bit firmware: a 64-bit kernel built with
 * CONFIG_EFI_MIXED names an IA-32 entry point in its ".compat" section
 * (Linux arch/x86/boot/header.S), entered like an EFI application's
 * (cdecl: image handle, system table). The firmware's LoadImage refuses an
 * x86-64 image, so the loader does what LoadImage would (as systemd-boot
 * does): sections at their RVAs in SizeOfImage bytes, base relocations
 * applied, a new handle with an
 * EFI_LOADED_IMAGE_PROTOCOL (UEFI 2.10 §9.1) carrying the command line, and
 * the initrd over LoadFile2. Nothing verifies the image, so plan_scheme_on()
 * refuses this path under Secure Boot. */
#include "arch.h"
#include "exit_guard.h"
#include "timer_quiet.h"

static EFI_GUID li_guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
static EFI_GUID li_dp_guid = EFI_LOADED_IMAGE_DEVICE_PATH_PROTOCOL_GUID;

struct compat_image {
	uint64_t addr, size;                 /* the pages */
	EFI_LOADED_IMAGE_PROTOCOL li;
	EFI_DEVICE_PATH_PROTOCOL *dp;        /* device + file path of the kernel */
	EFI_HANDLE handle;
};

static EFI_STATUS compat_alloc(const struct boot_job *job, const struct kernel_layout *lay, uint64_t *ret)
{
	EFI_STATUS err = EFI_NOT_FOUND;

	if (lay->pref_address)
		err = pages_alloc_at(lay->pref_address, lay->alloc_size);
	if (err == EFI_SUCCESS) {
		*ret = lay->pref_address;
		return EFI_SUCCESS;
	}
	err = pages_alloc(lay->alloc_size, lay->alignment, lay->max_address, ret);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: no room for the kernel image (%llu MiB below 4 GiB): %m",
					job->kernel_path, (unsigned long long)(lay->alloc_size >> 20));
	/* plan_compat_layout(): below pref_address, startup_32 would write outside. */
	if (*ret < job->info.bz.pref_address) {
		pages_free(*ret, lay->alloc_size);
		return log_error_status(EFI_OUT_OF_RESOURCES,
					"%s: no room for the kernel image above pref_address %#llx", job->kernel_path,
					(unsigned long long)job->info.bz.pref_address);
	}
	return EFI_SUCCESS;
}

/* What LoadImage does: headers, then each section's initialized bytes at its
 * RVA, the rest zero, base relocations applied for where it landed. */
static EFI_STATUS compat_load(const struct boot_job *job, struct compat_image *c)
{
	const struct pe_info *pe = &job->info.pe;
	const struct kernel_layout *lay = &job->plan.kernel; /* plan_boot(): plan_compat_layout() */
	uint8_t *base;
	EFI_STATUS err;

	err = compat_alloc(job, lay, &c->addr);
	if (EFI_ERROR(err))
		return err;
	c->size = lay->alloc_size;
	base = (uint8_t *)(uintptr_t)c->addr;
	memset(base, 0, c->size);
	memcpy(base, job->image, lay->copy_size);
	for (uint32_t i = 0; i < pe->n_sections; i++) {
		size_t n;
		const uint8_t *data =
			pe_section_data(&pe->sections[i], job->image, job->image_size, PE_LAYOUT_FILE, &n);

		/* pe_parse() checked each section against SizeOfImage <= c->size */
		if (data)
			memcpy(base + pe->sections[i].virtual_address, data, n);
	}
	/* the x86-64 code of a mixed-mode image may have fixups; its IA-32 entry runs anywhere */
	return pe_relocate(base, pe->size_of_image, pe, c->addr - pe->image_base, job->kernel_path);
}

static EFI_STATUS compat_install(const struct boot_job *job, struct compat_image *c)
{
	EFI_STATUS err;

	c->dp = devpath_for_file(job->device, job->kernel_path);
	if (!c->dp)
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: no memory for the loaded image", job->kernel_path);
	c->li = (EFI_LOADED_IMAGE_PROTOCOL){
		.Revision = EFI_LOADED_IMAGE_PROTOCOL_REVISION,
		.ParentHandle = IH,
		.SystemTable = ST,
		.DeviceHandle = job->device,
		/* §9.1: the file path relative to DeviceHandle: the path's file node */
		.FilePath = (EFI_DEVICE_PATH_PROTOCOL *)devpath_find(c->dp, MEDIA_DEVICE_PATH, MEDIA_FILEPATH_DP, 4),
		.LoadOptionsSize = (UINT32)job->cmdline_forms.utf16_size, /* cmdline_forms_make() */
		.LoadOptions = job->cmdline_forms.utf16,
		.ImageBase = (void *)(uintptr_t)c->addr,
		.ImageSize = job->info.pe.size_of_image,
		.ImageCodeType = EfiLoaderCode,
		.ImageDataType = EfiLoaderData,
	};
	err = BS->InstallMultipleProtocolInterfaces(&c->handle, &li_guid, &c->li, &li_dp_guid, c->dp, NULL);
	if (EFI_ERROR(err)) {
		c->handle = NULL;
		return log_error_status(err, "%s: cannot install the loaded image protocol: %m", job->kernel_path);
	}
	return EFI_SUCCESS;
}

static void compat_release(struct compat_image *c)
{
	if (c->handle)
		BS->UninstallMultipleProtocolInterfaces(c->handle, &li_guid, &c->li, &li_dp_guid, c->dp, NULL);
	pages_free(c->addr, c->size);
	mem_free(c->dp);
}

struct compat_call {
	EFI_IMAGE_ENTRY_POINT entry;
	EFI_HANDLE handle;
	EFI_STATUS status;
};

static void compat_call(void *ctx)
{
	struct compat_call *c = ctx;
	struct timer_quiet q;

	timer_quiet_begin(BS, &q); /* the stub runs with interrupts off: timer_quiet.c */
	c->status = c->entry(c->handle, ST);
	timer_quiet_end(&q);
}

EFI_STATUS boot_stub_foreign(const struct boot_job *job)
{
	struct compat_image c = { 0 };
	EFI_HANDLE initrd_handle = NULL;
	EFI_STATUS err;

	if (!job->info.is_pe || !job->info.pe.compat_entry_ia32)
		return log_error_status(EFI_UNSUPPORTED, "%s: no IA-32 entry in a \".compat\" section",
					job->kernel_path);
	err = compat_load(job, &c);
	if (!EFI_ERROR(err))
		err = compat_install(job, &c);
	/* LoadFile2 reports the size in a 32-bit UINTN here */
	if (!EFI_ERROR(err) && job->initrds && job->initrds->total_size >= SIZE_MAX)
		err = log_error_status(EFI_OUT_OF_RESOURCES, "initrd: %llu bytes do not fit a 32-bit address space",
				       (unsigned long long)job->initrds->total_size);
	if (!EFI_ERROR(err) && job->initrds && job->initrds->n)
		err = initrd_lf2_install(job->initrds, &initrd_handle);
	if (!EFI_ERROR(err)) {
		struct compat_call call = {
			.entry = (EFI_IMAGE_ENTRY_POINT)(uintptr_t)(c.addr + job->info.pe.compat_entry_ia32),
			.handle = c.handle,
		};
		struct exit_guard g;

		/* Linux's stub gives up by Exit() on this handle, which the
		 * firmware did not make: exit_guard.c brings it back here */
		if (exit_guard_call(&g, ST, c.handle, compat_call, &call)) {
			err = exit_guard_report(&g, job->kernel_path);
		} else {
			err = call.status;
			log_error_status(err, "%s: the kernel's IA-32 entry returned: %m", job->kernel_path);
			if (!EFI_ERROR(err))
				err = EFI_LOAD_ERROR;
		}
	}
	initrd_lf2_uninstall(initrd_handle);
	compat_release(&c);
	return err;
}
