/* The one plan of a boot (docs/design.md "The plan"): from what is known
 * before anything is allocated (the image's headers, the file's size, the
 * command line, the initrds' total size, the firmware) to every decision the
 * apply step in src/efi carries out: the scheme, where the kernel goes, where
 * the initrd may go, what is verified and measured. The loader and the stub
 * both plan through plan_boot(); nothing in src/efi chooses again. */
#ifndef CORE_BOOT_PLAN_H
#define CORE_BOOT_PLAN_H

#include "plan.h"
#include "trust.h"

struct boot_request {
	const struct image_info *img;
	size_t image_size;           /* the whole file */
	enum boot_scheme requested;  /* SCHEME_AUTO: stub, handover, legacy, the first that fits */
	enum fw_arch fw;
	bool no_stub;                /* leave the stub scheme out of the auto order (plan_scheme_no_stub) */
	size_t cmdline_len;          /* bytes, without the NUL */
	uint64_t initrd_size;        /* all initrds, concatenated (initrd_layout_append) */
	bool secure_boot, shim, tpm; /* as trust_request */
	bool preverified, pcr4_done, cmdline_outside;
	bool uki_direct;             /* as trust_request */
	bool initrd_in_memory;       /* the initrds are one piece in memory already: handover first (plan_boot) */
	enum sb_mode sb_mode;
};

struct boot_plan {
	enum boot_scheme scheme;
	bool place_kernel;           /* handoff places the kernel (handover, legacy, .compat on IA-32) ... */
	struct kernel_layout kernel; /* ... here */
	uint64_t initrd_max;         /* exclusive end of the initrd (handover, legacy) */
	struct trust_plan trust;
};

/**
 * plan_boot() - decide everything about a boot before the first allocation:
 * the scheme (plan_scheme_on), the kernel's placement (plan_kernel_layout, or
 * plan_compat_layout for the stub scheme on 32-bit firmware), the command
 * line against cmdline_size and the initrds against initrd_addr_max (handover
 * and legacy: the kernel's own stub checks its own on the stub scheme), and
 * verification and measurement (plan_trust).
 * Return: EFI_SUCCESS, or the first reason it cannot boot (logged, naming @name).
 */
EFI_STATUS plan_boot(const struct boot_request *req, const char *name, struct boot_plan *ret);

#endif
