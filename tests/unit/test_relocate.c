/* The move plan of a kernel that is not relocatable (src/core/relocate.c) on
 * synthetic memory maps: free, partly runtime, holes, kept ranges (initrd,
 * boot_params, command line), wrap-around sizes, unsorted maps, descriptors
 * larger than the struct; and the refusal's wording. */
#include "test.h"
#include "core/relocate.h"

#define DESC_SIZE 48u /* OVMF's stride: larger than EFI_MEMORY_DESCRIPTOR */
#define MIB 0x100000ull
#define PAGES(bytes) ((bytes) >> EFI_PAGE_SHIFT)

struct map {
	uint8_t buf[32 * DESC_SIZE];
	size_t n, desc_size;
};

static void add(struct map *m, uint32_t type, uint64_t start, uint64_t size, uint64_t attr)
{
	EFI_MEMORY_DESCRIPTOR d = { .Type = type, .PhysicalStart = start, .NumberOfPages = PAGES(size),
				    .Attribute = attr };
	size_t stride = m->desc_size ? m->desc_size : DESC_SIZE;

	m->desc_size = stride;
	memset(m->buf + m->n * stride, 0xa5, stride);
	memcpy(m->buf + m->n++ * stride, &d, sizeof(d));
}

/* Below 1 MiB boot-services data, 1-2 MiB conventional, 2-3 MiB boot-services
 * code, 3-4 MiB loader data, 4-5 MiB runtime data, 5-6 MiB conventional. */
static void pc_map(struct map *m)
{
	*m = (struct map){ 0 };
	add(m, EfiBootServicesData, 0, MIB, 0);
	add(m, EfiConventionalMemory, MIB, MIB, 0);
	add(m, EfiBootServicesCode, 2 * MIB, MIB, 0);
	add(m, EfiLoaderData, 3 * MIB, MIB, 0);
	add(m, EfiRuntimeServicesData, 4 * MIB, MIB, EFI_MEMORY_RUNTIME);
	add(m, EfiConventionalMemory, 5 * MIB, MIB, 0);
}

static enum move_block check(const struct map *m, uint64_t dst, uint64_t size, const struct move_keep *k,
			     struct move_verdict *v)
{
	return move_check(dst, size, m->buf, m->n * m->desc_size, m->desc_size, k, v);
}

TEST(move_free_boot_services_conventional_loader)
{
	struct map m;
	struct move_keep k = { 0 };
	struct move_verdict v;

	pc_map(&m);
	CHECK_EQ(check(&m, MIB, 3 * MIB, &k, &v), MOVE_OK);
	CHECK_EQ(check(&m, 0, 4 * MIB, &k, &v), MOVE_OK);
	CHECK_EQ(check(&m, MIB + 0x800, 0x1000, &k, &v), MOVE_OK); /* inside one descriptor, unaligned */
	CHECK_EQ(v.why, MOVE_OK);
}

TEST(move_partly_runtime)
{
	struct map m;
	struct move_keep k = { 0 };
	struct move_verdict v;

	pc_map(&m);
	CHECK_EQ(check(&m, MIB, 3 * MIB, &k, &v), MOVE_OK);             /* ends with loader data: fine */
	CHECK_EQ(check(&m, MIB, 3 * MIB + 1, &k, &v), MOVE_MEMORY_TYPE); /* one byte of runtime data */
	CHECK_EQ(v.addr, 4 * MIB);
	CHECK_EQ(v.size, MIB);
	CHECK_EQ(v.efi_type, EfiRuntimeServicesData);
	CHECK_EQ(check(&m, 4 * MIB + 0x1000, 0x1000, &k, &v), MOVE_MEMORY_TYPE);
	CHECK_EQ(check(&m, 5 * MIB, MIB, &k, &v), MOVE_OK);             /* right after it */
	CHECK_EQ(check(&m, 4 * MIB - 1, 1, &k, &v), MOVE_OK);           /* right before it */
}

TEST(move_reports_the_lowest_obstacle)
{
	struct map m = { 0 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	add(&m, EfiConventionalMemory, 0, 8 * MIB, 0);
	add(&m, EfiMemoryMappedIO, 6 * MIB, MIB, 0);
	add(&m, EfiACPIReclaimMemory, 3 * MIB, MIB, 0);
	add(&m, EfiReservedMemoryType, 5 * MIB, MIB, 0);
	CHECK_EQ(check(&m, MIB, 6 * MIB, &k, &v), MOVE_MEMORY_TYPE); /* a free descriptor overlaps: no matter */
	CHECK_EQ(v.addr, 3 * MIB);
	CHECK_EQ(v.efi_type, EfiACPIReclaimMemory);
}

TEST(move_every_type)
{
	static const struct { uint32_t type; uint64_t attr; bool free; } t[] = {
		{ EfiReservedMemoryType, 0, false }, { EfiLoaderCode, 0, true },
		{ EfiLoaderData, 0, true }, { EfiBootServicesCode, 0, true },
		{ EfiBootServicesData, 0, true }, { EfiRuntimeServicesCode, 0, false },
		{ EfiRuntimeServicesData, 0, false }, { EfiConventionalMemory, 0, true },
		{ EfiConventionalMemory, EFI_MEMORY_SP, false }, { EfiBootServicesData, EFI_MEMORY_SP, false },
		{ EfiUnusableMemory, 0, false }, { EfiACPIReclaimMemory, 0, false },
		{ EfiACPIMemoryNVS, 0, false }, { EfiMemoryMappedIO, 0, false },
		{ EfiMemoryMappedIOPortSpace, 0, false }, { EfiPalCode, 0, false },
		{ EfiPersistentMemory, 0, false }, { EfiUnacceptedMemoryType, 0, false },
		{ 0x70000000, 0, false },
	};
	struct move_keep k = { 0 };
	struct move_verdict v;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		struct map m = { 0 };

		add(&m, t[i].type, MIB, MIB, t[i].attr);
		if ((check(&m, MIB, MIB, &k, &v) == MOVE_OK) != t[i].free)
			test_fail(__FILE__, __LINE__, "type %u attr %#llx: free %d", t[i].type,
				  (unsigned long long)t[i].attr, !t[i].free);
	}
}

TEST(move_hole_in_the_map)
{
	struct map m = { 0 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	add(&m, EfiConventionalMemory, MIB, MIB, 0);
	add(&m, EfiConventionalMemory, 3 * MIB, MIB, 0);
	CHECK_EQ(check(&m, MIB, 3 * MIB, &k, &v), MOVE_UNMAPPED);
	CHECK_EQ(v.addr, 2 * MIB);
	CHECK_EQ(v.size, MIB);
	CHECK_EQ(check(&m, 3 * MIB, 2 * MIB, &k, &v), MOVE_UNMAPPED); /* past the end of the map */
	CHECK_EQ(v.addr, 4 * MIB);
	CHECK_EQ(v.size, MIB);
	CHECK_EQ(check(&m, 0, MIB + 1, &k, &v), MOVE_UNMAPPED);       /* below the first descriptor */
	CHECK_EQ(v.addr, 0);
}

/* fuzz_relocate: an empty descriptor of a foreign type inside the target
 * was reported as in the way (corpus: empty-descriptor-of-a-foreign-type). */
TEST(move_empty_descriptor_describes_nothing)
{
	struct map m = { 0 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	add(&m, EfiConventionalMemory, MIB, 2 * MIB, 0);
	add(&m, EfiRuntimeServicesData, MIB + 0xda, 0, 0);
	CHECK_EQ(check(&m, MIB, 2 * MIB, &k, &v), MOVE_OK);
}

TEST(move_unsorted_map_and_touching_descriptors)
{
	struct map m = { 0 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	/* 1-4 MiB in four pieces, in reverse order, one overlapping its neighbour */
	add(&m, EfiBootServicesData, 3 * MIB + 0x1000, MIB - 0x1000, 0);
	add(&m, EfiConventionalMemory, 2 * MIB, MIB + 0x2000, 0);
	add(&m, EfiLoaderCode, MIB + MIB / 2, MIB / 2, 0);
	add(&m, EfiBootServicesCode, MIB, MIB / 2, 0);
	CHECK_EQ(check(&m, MIB, 3 * MIB, &k, &v), MOVE_OK);
	CHECK_EQ(check(&m, MIB, 3 * MIB + 1, &k, &v), MOVE_UNMAPPED);
	CHECK_EQ(v.addr, 4 * MIB);
}

TEST(move_kept_ranges)
{
	struct map m;
	struct move_keep k = { 0 };
	struct move_verdict v;
	struct boot_params bp = { 0 };

	pc_map(&m);
	move_keep_add(&k, 0x3ff000, 0x1000, "boot_params");
	move_keep_add(&k, 0x80000, 0x100, "the command line");
	move_keep_add(&k, 2 * MIB + 0x10000, 0x1234, "the initrd");
	move_keep_add(&k, 5 * MIB, 0, "nothing");         /* empty: not added */
	move_keep_setup_data(&k, &bp);                     /* no chain: nothing */
	CHECK_EQ(k.n, 3);
	CHECK_EQ(check(&m, MIB, MIB + 0x10000, &k, &v), MOVE_OK); /* ends where the initrd starts */
	CHECK_EQ(check(&m, MIB, MIB + 0x10001, &k, &v), MOVE_KEPT);
	CHECK_STR(v.what, "the initrd");
	CHECK_EQ(v.addr, 2 * MIB + 0x10000);
	CHECK_EQ(v.size, 0x1234);
	CHECK_EQ(check(&m, 0x3fffff, 1, &k, &v), MOVE_KEPT);
	CHECK_STR(v.what, "boot_params");
	CHECK_EQ(check(&m, 0x800ff, 2, &k, &v), MOVE_KEPT);
	CHECK_STR(v.what, "the command line");
	CHECK_EQ(check(&m, 0x80100, 0x1000, &k, &v), MOVE_OK);
}

TEST(move_keeps_the_setup_data_chain)
{
	static uint8_t node_a[sizeof(struct setup_data) + 16], node_b[sizeof(struct setup_data) + 100];
	struct setup_data *a = (void *)node_a, *b = (void *)node_b;
	struct boot_params bp = { 0 };
	struct move_keep k = { 0 };

	a->len = 16;
	a->next = (uintptr_t)b;
	b->len = 100;
	bp.hdr.setup_data = (uintptr_t)a;
	move_keep_setup_data(&k, &bp);
	CHECK_EQ(k.n, 2);
	CHECK_EQ(k.r[0].addr, (uintptr_t)a);
	CHECK_EQ(k.r[0].size, sizeof(node_a));
	CHECK_EQ(k.r[1].addr, (uintptr_t)b);
	CHECK_EQ(k.r[1].size, sizeof(node_b));
	b->next = (uintptr_t)a; /* a loop: stops, and no move is made */
	k = (struct move_keep){ 0 };
	move_keep_setup_data(&k, &bp);
	CHECK(k.overflow);
}

TEST(move_keep_overflow_refuses)
{
	struct map m;
	struct move_keep k = { 0 };
	struct move_verdict v;

	pc_map(&m);
	for (unsigned i = 0; i <= MOVE_KEEP_MAX; i++)
		move_keep_add(&k, 0x10000000ull + i * 0x1000, 0x1000, "x");
	CHECK_EQ(k.n, MOVE_KEEP_MAX);
	CHECK(k.overflow);
	CHECK_EQ(check(&m, MIB, MIB, &k, &v), MOVE_KEEP_FULL);
}

TEST(move_wrap_around_sizes)
{
	struct map m = { 0 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	add(&m, EfiConventionalMemory, 0, MIB, 0);
	CHECK_EQ(check(&m, MIB, 0, &k, &v), MOVE_BAD_RANGE);
	CHECK_EQ(check(&m, UINT64_MAX - 0xfff, 0x1001, &k, &v), MOVE_BAD_RANGE);
	CHECK_EQ(check(&m, 1, UINT64_MAX, &k, &v), MOVE_BAD_RANGE);
	/* ending at 2^64 is refused too; ending below it is only unmapped */
	CHECK_EQ(check(&m, UINT64_MAX - 0xfff, 0x1000, &k, &v), MOVE_BAD_RANGE);
	CHECK_EQ(check(&m, UINT64_MAX - 0x1fff, 0x1000, &k, &v), MOVE_UNMAPPED);
	/* a kept range whose end would wrap still counts to 2^64 */
	move_keep_add(&k, UINT64_MAX - 0x10, 0x1000, "wraps");
	CHECK_EQ(check(&m, UINT64_MAX - 0x1000, 0x1000, &k, &v), MOVE_KEPT);
	CHECK(move_overlaps(UINT64_MAX - 0x10, 0x1000, UINT64_MAX - 1, 1));
	CHECK(!move_overlaps(0, UINT64_MAX, UINT64_MAX, 1)); /* [0, 2^64 - 1) ends before it */
	CHECK(!move_overlaps(5, 0, 0, 10));
	/* a descriptor whose pages pass 2^64 is a broken map */
	k = (struct move_keep){ 0 };
	add(&m, EfiConventionalMemory, 0xfffffffffff00000ull, 0x100000000000ull, 0);
	CHECK_EQ(check(&m, 0, 0x1000, &k, &v), MOVE_BAD_MAP);
}

TEST(move_descriptor_sizes)
{
	struct map m = { .desc_size = 64 };
	struct move_keep k = { 0 };
	struct move_verdict v;

	add(&m, EfiReservedMemoryType, 2 * MIB, MIB, 0);
	add(&m, EfiConventionalMemory, MIB, MIB, 0);
	CHECK_EQ(check(&m, MIB, MIB, &k, &v), MOVE_OK);
	CHECK_EQ(check(&m, MIB, 2 * MIB, &k, &v), MOVE_MEMORY_TYPE);
	/* a trailing partial descriptor is not read */
	CHECK_EQ(move_check(MIB, MIB, m.buf + 64, 64 + 63, 64, &k, &v), MOVE_OK);
	/* smaller than the struct: nothing can be trusted */
	CHECK_EQ(move_check(MIB, MIB, m.buf, 2 * 32, 32, &k, &v), MOVE_BAD_MAP);
	CHECK_EQ(move_check(MIB, MIB, m.buf, 0, 64, &k, &v), MOVE_BAD_MAP);
}

TEST(move_refusal_names_range_and_type)
{
	struct map m;
	struct move_keep k = { 0 };
	struct move_verdict v;

	pc_map(&m);
	test_log_reset();
	CHECK_EQ(check(&m, 3 * MIB, 2 * MIB, &k, &v), MOVE_MEMORY_TYPE);
	CHECK_EQ(move_refusal("/vmlinuz", 3 * MIB, 2 * MIB, &v), EFI_LOAD_ERROR);
	CHECK_LOG("/vmlinuz: not relocatable, and [0x300000, +0x200000) at pref_address holds runtime services data "
		  "at [0x400000, 0x500000)");
	move_keep_add(&k, 0x300000, 0x2000, "the initrd");
	CHECK_EQ(check(&m, 3 * MIB, 2 * MIB, &k, &v), MOVE_KEPT);
	move_refusal("/vmlinuz", 3 * MIB, 2 * MIB, &v);
	CHECK_LOG("holds the initrd at [0x300000, 0x302000)");
	CHECK_EQ(check(&m, 6 * MIB, MIB, &k, &v), MOVE_UNMAPPED);
	move_refusal("/vmlinuz", 6 * MIB, MIB, &v);
	CHECK_LOG("holds a hole in the memory map at [0x600000, 0x700000)");
	CHECK_EQ(check(&m, UINT64_MAX, 2, &k, &v), MOVE_BAD_RANGE);
	move_refusal("/k", UINT64_MAX, 2, &v);
	CHECK_LOG("/k: not relocatable, and [0xffffffffffffffff, +0x2) at pref_address holds the end of the address");
	for (uint32_t t = 0; t <= EfiMaxMemoryType; t++) {
		struct map one = { 0 };
		const char *want[] = { "reserved", "", "", "", "", "runtime services code", "runtime services data",
				       "soft-reserved memory", "unusable memory", "ACPI tables", "ACPI NVS", "MMIO",
				       "MMIO port space", "PAL code", "persistent memory", "unaccepted memory",
				       "memory of an unknown type" };
		char line[80];

		add(&one, t, MIB, MIB, t == EfiConventionalMemory ? EFI_MEMORY_SP : 0);
		if (check(&one, MIB, MIB, &k, &v) != MOVE_MEMORY_TYPE)
			continue; /* the types the OS owns */
		move_refusal("/t", MIB, MIB, &v);
		snprintf(line, sizeof(line), "holds %s at [0x100000, 0x200000)", want[t]);
		CHECK_LOG(line);
	}
}
