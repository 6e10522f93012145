/* plan_boot(): one request in, one complete plan out (boot_plan.h). */
#include "boot_plan.h"
#include "log.h"

/* Handover and legacy: the loader places the kernel, the command line and the
 * initrd, so their limits are checked here, before anything is allocated. */
static EFI_STATUS plan_linux_load(const struct boot_request *req, const char *name, struct boot_plan *p)
{
	const struct bz_info *bz = &req->img->bz;
	EFI_STATUS err;

	err = plan_kernel_layout(req->img, name, &p->kernel);
	if (EFI_ERROR(err))
		return err;
	err = plan_check_cmdline(bz, req->cmdline_len, name);
	if (EFI_ERROR(err))
		return err;
	p->initrd_max = plan_initrd_max(bz, req->fw);
	if (req->initrd_size > p->initrd_max)
		return log_error_status(
			EFI_BAD_BUFFER_SIZE, "%s: %llu MiB of initrds cannot lie below initrd_addr_max %#llx", name,
			(unsigned long long)(req->initrd_size >> 20), (unsigned long long)(p->initrd_max - 1));
	p->place_kernel = true;
	p->kernel.move_after_exit = p->scheme == SCHEME_LEGACY && !p->kernel.relocatable;
	return EFI_SUCCESS;
}

/* A UKI's .initrd in the loader's read buffer (issue 24): Linux's own stub
 * would copy it out of the buffer (LoadFile2), and that copy has to fit
 * beside the buffer and wherever the stub's KASLR put the kernel. By the
 * handover scheme the kernel takes it where it is (linux_load.c): one copy,
 * one pass over it fewer (docs/design.md "A UKI from the menu"). */
static enum boot_scheme plan_requested(const struct boot_request *req)
{
	if (req->requested == SCHEME_AUTO && req->initrd_in_memory &&
	    scheme_supported_on(req->img, SCHEME_HANDOVER, req->fw, NULL))
		return SCHEME_HANDOVER;
	return req->requested;
}

EFI_STATUS plan_boot(const struct boot_request *req, const char *name, struct boot_plan *ret)
{
	enum boot_scheme requested = plan_requested(req);
	struct boot_plan p = { 0 };
	struct trust_request t = {
		.img = req->img,
		.fw = req->fw,
		.secure_boot = req->secure_boot,
		.shim = req->shim,
		.tpm = req->tpm,
		.preverified = req->preverified,
		.pcr4_done = req->pcr4_done,
		.uki_direct = req->uki_direct,
		.sb_mode = req->sb_mode,
		.cmdline_outside = req->cmdline_outside,
		.cmdline_empty = req->cmdline_len == 0,
	};
	EFI_STATUS err;

	err = req->no_stub && requested == SCHEME_AUTO ? plan_scheme_no_stub(req->img, req->fw, name, &p.scheme)
						       : plan_scheme_on(req->img, requested, req->fw, name, &p.scheme);
	if (EFI_ERROR(err))
		return err;
	if (p.scheme != SCHEME_STUB)
		err = plan_linux_load(req, name, &p);
	else if (req->fw == FW_IA32 && !pe_is_efi_app(&req->img->pe, PE_MACHINE_I386)) {
		/* a 64-bit kernel on 32-bit firmware: handoff places it for its .compat entry */
		err = plan_compat_layout(req->img, req->image_size, name, &p.kernel);
		p.place_kernel = !EFI_ERROR(err);
	}
	if (EFI_ERROR(err))
		return err;
	t.scheme = p.scheme;
	err = plan_trust(&t, name, &p.trust);
	if (EFI_ERROR(err))
		return err;
	*ret = p;
	return EFI_SUCCESS;
}
