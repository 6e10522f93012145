/* Legacy EFI boot (boot.rst "64-bit Boot Protocol", "32-bit Boot Protocol"):
 * the loader fills all of boot_params (screen_info from GOP, PCI ROMs,
 * efi_info "EL64" or "EL32", e820 from the final memory map), exits boot
 * services itself and enters the kernel (arch_kernel_enter: load address +
 * 0x200 in long mode, or the load address in flat protected mode) with
 * CS=0x10, DS=0x18, interrupts off and rsi/esi = boot_params. */
#include "arch.h"
#include "exit_boot.h"
#include "measure.h"

struct legacy_ctx {
	struct boot_params *bp;
	struct bp_memmap m;             /* buffers sized before the exit */
	struct memmap_buf map;
};

static void legacy_ctx_free(struct legacy_ctx *c)
{
	mem_free(c->m.scratch);
	mem_free(c->m.ext);
	mem_free(c->map.buf);
}

/* Runs between the last GetMemoryMap and ExitBootServices: no allocation, no output. */
static EFI_STATUS fill_from_final_map(void *p, const struct memmap_buf *map)
{
	struct legacy_ctx *c = p;

	c->m.map = map->buf;
	c->m.size = map->size;
	c->m.desc_size = map->desc_size;
	c->m.desc_version = map->desc_version;
	return bp_setup_memmap(c->bp, (uintptr_t)ST, &c->m);
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

/* ExitBootServices was called and failed: the firmware may be half shut down
 * (UEFI 2.10 §7.4.6), so no console, no boot service, no menu. A reset is a
 * runtime service and brings an unattended machine back; if even that
 * returns, stop here rather than run on a broken firmware. */
static __attribute__((noreturn)) void exit_boot_dead_end(EFI_STATUS err)
{
	RT->ResetSystem(EfiResetCold, err, 0, NULL);
	for (;;)
		__asm__ volatile("cli; hlt");
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
	err = exit_boot_services(BS, IH, &c.map, fill_from_final_map, &c, &called);
	if (EFI_ERROR(err) && called)
		exit_boot_dead_end(err);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot prepare the final memory map: %m", job->kernel_path);
	arch_kernel_enter(l.kernel_addr, c.bp); /* no return: nothing above is undone */
}
