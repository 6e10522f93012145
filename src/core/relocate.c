/* The move plan of a kernel that is not relocatable (relocate.h). UEFI 2.10
 * §7.4.6: after ExitBootServices boot-services code and data belong to the
 * OS, with conventional memory and the loader's own pages; runtime, ACPI,
 * reserved, MMIO, persistent and unaccepted memory never do. The map may be
 * unsorted and its descriptors larger than EFI_MEMORY_DESCRIPTOR. */
#include "relocate.h"
#include "log.h"
#include "smbios.h"

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

/* One pass over the map: the top of the identity map, and the vendor string
 * and each configuration table, whose lengths are their own, from its
 * address to the end of the descriptor holding it when that is memory the
 * move could take (any other, move_check() refuses anyway): an allocation
 * lies in one descriptor. */
static uint64_t keep_to_descriptor_end(struct move_keep *k, const EFI_SYSTEM_TABLE *st, const void *map, size_t n,
				       size_t desc_size)
{
	uint64_t top = MOVE_MAP_TOP_MIN;

	for (size_t i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR d;
		uint64_t d_end;

		desc_at(map, desc_size, i, &d);
		if (!desc_range(&d, &d_end))
			continue;
		top = MAX(top, MIN(d_end, MOVE_MAP_TOP_MAX));
		for (UINTN j = 0; type_free(&d) && j <= st->NumberOfTableEntries; j++) {
			const void *t = j ? st->ConfigurationTable[j - 1].VendorTable : st->FirmwareVendor;
			uint64_t p = (uintptr_t)t;

			if (p && d.PhysicalStart <= p && p < d_end)
				move_keep_add(k, p, d_end - p, j ? "a configuration table" : "the EFI system table");
		}
	}
	return ALIGN_UP(top, MOVE_MAP_TOP_ALIGN);
}

/* What a table points to lies in memory of its own: ACPI's in ACPI memory,
 * which the move never takes; SMBIOS's structure table is kept by name. */
static void keep_smbios(struct move_keep *k, const EFI_SYSTEM_TABLE *st)
{
	for (UINTN i = 0; i < st->NumberOfTableEntries; i++) {
		const EFI_CONFIGURATION_TABLE *t = &st->ConfigurationTable[i];
		const uint8_t *p = t->VendorTable;
		bool v3 = t->VendorGuid.Data1 == SMBIOS3_GUID_DATA1;

		/* by Data1 alone: another table taken for one only adds a range */
		if (p && (v3 || t->VendorGuid.Data1 == SMBIOS_GUID_DATA1))
			move_keep_add(k, v3 ? get_le64(p + SMBIOS3_TABLE_ADDRESS) : get_le32(p + SMBIOS_TABLE_ADDRESS),
				      v3 ? get_le32(p + SMBIOS3_TABLE_MAX_SIZE) : get_le16(p + SMBIOS_TABLE_LENGTH),
				      "the SMBIOS table");
	}
}

/* A range the move cannot go without: missing, the list is incomplete. */
static void keep_needed(struct move_keep *k, uint64_t addr, uint64_t size, const char *what)
{
	if (!addr || !size)
		k->overflow = true;
	move_keep_add(k, addr, size, what);
}

uint64_t move_keep_build(struct move_keep *k, const struct move_uses *u, const void *map, size_t map_size,
			 size_t desc_size)
{
	size_t n = desc_size >= sizeof(EFI_MEMORY_DESCRIPTOR) ? map_size / desc_size : 0;
	const EFI_SYSTEM_TABLE *st = u->st;
	uint64_t page = ALIGN_DOWN(u->frame, (uint64_t)EFI_PAGE_SIZE);

	keep_needed(k, (uintptr_t)u->bp, sizeof(*u->bp), "boot_params");
	keep_needed(k, u->map.addr, u->map.size, "the EFI memory map");
	keep_needed(k, u->image.addr, u->image.size, "handoff's image");
	keep_needed(k, page > MOVE_STACK_BELOW ? page - MOVE_STACK_BELOW : 0, MOVE_STACK_BELOW + MOVE_STACK_ABOVE,
		    "handoff's stack");
	keep_needed(k, (uintptr_t)st, sizeof(*st), "the EFI system table");
	if (k->overflow)
		return MOVE_MAP_TOP_MIN;
	move_keep_add(k, u->cmdline.addr, u->cmdline.size, "the command line");
	move_keep_add(k, u->initrd.addr, u->initrd.size, "the initrd");
	move_keep_setup_data(k, u->bp);
	move_keep_add(k, u->e820_ext.addr, u->e820_ext.size, "setup_data");
	move_keep_add(k, (uintptr_t)st->ConfigurationTable,
		      (uint64_t)st->NumberOfTableEntries * sizeof(EFI_CONFIGURATION_TABLE), "the EFI system table");
	keep_smbios(k, st);
	return keep_to_descriptor_end(k, st, map, n, desc_size);
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
		return "more in use than it can list";
	}
}

EFI_STATUS move_refusal(const char *name, uint64_t dst, uint64_t size, const struct move_verdict *v)
{
	return log_error_status(EFI_LOAD_ERROR,
				"%s: not relocatable, and [%#llx, +%#llx) at pref_address holds %s at [%#llx, %#llx)",
				name, (unsigned long long)dst, (unsigned long long)size, verdict_what(v),
				(unsigned long long)v->addr, (unsigned long long)end_of(v->addr, v->size));
}
