/* Loading a bzImage for the handover and legacy schemes (boot.rst "Loading
 * the rest of the kernel", "64-bit boot protocol"): the protected-mode kernel
 * at a kernel_alignment-aligned address with init_size bytes of room
 * (pref_address first), then the zero page, command line and initrd below
 * the limits the header allows. */
#include "boot.h"
#include "measure.h"
#include "core/initrd_layout.h"
#include "core/relocate.h"

#define FOUR_GIB 0x100000000ull

/* At pref_address; a kernel that is neither relocatable nor moved after the
 * exit (handover: its EFI code moves itself, as Linux's efi_relocate_kernel()
 * does, to pref_address or the lowest aligned address above) tries each
 * aligned address above it too, up to the limit (plan_kernel_layout()). */
static bool alloc_from_pref(const struct kernel_layout *lay, uint64_t pad, struct kernel_region *ret)
{
	bool look_up = !lay->relocatable && !lay->move_after_exit;

	/* pad <= BZ_HEAD_MAX rounded: no wrap; 0: no pref_address */
	if (!lay->pref_address || pad > lay->pref_address)
		return false;
	for (uint64_t a = lay->pref_address;; a = ALIGN_DOWN(a, lay->alignment) + lay->alignment) {
		if (pages_alloc_at(a - pad, pad + lay->alloc_size) == EFI_SUCCESS) {
			*ret = (struct kernel_region){ a - pad, pad + lay->alloc_size, a };
			return true;
		}
		/* a + alloc_size <= max_address holds: does it for the next a? */
		if (!look_up || lay->alignment > lay->max_address - lay->alloc_size - ALIGN_DOWN(a, lay->alignment))
			return false;
	}
}

EFI_STATUS kernel_region_alloc(const struct kernel_layout *lay, uint64_t below, const char *name,
			       struct kernel_region *ret)
{
	uint64_t pad = ALIGN_UP(below, (uint64_t)EFI_PAGE_SIZE), off, a;
	EFI_STATUS err;

	if (alloc_from_pref(lay, pad, ret))
		return EFI_SUCCESS;
	if (!lay->relocatable && !lay->move_after_exit)
		return log_error_status(EFI_OUT_OF_RESOURCES,
					"%s: not relocatable and no room from pref_address %#llx up", name,
					(unsigned long long)lay->pref_address);
	/* relocatable, or staged for the move: an aligned block with room for
	 * the setup area below the kernel's aligned start */
	off = ALIGN_UP(pad, lay->alignment);
	err = pages_alloc(off + lay->alloc_size, lay->alignment, lay->max_address, &a);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: no room for the kernel (%llu MiB below 4 GiB): %m", name,
					(unsigned long long)(lay->alloc_size >> 20));
	pages_free(a, off - pad); /* the alignment slack below the setup area */
	*ret = (struct kernel_region){ a + off - pad, pad + lay->alloc_size, a + off };
	return EFI_SUCCESS;
}

/* The kernel at its final address: already there when the loader read the
 * file into its region (one copy: the read), else copied from the image. */
static EFI_STATUS load_kernel(const struct boot_job *job, struct linux_loaded *l)
{
	const struct kernel_layout *lay = &job->plan.kernel;
	struct kernel_region r = job->region;
	EFI_STATUS err;

	if (!r.kernel_addr) {
		err = kernel_region_alloc(lay, 0, job->kernel_path, &r);
		if (EFI_ERROR(err))
			return err;
		l->region = r;
		memcpy((void *)(uintptr_t)r.kernel_addr, job->info.bz.kernel, lay->copy_size);
	}
	l->kernel_addr = r.kernel_addr;
	if (lay->move_after_exit && r.kernel_addr != lay->pref_address)
		l->move_to = lay->pref_address;
	/* boot.rst: memory the PE headers declare beyond the file must be zero. */
	memset((uint8_t *)(uintptr_t)r.kernel_addr + lay->copy_size, 0, lay->zero_size);
	return EFI_SUCCESS;
}

/* Where the firmware hands out pages in the range the kernel moves to, ask
 * again below it, then give the first ones back. */
EFI_STATUS pages_alloc_clear(const struct boot_job *job, const struct linux_loaded *l, uint64_t size,
			     uint64_t max_end, uint64_t *ret)
{
	uint64_t a;
	EFI_STATUS err = pages_alloc(size, EFI_PAGE_SIZE, max_end, ret);

	if (EFI_ERROR(err) || !l->move_to || !move_overlaps(*ret, size, l->move_to, job->plan.kernel.alloc_size))
		return err;
	a = *ret;
	err = pages_alloc(size, EFI_PAGE_SIZE, MIN(max_end, l->move_to), ret);
	pages_free(a, size);
	return err;
}

/* The UTF-8 form of the line whose UTF-16 form is measured (cmdline_forms_make()). */
static EFI_STATUS load_cmdline(const struct boot_job *job, struct linux_loaded *l)
{
	const struct cmdline_forms *f = &job->cmdline_forms; /* checked against cmdline_size by plan_boot() */
	EFI_STATUS err;

	l->cmdline_alloc = f->utf8_len + 1;
	err = pages_alloc_clear(job, l, l->cmdline_alloc, FOUR_GIB, &l->cmdline_addr);
	if (EFI_ERROR(err))
		return log_error_status(err, "no memory below 4 GiB for the command line");
	memcpy((void *)(uintptr_t)l->cmdline_addr, f->utf8, f->utf8_len + 1);
	return EFI_SUCCESS;
}

/* One initrd in memory already (a UKI's .initrd in the loader's read buffer,
 * src/efi/boot_uki.c), page-aligned and within reach: the kernel takes it
 * there, no copy of it is made (issue 24; docs/design.md "A UKI from the
 * menu"). Anything to assemble is copied into pages of its own. */
static EFI_STATUS load_initrd(const struct boot_job *job, struct linux_loaded *l)
{
	struct initrd_set *set = job->initrds;
	EFI_STATUS err;

	if (!set || set->n == 0)
		return EFI_SUCCESS;
	l->initrd_size = set->total_size;
	if (set->n == 1 && set->files[0].data &&
	    initrd_in_place((uintptr_t)set->files[0].data, set->total_size, job->plan.initrd_max) &&
	    !(l->move_to && move_overlaps((uintptr_t)set->files[0].data, set->total_size, l->move_to,
					  job->plan.kernel.alloc_size))) {
		l->initrd_addr = (uintptr_t)set->files[0].data;
		return EFI_SUCCESS;
	}
	err = pages_alloc_clear(job, l, set->total_size, job->plan.initrd_max, &l->initrd_addr);
	if (EFI_ERROR(err))
		return log_error_status(err, "initrd: no room for %llu MiB below %#llx: %m",
					(unsigned long long)(set->total_size >> 20),
					(unsigned long long)job->plan.initrd_max);
	l->initrd_alloc = set->total_size;
	return initrd_set_read(set, (uint8_t *)(uintptr_t)l->initrd_addr, l->initrd_alloc);
}

EFI_STATUS linux_load(const struct boot_job *job, struct linux_loaded *ret)
{
	struct linux_loaded l = { 0 };
	uint64_t bp_addr = 0;
	EFI_STATUS err;

	err = load_kernel(job, &l);
	if (!EFI_ERROR(err)) {
		err = pages_alloc_clear(job, &l, sizeof(struct boot_params), FOUR_GIB, &bp_addr);
		if (EFI_ERROR(err))
			err = log_error_status(err, "no memory below 4 GiB for boot_params");
		else
			l.bp = (struct boot_params *)(uintptr_t)bp_addr;
	}
	if (!EFI_ERROR(err))
		err = load_cmdline(job, &l);
	if (!EFI_ERROR(err))
		err = load_initrd(job, &l);
	/* PCR 9 as the kernel's own EFI stub would have measured it had it been
	 * started by the stub scheme with these LoadOptions and this LoadFile2
	 * initrd (the handover entry and the 64-bit entry measure nothing). */
	if (!EFI_ERROR(err) && job->plan.trust.measure_pcr9)
		err = measure_linux_stub_params(job->cmdline_forms.utf16, job->cmdline_forms.utf16_size,
						 (const void *)(uintptr_t)l.initrd_addr, l.initrd_size);
	if (EFI_ERROR(err)) {
		linux_unload(&l);
		return err;
	}
	bp_setup_header(l.bp, &job->info.bz, &(struct bp_load){
		.kernel_addr = l.move_to ? l.move_to : l.kernel_addr, .cmdline_addr = l.cmdline_addr,
		.initrd_addr = l.initrd_addr, .initrd_size = l.initrd_size,
		.secure_boot = (uint8_t)job->plan.trust.bp_secure_boot,
	});
	*ret = l;
	return EFI_SUCCESS;
}

void boot_job_release(struct boot_job *job)
{
	pages_free(job->region.addr, job->region.size);
	job->region = (struct kernel_region){ 0 };
	cmdline_forms_free(&job->cmdline_forms);
}

void linux_unload(struct linux_loaded *l)
{
	pages_free(l->region.addr, l->region.size);
	pages_free(l->cmdline_addr, l->cmdline_alloc);
	pages_free(l->initrd_addr, l->initrd_alloc);
	pages_free((uintptr_t)l->bp, sizeof(struct boot_params));
	*l = (struct linux_loaded){ 0 };
}
