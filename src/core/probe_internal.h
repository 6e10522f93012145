/* Shared between the probe's check files (probe_check.c, probe_mem.c,
 * probe_json.c): the state of one run. Not an interface for other code. */
#ifndef CORE_PROBE_INTERNAL_H
#define CORE_PROBE_INTERNAL_H

#include "probe_check.h"

struct probe_ctx {
	const struct probe_input *in;
	struct boot_params bp;         /* a copy: the loader's page is only read once */
	struct probe_report *r;
	uint64_t init_size;            /* from the image's own header */
	uint64_t kernel_end;           /* kernel_addr + init_size */
	/* the EFI memory map the checks use (efi_info on legacy64, the
	 * firmware's own map on EFI entries); map_ok once it passed its checks */
	uint64_t map_addr, map_size, desc_size;
	bool map_ok;
};

static inline void probe_fail(struct probe_ctx *c, enum probe_error err)
{
	c->r->errors |= 1u << err;
}

/**
 * probe_read() - read through the input's callback. Address 0 and wrapping
 * ranges count as unreadable (a missing pointer, not memory at 0).
 */
bool probe_read(const struct probe_ctx *c, uint64_t addr, void *buf, size_t len);

/** probe_map_covers_allocated() - the range lies in loader/boot-services memory of the EFI map. */
bool probe_map_covers_allocated(const struct probe_ctx *c, uint64_t start, uint64_t len);
/** probe_in_ram() - e820 RAM when the loader gave e820, else allocated EFI memory. */
bool probe_in_ram(const struct probe_ctx *c, uint64_t start, uint64_t len);
/** probe_check_e820() - sorted, disjoint, holding the kernel and boot_params (legacy entries). */
void probe_check_e820(struct probe_ctx *c);
/** probe_check_efi() - efi_info signature, system table, memory map sanity and agreement with e820. */
void probe_check_efi(struct probe_ctx *c);
/** probe_check_paging() - kernel, boot_params and command line identity-mapped under CR3. */
void probe_check_paging(struct probe_ctx *c);

#endif
