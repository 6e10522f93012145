/* What the move of a kernel that is not relocatable keeps (move_keep_build(),
 * src/core/relocate.c) on a fake firmware's tables and memory map: every
 * range the loader names, the stack around its frame, the system table and
 * its configuration table array, each configuration table to the end of its
 * descriptor when that is memory the move could take, the SMBIOS structure
 * tables; an incomplete list refuses every move; and move_check() refuses a
 * target that meets any of them where the first byte of a table alone would
 * not. */
#include "test.h"
#include "fake_fw.h"
#include "core/relocate.h"

#define MIB 0x100000ull
#define GIB 0x40000000ull

/* Where the fake firmware's tables are: two in its boot-services data
 * [126, 127) MiB, one in ACPI memory [127, 128) MiB; the SMBIOS entry points
 * are host buffers naming structure tables at 125 MiB and 4.5 GiB. */
#define BS_DATA 0x7e00000ull
#define ACPI_DATA 0x7f00000ull
#define HOB_LIST 0x7e45000ull
#define VENDOR 0x7e80010ull
#define SMBIOS_STRUCT 0x7d00000ull
#define SMBIOS3_STRUCT 0x120000000ull

/* UEFI 2.10 §4.6.1; the PI specification's HOB list */
#define ACPI_20 { 0x8868e871, 0xe4f1, 0x11d3, { 0xbc, 0x22, 0x00, 0x80, 0xc7, 0x3c, 0x88, 0x81 } }
#define SMBIOS_GUID { 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }
#define SMBIOS3_GUID { 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } }
#define HOB_LIST_GUID { 0x7739f24c, 0x93d7, 0x11d4, { 0x9a, 0x3a, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }

struct fake_tables {
	EFI_SYSTEM_TABLE st;
	EFI_RUNTIME_SERVICES rt;
	EFI_CONFIGURATION_TABLE ct[5];
	uint8_t smbios[0x1f], smbios3[0x18];
	struct boot_params bp;
	uint8_t node[sizeof(struct setup_data) + 40] __attribute__((aligned(8)));
};

static void fake_tables(struct fake_tables *t)
{
	struct setup_data *node = (void *)t->node;

	memset(t, 0, sizeof(*t));
	t->st.Hdr.HeaderSize = sizeof(t->st);
	t->st.RuntimeServices = &t->rt;
	t->st.FirmwareVendor = (CHAR16 *)(uintptr_t)VENDOR;
	t->st.NumberOfTableEntries = 5;
	t->st.ConfigurationTable = t->ct;
	t->ct[0] = (EFI_CONFIGURATION_TABLE){ ACPI_20, (void *)(uintptr_t)ACPI_DATA };
	t->ct[1] = (EFI_CONFIGURATION_TABLE){ HOB_LIST_GUID, (void *)(uintptr_t)HOB_LIST };
	t->ct[2] = (EFI_CONFIGURATION_TABLE){ SMBIOS_GUID, t->smbios };
	t->ct[3] = (EFI_CONFIGURATION_TABLE){ SMBIOS3_GUID, t->smbios3 };
	t->ct[4] = (EFI_CONFIGURATION_TABLE){ HOB_LIST_GUID, NULL };
	/* DSP0134 §5.2.1: length at 0x16, address at 0x18; §5.2.2: size at 0x0c, address at 0x10 */
	memcpy(t->smbios, "_SM_", 4);
	put_le16(t->smbios + 0x16, 0x1234);
	put_le32(t->smbios + 0x18, (uint32_t)SMBIOS_STRUCT);
	memcpy(t->smbios3, "_SM3_", 5);
	put_le32(t->smbios3 + 0x0c, 0x5000);
	put_le64(t->smbios3 + 0x10, SMBIOS3_STRUCT);
	node->len = 40;
	t->bp.hdr.setup_data = (uintptr_t)node;
}

/* Low memory, the loader's and the kernel's, the firmware's data, ACPI, and
 * RAM above 4 GiB to 5 GiB; OVMF's descriptor stride. */
static struct fake_fw *fake_map(void)
{
	static struct fake_fw fw;

	fake_fw_init(&fw, 0);
	fake_fw_add(&fw, EfiConventionalMemory, 0, 0xa0, 0);
	fake_fw_add(&fw, EfiConventionalMemory, MIB, (BS_DATA - MIB) >> 12, 0);
	fake_fw_add(&fw, EfiBootServicesData, BS_DATA, 0x100, 0);
	fake_fw_add(&fw, EfiACPIReclaimMemory, ACPI_DATA, 0x100, 0);
	fake_fw_add(&fw, EfiConventionalMemory, 4 * GIB, GIB >> 12, 0);
	return &fw;
}

static struct move_uses uses(struct fake_tables *t)
{
	return (struct move_uses){
		.bp = &t->bp,
		.cmdline = { 0x90000, 0x100 },
		.initrd = { 0x6000000, 0x123456 },
		.e820_ext = { 0x5f00000, 0x2000 },
		.map = { 0x5e00000, 0x3000 },
		.image = { 0x5d00000, 0x20000 },
		.frame = 0x5c0f123,
		.st = &t->st,
	};
}

/* The fake firmware's map and tables, and what the loader names. */
struct fixture {
	struct fake_tables t;
	struct fake_fw *fw;
	struct move_uses u;
	struct move_keep k;
};

static struct fixture *fixture(void)
{
	static struct fixture f;

	fake_tables(&f.t);
	f.fw = fake_map();
	f.u = uses(&f.t);
	return &f;
}

static uint64_t build(struct move_keep *k, struct fake_fw *fw, const struct move_uses *u)
{
	*k = (struct move_keep){ 0 };
	return move_keep_build(k, u, fw->map, fw->n_desc * FAKE_DESC_SIZE, FAKE_DESC_SIZE);
}

static enum move_block check(struct fixture *f, uint64_t dst, uint64_t size, struct move_verdict *v)
{
	return move_check(dst, size, f->fw->map, f->fw->n_desc * FAKE_DESC_SIZE, FAKE_DESC_SIZE, &f->k, v);
}

/* @k holds [@addr, +@size) named @what, once. */
static bool kept(const struct move_keep *k, uint64_t addr, uint64_t size, const char *what)
{
	int n = 0;

	for (size_t i = 0; i < k->n; i++)
		n += k->r[i].addr == addr && k->r[i].size == size && !strcmp(k->r[i].what, what);
	return n == 1;
}

TEST(move_keep_lists_what_is_used_after_the_exit)
{
	struct fixture *f = fixture();
	struct move_keep *k = &f->k;
	struct fake_tables *t = &f->t;

	CHECK_EQ(build(k, f->fw, &f->u), 5 * GIB); /* the identity map: to the map's top */
	CHECK(!k->overflow);
	CHECK(kept(k, (uintptr_t)&t->bp, sizeof(t->bp), "boot_params"));
	CHECK(kept(k, 0x5e00000, 0x3000, "the EFI memory map"));
	CHECK(kept(k, 0x5d00000, 0x20000, "handoff's image"));
	/* 16 KiB under the frame's page, its page and the one above */
	CHECK(kept(k, 0x5c0b000, 0x6000, "handoff's stack"));
	CHECK(kept(k, 0x90000, 0x100, "the command line"));
	CHECK(kept(k, 0x6000000, 0x123456, "the initrd"));
	CHECK(kept(k, (uintptr_t)t->node, sizeof(t->node), "setup_data"));
	CHECK(kept(k, 0x5f00000, 0x2000, "setup_data"));
	CHECK(kept(k, (uintptr_t)&t->st, sizeof(t->st), "the EFI system table"));
	CHECK(kept(k, (uintptr_t)t->ct, sizeof(t->ct), "the EFI system table"));
	/* lengths unknown: to the end of the boot-services data holding them */
	CHECK(kept(k, VENDOR, ACPI_DATA - VENDOR, "the EFI system table"));
	CHECK(kept(k, HOB_LIST, ACPI_DATA - HOB_LIST, "a configuration table"));
	CHECK(kept(k, SMBIOS_STRUCT, 0x1234, "the SMBIOS table"));
	CHECK(kept(k, SMBIOS3_STRUCT, 0x5000, "the SMBIOS table"));
	/* and nothing else: the ACPI table is in memory the move never takes, the
	 * runtime services table in runtime memory by definition, the SMBIOS
	 * entry points in none the map describes, a NULL table is none */
	CHECK_EQ(k->n, 14);
}

TEST(move_keep_refuses_what_one_byte_of_a_table_let_through)
{
	struct fixture *f = fixture();
	struct move_verdict v;

	build(&f->k, f->fw, &f->u);
	CHECK_EQ(check(f, MIB, 16 * MIB, &v), MOVE_OK);
	/* the HOB list's tail: its first byte is not in the target */
	CHECK_EQ(check(f, HOB_LIST + 0x1000, 0x1000, &v), MOVE_KEPT);
	CHECK_STR(v.what, "a configuration table");
	CHECK_EQ(check(f, SMBIOS_STRUCT + 0x1000, MIB, &v), MOVE_KEPT);
	CHECK_STR(v.what, "the SMBIOS table");
	CHECK_EQ(check(f, 0x5e02000, MIB, &v), MOVE_KEPT);
	CHECK_STR(v.what, "the EFI memory map");
	CHECK_EQ(check(f, 0x5c00000, 0xc000, &v), MOVE_KEPT);
	CHECK_STR(v.what, "handoff's stack");
	CHECK_EQ(v.addr, 0x5c0b000);
	CHECK_EQ(check(f, 0x5c00000, 0xb000, &v), MOVE_OK);
}

TEST(move_keep_without_what_it_needs_refuses_every_move)
{
	struct fixture *f = fixture();
	struct move_verdict v;

	for (int missing = 0; missing < 6; missing++) {
		struct move_uses u = uses(&f->t);

		switch (missing) {
		case 0: u.bp = NULL; break;
		case 1: u.map.size = 0; break;
		case 2: u.map.addr = 0; break;
		case 3: u.image.size = 0; break;
		case 4: u.frame = 0x3fff; break; /* no room for the stack below it */
		default: u.st = NULL; break;
		}
		build(&f->k, f->fw, &u);
		CHECK(f->k.overflow);
		CHECK_EQ(check(f, MIB, MIB, &v), MOVE_KEEP_FULL);
	}
	test_log_reset();
	move_refusal("/vmlinuz", MIB, MIB, &v);
	CHECK_LOG("/vmlinuz: not relocatable, and [0x100000, +0x100000) at pref_address holds more in use than it "
		  "can list");
}

TEST(move_keep_identity_map_top)
{
	struct fixture *f = fixture();
	struct fake_fw *fw = f->fw;

	fake_fw_init(fw, 0);
	fake_fw_add(fw, EfiConventionalMemory, MIB, 0x100, 0);
	CHECK_EQ(build(&f->k, fw, &f->u), 4 * GIB); /* at least 4 GiB: MMIO below it */
	fake_fw_add(fw, EfiMemoryMappedIO, 0x8000000000ull + 0x1000, 1, EFI_MEMORY_RUNTIME);
	CHECK_EQ(build(&f->k, fw, &f->u), 0x8000000000ull + GIB); /* rounded up to 1 GiB */
	fake_fw_add(fw, EfiReservedMemoryType, 1ull << 50, 1, 0);
	CHECK_EQ(build(&f->k, fw, &f->u), 1ull << 47); /* no further than 4-level paging reaches */
	fake_fw_add(fw, EfiConventionalMemory, 0xfffffffffff00000ull, 0x100000000000ull, 0); /* wraps: skipped */
	CHECK_EQ(build(&f->k, fw, &f->u), 1ull << 47);
}
