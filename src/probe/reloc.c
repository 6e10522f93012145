/* Self-relocation: the payload is linked at 0 as a PIE and may run anywhere,
 * so before any pointer in its data is used, every R_X86_64_RELATIVE entry
 * of .rela.dyn gets the load address added (ELF x86-64 psABI §4.4). The
 * link (mk/probe.mk) checks that no other relocation type exists. */
#include "probe.h"

#define R_X86_64_RELATIVE 8u

struct elf64_rela {
	uint64_t r_offset;
	uint64_t r_info;
	int64_t r_addend;
};

extern const struct elf64_rela __rela_start[] __attribute__((visibility("hidden")));
extern const struct elf64_rela __rela_end[] __attribute__((visibility("hidden")));

void probe_relocate(uint8_t *base)
{
	for (const struct elf64_rela *r = __rela_start; r < __rela_end; r++)
		if ((uint32_t)r->r_info == R_X86_64_RELATIVE)
			*(uint64_t *)(base + r->r_offset) = (uint64_t)(uintptr_t)base + (uint64_t)r->r_addend;
}
