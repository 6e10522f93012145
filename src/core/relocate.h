/* The move of a kernel that is not relocatable (boot.rst relocatable_kernel
 * = 0) to its pref_address after ExitBootServices, on the legacy scheme
 * (docs/design.md "Kernels that are not relocatable"): is the target range
 * free for the OS under a memory map, and if not, what is in the way. Pure
 * and allocation-free: it decides on the final map, between the last
 * GetMemoryMap and ExitBootServices (docs/style.md rule 8). */
#ifndef CORE_RELOCATE_H
#define CORE_RELOCATE_H

#include "platform.h"
#include <bootproto/bootparam.h>
#include <efi/efi.h>

/* Ranges still in use after ExitBootServices: what the kernel reads
 * (boot_params, command line, initrd, setup_data, the EFI memory map,
 * configuration tables) and what runs the copy (the loader's image, its stack). */
#define MOVE_KEEP_MAX 64u

struct move_range {
	uint64_t addr, size;
	const char *what;
};

struct move_keep {
	struct move_range r[MOVE_KEEP_MAX];
	size_t n;
	bool overflow;            /* more ranges than MOVE_KEEP_MAX: no move is safe */
};

enum move_block {
	MOVE_OK,
	MOVE_BAD_RANGE,           /* empty, or the range wraps past 2^64 */
	MOVE_BAD_MAP,             /* descriptor size, or a descriptor that wraps */
	MOVE_KEPT,                /* a range of struct move_keep (.what) */
	MOVE_MEMORY_TYPE,         /* a descriptor of a type the OS does not own (.efi_type) */
	MOVE_UNMAPPED,            /* bytes no descriptor describes */
	MOVE_KEEP_FULL,           /* struct move_keep overflowed */
};

/* What move_check() found in the way: the range and, by .why, what it is. */
struct move_verdict {
	enum move_block why;
	uint64_t addr, size;
	uint32_t efi_type;
	bool soft_reserved;       /* conventional memory with EFI_MEMORY_SP */
	const char *what;
};

/** move_keep_add() - remember [@addr, @addr + @size) as in use; a zero @size adds nothing. */
void move_keep_add(struct move_keep *k, uint64_t addr, uint64_t size, const char *what);

/**
 * move_keep_setup_data() - add every node of @bp's setup_data chain (header
 * and payload), at most MOVE_KEEP_MAX of them (a longer chain overflows @k).
 */
void move_keep_setup_data(struct move_keep *k, const struct boot_params *bp);

/**
 * move_overlaps() - do [@a, @a + @a_size) and [@b, @b + @b_size) share a
 * byte? Ends that would pass 2^64 count as 2^64.
 */
bool move_overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size);

/**
 * move_check() - may [@dst, @dst + @size) be overwritten after ExitBootServices
 * under this memory map (@map_size bytes of descriptors @desc_size apart, in
 * any order)? Yes when no range of @keep overlaps it and every byte of it is
 * described only by descriptors the OS owns then: conventional memory,
 * boot-services code or data, loader code or data (handoff's own, dead but
 * for @keep), none with EFI_MEMORY_SP. Allocates nothing.
 * Return: MOVE_OK, or why not, with *@ret naming the lowest obstacle found.
 */
enum move_block move_check(uint64_t dst, uint64_t size, const void *map, size_t map_size, size_t desc_size,
			   const struct move_keep *keep, struct move_verdict *ret);

/**
 * move_refusal() - log why a kernel of @name cannot be moved to
 * [@dst, @dst + @size): the range and what is in the way (the memory type's
 * name, the range in use, a hole), with its addresses.
 * Return: EFI_LOAD_ERROR.
 */
EFI_STATUS move_refusal(const char *name, uint64_t dst, uint64_t size, const struct move_verdict *v);

#endif
