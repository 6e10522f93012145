/* Legacy EFI boot (boot.rst "64-bit Boot Protocol", "32-bit Boot Protocol"):
 * the loader fills all of boot_params (screen_info from GOP, PCI ROMs,
 * efi_info "EL64" or "EL32", e820 from the final memory map), exits boot
 * services itself and enters the kernel (arch_kernel_enter: load address +
 * 0x200 in long mode, or the load address in flat protected mode) with
 * CS=0x10, DS=0x18, interrupts off and rsi/esi = boot_params. A kernel
 * that is not relocatable and could not be loaded at pref_address is moved
 * there after the exit, when the final map says that memory is the OS's
 * (src/core/relocate.h, docs/design.md "Kernels that are not relocatable"). */
#include "arch.h"
#include "exit_boot.h"
#include "measure.h"
#include "core/relocate.h"

struct legacy_ctx {
	struct boot_params *bp;
	struct bp_memmap m;             /* buffers sized before the exit */
	struct memmap_buf map;
	uint64_t move_to, move_size;    /* move_size: the kernel's whole allocation (0: no move) */
	uint64_t move_bytes;            /* what is copied: read after the exit, so kept here */
	struct move_span pt;            /* the move's page tables (arch_move_paging()) */
	uint64_t cr3;                   /* their top level */
	struct move_keep keep;          /* what the move must not touch */
	struct move_verdict verdict;
};

static void legacy_ctx_free(struct legacy_ctx *c)
{
	mem_free(c->m.scratch);
	mem_free(c->m.ext);
	mem_free(c->map.buf);
	pages_free(c->pt.addr, c->pt.size);
}

/* Runs between the last GetMemoryMap and ExitBootServices: no allocation, no output. */
static EFI_STATUS fill_from_final_map(void *p, const struct memmap_buf *map)
{
	struct legacy_ctx *c = p;
	EFI_STATUS err;

	c->m.map = map->buf;
	c->m.size = map->size;
	c->m.desc_size = map->desc_size;
	c->m.desc_version = map->desc_version;
	err = bp_setup_memmap(c->bp, (uintptr_t)ST, &c->m);
	if (EFI_ERROR(err) || !c->move_size)
		return err;
	return move_check(c->move_to, c->move_size, map->buf, map->size, map->desc_size, &c->keep, &c->verdict)
		       ? EFI_LOAD_ERROR : EFI_SUCCESS;
}

/* What is still read or run after the exit, when the kernel moves
 * (move_keep_build() decides; the setup_data chain includes the e820
 * overflow node only at the exit, so its buffer is named here). */
static uint64_t legacy_keep(struct legacy_ctx *c, const struct linux_loaded *l, uint64_t frame)
{
	extern const uint8_t __ImageBase[];
	const uint8_t *pe = __ImageBase + get_le32(__ImageBase + 0x3c); /* PE/COFF §2: e_lfanew */

	return move_keep_build(&c->keep, &(struct move_uses){
		.bp = c->bp,
		.cmdline = { l->cmdline_addr, l->cmdline_alloc },
		.initrd = { l->initrd_addr, l->initrd_size }, /* also one taken in place */
		.e820_ext = { (uintptr_t)c->m.ext, bp_e820_ext_size(c->m.cap) },
		.map = { (uintptr_t)c->map.buf, c->map.capacity },
		/* SizeOfImage: offset 56 of the optional header, PE32 and PE32+ (PE/COFF §3.4) */
		.image = { (uintptr_t)__ImageBase, get_le32(pe + 24 + 56) },
		.frame = frame,
		.st = ST,
	}, c->map.buf, c->map.size, c->map.desc_size);
}

/* The identity map the move runs on, [0, @top), so that it may overwrite
 * the firmware's page tables (arch_move_begin()); kept like what it maps.
 * None where paging is off for the move. */
static EFI_STATUS move_paging(struct legacy_ctx *c, const struct boot_job *job, const struct linux_loaded *l,
			      uint64_t top)
{
	int levels = arch_move_paging();
	EFI_STATUS err;

	if (!levels)
		return EFI_SUCCESS;
	c->pt.size = IDMAP_PAGES(top) * EFI_PAGE_SIZE;
	err = pages_alloc_clear(job, l, c->pt.size, UINT64_MAX, &c->pt.addr);
	if (EFI_ERROR(err))
		return log_error_status(err, "no memory for the page tables of the move: %m");
	move_keep_add(&c->keep, c->pt.addr, c->pt.size, "handoff's page tables");
	c->cr3 = idmap_build((uint64_t *)(uintptr_t)c->pt.addr, c->pt.addr, top, levels);
	return EFI_SUCCESS;
}

/* The move's check on today's map, before the exit: the final map
 * (fill_from_final_map()) must say the same, so a refusal is said here. The
 * map is read before the page tables are allocated: they are kept by name,
 * and the descriptors holding the firmware's tables stay as they were. */
static EFI_STATUS move_predict(struct legacy_ctx *c, const struct boot_job *job, const struct linux_loaded *l,
				uint64_t frame)
{
	struct memmap_buf *m = &c->map;
	uint64_t top;
	EFI_STATUS err;

	c->move_to = l->move_to;
	c->move_size = job->plan.kernel.alloc_size;
	c->move_bytes = job->plan.kernel.copy_size + job->plan.kernel.zero_size;
	m->size = m->capacity;
	if (BS->GetMemoryMap(&m->size, m->buf, &m->key, &m->desc_size, &m->desc_version) != EFI_SUCCESS)
		return log_error_status(EFI_LOAD_ERROR, "cannot read the memory map");
	top = legacy_keep(c, l, frame);
	err = move_paging(c, job, l, top);
	if (EFI_ERROR(err))
		return err;
	if (move_check(c->move_to, c->move_size, m->buf, m->size, m->desc_size, &c->keep, &c->verdict))
		return move_refusal(job->kernel_path, c->move_to, c->move_size, &c->verdict);
	return EFI_SUCCESS;
}

static EFI_STATUS alloc_map_buffers(struct legacy_ctx *c)
{
	EFI_STATUS err = memmap_buf_alloc(BS, &c->map);

	if (EFI_ERROR(err))
		return log_error_status(err, "cannot size the memory map: %m");
	c->m.cap = c->map.capacity / c->map.desc_size;
	c->m.scratch = mem_alloc(c->m.cap * sizeof(*c->m.scratch));
	c->m.ext = mem_alloc(bp_e820_ext_size(c->m.cap));
	if (!c->m.scratch || !c->m.ext)
		return log_error_status(EFI_OUT_OF_RESOURCES, "no memory for the e820 table");
	return EFI_SUCCESS;
}

EFI_STATUS boot_legacy(const struct boot_job *job)
{
	_cleanup_(linux_unload) struct linux_loaded l = { 0 };
	_cleanup_(legacy_ctx_free) struct legacy_ctx c = { 0 };
	struct fb_info fb;
	bool called;
	EFI_STATUS err;

	err = linux_load(job, &l);
	if (EFI_ERROR(err))
		return err;
	c.bp = l.bp;
	c.m.fw = FW_ARCH_NATIVE;
	if (gop_framebuffer(&fb))
		bp_set_screen(c.bp, &fb);
	pci_add_option_roms(c.bp);
	/* Linux's stub would have done it; without it Linux sees no event log. */
	tpm_publish_event_log();
	err = alloc_map_buffers(&c);
	if (EFI_ERROR(err))
		return err;
	c.m.chain_tail = bp_setup_data_tail(c.bp);
	if (l.move_to) {
		err = move_predict(&c, job, &l, (uintptr_t)__builtin_frame_address(0));
		if (EFI_ERROR(err))
			return err;
	}
	/* A move the final map refuses after a stale key, past the first call,
	 * ends here too (docs/design.md "Kernels that are not relocatable"). */
	err = exit_boot_services(BS, IH, &c.map, fill_from_final_map, &c, &called);
	if (EFI_ERROR(err) && called)
		exit_boot_dead_end(ST, err, "cannot boot");
	if (EFI_ERROR(err) && c.verdict.why)
		return move_refusal(job->kernel_path, c.move_to, c.move_size, &c.verdict);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot prepare the final memory map: %m", job->kernel_path);
	if (l.move_to) {
		/* memmove: the staged copy may overlap its target; this code, this
		 * frame, its page tables and everything the kernel reads lie
		 * outside (c.keep) */
		arch_move_begin(c.cr3);
		memmove((void *)(uintptr_t)l.move_to, (const void *)(uintptr_t)l.kernel_addr, c.move_bytes);
		l.kernel_addr = l.move_to;
	}
	arch_kernel_enter(l.kernel_addr, c.bp); /* no return: nothing above is undone */
}
