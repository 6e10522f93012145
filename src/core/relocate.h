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
 * (boot_params, command line, initrd, setup_data, the EFI memory map, the
 * system and configuration tables) and what runs the copy (the loader's
 * image, its stack, its page tables): move_keep_build(). */
#define MOVE_KEEP_MAX 64u

/* The stack kept around the copying function's frame address: its locals and
 * the few frames of memmove() and the jump below it, with a wide margin, and
 * its return address and the page above. */
#define MOVE_STACK_BELOW 0x4000u
#define MOVE_STACK_ABOVE 0x2000u

struct move_range {
	uint64_t addr, size;
	const char *what;
};

struct move_keep {
	struct move_range r[MOVE_KEEP_MAX];
	size_t n;
	bool overflow;            /* more ranges than MOVE_KEEP_MAX, or one missing: no move is safe */
};

struct move_span {
	uint64_t addr, size;
};

/* What the loader knows is still used after the exit, for move_keep_build(). */
struct move_uses {
	const struct boot_params *bp;   /* and its setup_data chain */
	struct move_span cmdline, initrd;
	struct move_span e820_ext;      /* the e820 overflow node, linked at the exit */
	struct move_span map;           /* the EFI memory map's buffer (efi_info) */
	struct move_span image;         /* the loader's own: the copy, the jump, the GDT */
	uint64_t frame;                 /* the copying function's frame address */
	const EFI_SYSTEM_TABLE *st;
};

enum move_block {
	MOVE_OK,
	MOVE_BAD_RANGE,           /* empty, or the range wraps past 2^64 */
	MOVE_BAD_MAP,             /* descriptor size, or a descriptor that wraps */
	MOVE_KEPT,                /* a range of struct move_keep (.what) */
	MOVE_MEMORY_TYPE,         /* a descriptor of a type the OS does not own (.efi_type) */
	MOVE_UNMAPPED,            /* bytes no descriptor describes */
	MOVE_KEEP_FULL,           /* struct move_keep overflowed, or lacks a range it needs */
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
 * move_keep_build() - the ranges the move must not touch, into @k (empty):
 * @u's (boot_params and its setup_data chain, the command line, the initrd,
 * the e820 overflow buffer, the memory map's buffer, the image), the stack
 * MOVE_STACK_BELOW under and MOVE_STACK_ABOVE over @u->frame's page, and the
 * firmware's: the system table and its configuration table array (the
 * runtime services table is runtime memory); the vendor string and every
 * configuration table, whose lengths are their own, from its address to the
 * end of the descriptor of @map holding it (an allocation lies in one
 * descriptor; only memory the move could take is listed); the structure
 * table an SMBIOS entry point names. A missing boot_params, map buffer,
 * image, frame or system table leaves @k incomplete (overflow): no move. The
 * caller adds what it allocates afterwards (the page tables of the move).
 * Return: where the identity map of the move ends: the end of @map's
 * highest descriptor, at least MOVE_MAP_TOP_MIN, at most MOVE_MAP_TOP_MAX,
 * rounded up to MOVE_MAP_TOP_ALIGN.
 */
uint64_t move_keep_build(struct move_keep *k, const struct move_uses *u, const void *map, size_t map_size,
			 size_t desc_size);
#define MOVE_MAP_TOP_MIN 0x100000000ull      /* 4 GiB: the firmware's MMIO below it */
#define MOVE_MAP_TOP_ALIGN 0x40000000ull     /* 1 GiB: what a PD page maps */
#define MOVE_MAP_TOP_MAX (1ull << 47)        /* the canonical lower half of 4-level paging */

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
