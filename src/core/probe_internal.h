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

/* Read through the input's callback; address 0 and wrapping ranges count as
 * unreadable (a missing pointer, not memory at 0). */
bool probe_read(const struct probe_ctx *c, uint64_t addr, void *buf, size_t len);

/* probe_mem.c */
bool probe_e820_covers(const struct probe_ctx *c, uint32_t type, uint64_t start, uint64_t len);
bool probe_map_covers_allocated(const struct probe_ctx *c, uint64_t start, uint64_t len);
bool probe_in_ram(const struct probe_ctx *c, uint64_t start, uint64_t len);
void probe_check_e820(struct probe_ctx *c);
void probe_check_efi(struct probe_ctx *c);
void probe_check_paging(struct probe_ctx *c);

#endif
