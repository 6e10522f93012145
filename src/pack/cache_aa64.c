/* cache_sync_code() for AArch64 (cache.h). Instruction fetches need not see
 * what stores wrote: after writing code, software cleans the data cache to
 * the point of unification by address (DC CVAU), waits for that (DSB ISH),
 * invalidates the instruction cache by address (IC IVAU), waits (DSB ISH) and
 * resynchronizes its own fetches (ISB) (Arm Architecture Reference Manual for
 * A-profile, DDI 0487, "Synchronization and coherency issues between data and
 * instruction accesses"). The line sizes are CTR_EL0's DminLine (bits 19:16)
 * and IminLine (bits 3:0), log2 of the number of 4-byte words (DDI 0487,
 * "CTR_EL0, Cache Type Register"), readable at EL1 and EL2, where UEFI runs. */
#include "cache.h"

void cache_sync_code(uintptr_t start, size_t len)
{
	uintptr_t end = start + len, p;
	uint64_t ctr;
	size_t dline, iline;

	__asm__ volatile("mrs %0, ctr_el0" : "=r"(ctr));
	dline = (size_t)4 << ((ctr >> 16) & 15);
	iline = (size_t)4 << (ctr & 15);
	for (p = start & ~(dline - 1); p < end; p += dline)
		__asm__ volatile("dc cvau, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish" : : : "memory");
	for (p = start & ~(iline - 1); p < end; p += iline)
		__asm__ volatile("ic ivau, %0" : : "r"(p) : "memory");
	__asm__ volatile("dsb ish\n\tisb" : : : "memory");
}
