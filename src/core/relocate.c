/* The move plan of a kernel that is not relocatable (relocate.h). UEFI 2.10
 * §7.4.6: after ExitBootServices boot-services code and data belong to the
 * OS, with conventional memory and the loader's own pages; runtime, ACPI,
 * reserved, MMIO, persistent and unaccepted memory never do. The map may be
 * unsorted and its descriptors larger than EFI_MEMORY_DESCRIPTOR. */
#include "relocate.h"
#include "log.h"

#define SETUP_DATA_WALK_MAX MOVE_KEEP_MAX

void move_keep_add(struct move_keep *k, uint64_t addr, uint64_t size, const char *what)
{
	if (!size)
		return;
	if (k->n == MOVE_KEEP_MAX) {
		k->overflow = true;
		return;
	}
	k->r[k->n++] = (struct move_range){ addr, size, what };
}

void move_keep_setup_data(struct move_keep *k, const struct boot_params *bp)
{
	uint64_t addr = bp->hdr.setup_data;

	for (unsigned n = 0; addr; n++) {
		const struct setup_data *node = (const struct setup_data *)(uintptr_t)addr;

		if (n == SETUP_DATA_WALK_MAX) {
			k->overflow = true;
			return;
		}
		move_keep_add(k, addr, sizeof(*node) + (uint64_t)node->len, "setup_data");
		addr = node->next;
	}
}

static uint64_t end_of(uint64_t addr, uint64_t size)
{
	return size > UINT64_MAX - addr ? UINT64_MAX : addr + size;
}

bool move_overlaps(uint64_t a, uint64_t a_size, uint64_t b, uint64_t b_size)
{
	return a_size && b_size && a < end_of(b, b_size) && b < end_of(a, a_size);
}

static bool type_free(const EFI_MEMORY_DESCRIPTOR *d)
{
	if (d->Attribute & EFI_MEMORY_SP)
		return false;
	switch (d->Type) {
	case EfiLoaderCode:
	case EfiLoaderData:
	case EfiBootServicesCode:
	case EfiBootServicesData:
	case EfiConventionalMemory:
		return true;
	default:
		return false;
	}
}

/* Descriptor @i of the map, copied: a map need not be aligned for the struct. */
static void desc_at(const void *map, size_t desc_size, size_t i, EFI_MEMORY_DESCRIPTOR *ret)
{
	memcpy(ret, (const uint8_t *)map + i * desc_size, sizeof(*ret));
}

/* Its byte range; false when it wraps past 2^64 (a broken map). */
static bool desc_range(const EFI_MEMORY_DESCRIPTOR *d, uint64_t *ret_end)
{
	if (d->NumberOfPages > (UINT64_MAX - d->PhysicalStart) >> EFI_PAGE_SHIFT)
		return false;
	*ret_end = d->PhysicalStart + (d->NumberOfPages << EFI_PAGE_SHIFT);
	return true;
}

/* Pass 1: the lowest descriptor the OS does not own that overlaps [dst, end). */
static enum move_block find_foreign(uint64_t dst, uint64_t end, const void *map, size_t n, size_t desc_size,
				    struct move_verdict *v)
{
	for (size_t i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR d;
		uint64_t d_end;

		desc_at(map, desc_size, i, &d);
		if (!desc_range(&d, &d_end)) {
			*v = (struct move_verdict){ .why = MOVE_BAD_MAP, .addr = d.PhysicalStart, .efi_type = d.Type };
			return MOVE_BAD_MAP;
		}
		/* an empty descriptor describes nothing, whatever its type */
		if (type_free(&d) || d.PhysicalStart >= end || d_end <= dst || d_end == d.PhysicalStart)
			continue;
		if (v->why != MOVE_MEMORY_TYPE || d.PhysicalStart < v->addr)
			*v = (struct move_verdict){ .why = MOVE_MEMORY_TYPE, .addr = d.PhysicalStart,
						    .size = d_end - d.PhysicalStart, .efi_type = d.Type,
						    .soft_reserved = (d.Attribute & EFI_MEMORY_SP) != 0 };
	}
	return v->why;
}

/* Pass 2: free descriptors cover [dst, end) without a hole. Each step moves
 * @at to the end of a descriptor containing it, which contains no later @at:
 * at most n steps, whatever the order of the map. */
static enum move_block find_hole(uint64_t dst, uint64_t end, const void *map, size_t n, size_t desc_size,
				 struct move_verdict *v)
{
	for (uint64_t at = dst; at < end;) {
		uint64_t next = at, gap_end = end;

		for (size_t i = 0; i < n; i++) {
			EFI_MEMORY_DESCRIPTOR d;
			uint64_t d_end;

			desc_at(map, desc_size, i, &d);
			desc_range(&d, &d_end); /* none wraps: find_foreign() */
			if (d.PhysicalStart <= at && at < d_end)
				next = MAX(next, d_end);
			else if (d.PhysicalStart > at && d.PhysicalStart < gap_end)
				gap_end = d.PhysicalStart;
		}
		if (next == at) {
			*v = (struct move_verdict){ .why = MOVE_UNMAPPED, .addr = at, .size = gap_end - at };
			return MOVE_UNMAPPED;
		}
		at = next;
	}
	return MOVE_OK;
}

enum move_block move_check(uint64_t dst, uint64_t size, const void *map, size_t map_size, size_t desc_size,
			   const struct move_keep *keep, struct move_verdict *ret)
{
	size_t n = desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR) ? map_size / desc_size : 0;
	enum move_block why;

	*ret = (struct move_verdict){ .why = MOVE_OK };
	if (!size || size > UINT64_MAX - dst)
		return ret->why = MOVE_BAD_RANGE;
	if (!n)
		return ret->why = MOVE_BAD_MAP;
	if (keep->overflow)
		return ret->why = MOVE_KEEP_FULL;
	for (size_t i = 0; i < keep->n; i++)
		if (move_overlaps(keep->r[i].addr, keep->r[i].size, dst, size)) {
			*ret = (struct move_verdict){ .why = MOVE_KEPT, .addr = keep->r[i].addr,
						      .size = keep->r[i].size, .what = keep->r[i].what };
			return MOVE_KEPT;
		}
	why = find_foreign(dst, dst + size, map, n, desc_size, ret);
	if (why != MOVE_OK)
		return why;
	return find_hole(dst, dst + size, map, n, desc_size, ret);
}

/* The names of the types that can be in the way, by EFI_MEMORY_TYPE, one
 * string (no table of pointers in the loader); EfiConventionalMemory is in
 * the way only with EFI_MEMORY_SP. */
static const char type_names[] = "reserved\0\0\0\0\0runtime services code\0runtime services data\0"
				 "soft-reserved memory\0unusable memory\0ACPI tables\0ACPI NVS\0MMIO\0"
				 "MMIO port space\0PAL code\0persistent memory\0unaccepted memory";

static const char *type_name(uint32_t type)
{
	const char *p = type_names;

	if (type >= EfiMaxMemoryType)
		return "memory of an unknown type";
	while (type--)
		p += strlen(p) + 1;
	return p;
}

static const char *verdict_what(const struct move_verdict *v)
{
	switch (v->why) {
	case MOVE_KEPT:
		return v->what;
	case MOVE_MEMORY_TYPE:
		return type_name(v->soft_reserved ? EfiConventionalMemory : v->efi_type);
	case MOVE_UNMAPPED:
		return "a hole in the memory map";
	case MOVE_BAD_RANGE:
		return "the end of the address space";
	case MOVE_BAD_MAP:
		return "a malformed memory map";
	default:
		return "too many ranges in use";
	}
}

EFI_STATUS move_refusal(const char *name, uint64_t dst, uint64_t size, const struct move_verdict *v)
{
	return log_error_status(EFI_LOAD_ERROR,
				"%s: not relocatable, and [%#llx, +%#llx) at pref_address holds %s at [%#llx, %#llx)",
				name, (unsigned long long)dst, (unsigned long long)size, verdict_what(v),
				(unsigned long long)v->addr, (unsigned long long)end_of(v->addr, v->size));
}
