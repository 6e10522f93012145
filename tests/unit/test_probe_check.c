/* The probe's checks on a fake machine: 5 MiB of fake physical memory holding
 * a boot_params, command line, EFI memory map and system table, setup_data,
 * identity page tables, a "kernel" and an initrd. A valid legacy and a valid
 * handover hand-off report no errors; each broken case reports exactly its
 * own error name. */
#include "test.h"
#include "core/probe_check.h"
#include "core/sha256.h"
#include "core/platform.h"
#include <stdlib.h>
#include <unistd.h>

#define MEM_SIZE 0x500000u
#define CMDLINE 0x101000u
#define MAP 0x102000u
#define SYSTAB 0x103000u
#define SETUP_DATA 0x104000u
#define PML5 0x10f000u
#define PML4 0x110000u
#define PDPT 0x111000u
#define PD 0x112000u
#define BP 0x1f0000u
#define KERNEL 0x200000u
#define INIT_SIZE 0x40000u
#define INITRD 0x300000u
#define INITRD_SIZE 0x1234u
#define DESC_SIZE 48u
#define HDR_SIZE (0x26c - 0x1f1)
#define CMDLINE_SIZE 2047u
#define MARKER "console=ttyS0 probe=\"x\\y\""

struct world {
	uint8_t *mem;
	uint64_t hole_start, hole_end;  /* unreadable range */
	uint8_t hdr[HDR_SIZE];
	struct probe_input in;
};

static bool fake_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct world *w = ctx;

	if (!range_ok(addr, len, MEM_SIZE) || (addr < w->hole_end && w->hole_start < addr + len))
		return false;
	memcpy(buf, w->mem + addr, len);
	return true;
}

static struct boot_params *bp_of(struct world *w)
{
	return (struct boot_params *)(w->mem + BP);
}

static void put_hdr(struct world *w, size_t bp_off, uint64_t v, size_t size)
{
	for (size_t i = 0; i < size; i++)
		w->hdr[bp_off - 0x1f1 + i] = (uint8_t)(v >> (8 * i));
}

/* The image's own header, as bzwrite would write it. */
static void make_header(struct world *w)
{
	put_hdr(w, 0x1f1, 1, 1);
	put_hdr(w, 0x1f4, 0x100, 4);
	put_hdr(w, 0x1fe, 0xaa55, 2);
	put_hdr(w, 0x200, 0x6aeb, 2);
	put_hdr(w, 0x202, 0x53726448, 4);
	put_hdr(w, 0x206, 0x020f, 2);
	put_hdr(w, 0x211, LOADED_HIGH, 1);
	put_hdr(w, 0x22c, 0x7fffffff, 4);
	put_hdr(w, 0x230, 0x200000, 4);
	put_hdr(w, 0x234, 1, 1);
	put_hdr(w, 0x236, XLF_KERNEL_64 | XLF_CAN_BE_LOADED_ABOVE_4G | XLF_EFI_HANDOVER_64, 2);
	put_hdr(w, 0x238, CMDLINE_SIZE, 4);
	put_hdr(w, 0x258, 0x1000000, 8);
	put_hdr(w, 0x260, INIT_SIZE, 4);
	put_hdr(w, 0x264, 0x200, 4);
}

static void set_desc(struct world *w, unsigned i, uint32_t type, uint64_t start, uint64_t pages)
{
	uint8_t *d = w->mem + MAP + i * DESC_SIZE;

	put_le32(d, type);
	put_le64(d + 8, start);
	put_le64(d + 16, 0);
	put_le64(d + 24, pages);
	put_le64(d + 32, EFI_MEMORY_WB);
}

enum { N_DESC = 6 };

static void make_efi(struct world *w)
{
	uint8_t *st = w->mem + SYSTAB;

	set_desc(w, 0, EfiConventionalMemory, 0, 0x9f);
	set_desc(w, 1, EfiLoaderData, 0x100000, 0xf0);
	set_desc(w, 2, EfiLoaderData, BP, 0x10);
	set_desc(w, 3, EfiLoaderCode, KERNEL, 0x100);
	set_desc(w, 4, EfiLoaderData, INITRD, 0x200);
	set_desc(w, 5, EfiReservedMemoryType, 0xfee00000, 1);
	put_le64(st, EFI_SYSTEM_TABLE_SIGNATURE);
	put_le32(st + 8, EFI_2_70_SYSTEM_TABLE_REVISION);
	put_le32(st + 12, sizeof(EFI_SYSTEM_TABLE));
}

static void set_e820(struct boot_params *bp, unsigned i, uint64_t addr, uint64_t size, uint32_t type)
{
	bp->e820_table[i] = (struct boot_e820_entry){ .addr = addr, .size = size, .type = type };
	if (bp->e820_entries < i + 1)
		bp->e820_entries = (uint8_t)(i + 1);
}

/* Identity-map the first GiB with 2 MiB pages; a PML5 above it for LA57. */
static void make_paging(struct world *w)
{
	put_le64(w->mem + PML5, PML4 | 3);
	put_le64(w->mem + PML4, PDPT | 3);
	put_le64(w->mem + PDPT, PD | 3);
	for (uint64_t i = 0; i < 512; i++)
		put_le64(w->mem + PD + 8 * i, (i << 21) | 0x83);
}

static void make_bp(struct world *w)
{
	struct boot_params *bp = bp_of(w);
	struct screen_info *si = &bp->screen_info;

	memcpy((uint8_t *)bp + 0x1f1, w->hdr, HDR_SIZE);
	bp->hdr.type_of_loader = 0xff;
	bp->secure_boot = 2; /* efi_secureboot_mode_disabled */
	bp->hdr.cmd_line_ptr = CMDLINE;
	bp->hdr.ramdisk_image = INITRD;
	bp->hdr.ramdisk_size = INITRD_SIZE;
	bp->hdr.setup_data = SETUP_DATA;
	set_e820(bp, 0, 0, 0x9f000, E820_TYPE_RAM);
	set_e820(bp, 1, 0x100000, MEM_SIZE - 0x100000, E820_TYPE_RAM);
	set_e820(bp, 2, 0xfee00000, 0x1000, E820_TYPE_RESERVED);
	bp->efi_info = (struct efi_info){ .efi_loader_signature = EFI64_LOADER_SIGNATURE, .efi_systab = SYSTAB,
					  .efi_memdesc_size = DESC_SIZE, .efi_memdesc_version = 1,
					  .efi_memmap = MAP, .efi_memmap_size = N_DESC * DESC_SIZE };
	*si = (struct screen_info){ .orig_video_isVGA = VIDEO_TYPE_EFI, .lfb_width = 800, .lfb_height = 600,
				    .lfb_depth = 32, .lfb_base = 0x80000000, .lfb_size = 800 * 600 * 4,
				    .lfb_linelength = 800 * 4 };
}

static void make_data(struct world *w)
{
	uint8_t *sd = w->mem + SETUP_DATA;

	strcpy((char *)w->mem + CMDLINE, MARKER);
	for (unsigned i = 0; i < INITRD_SIZE; i++)
		w->mem[INITRD + i] = (uint8_t)(i * 31 + 7);
	put_le64(sd, 0);
	put_le32(sd + 8, SETUP_RNG_SEED);
	put_le32(sd + 12, 32);
}

static struct world *world_new(enum probe_entry entry)
{
	struct world *w = calloc(1, sizeof(*w));

	w->mem = calloc(1, MEM_SIZE);
	make_header(w);
	make_efi(w);
	make_paging(w);
	make_bp(w);
	make_data(w);
	w->in = (struct probe_input){
		.entry = entry, .bp_addr = BP, .kernel_addr = KERNEL, .expected_hdr = w->hdr,
		.expected_hdr_size = HDR_SIZE, .read = fake_read, .read_ctx = w, .rflags = 0x2,
		.cr3 = PML4, .check_paging = true,
	};
	if (!probe_entry_is_legacy(entry)) {
		/* The loader fills the header part only; the firmware answers. */
		struct boot_params *bp = bp_of(w);
		bp->e820_entries = 0;
		memset(&bp->efi_info, 0, sizeof(bp->efi_info));
		memset(&bp->screen_info, 0, sizeof(bp->screen_info));
		w->in.rflags = 0x202;
		w->in.systab_addr = SYSTAB;
		w->in.bs_tested = true;
		w->in.bs_status = EFI_BUFFER_TOO_SMALL;
		w->in.fw_map_addr = MAP;
		w->in.fw_map_size = N_DESC * DESC_SIZE;
		w->in.fw_desc_size = DESC_SIZE;
		w->in.fw_desc_version = 1;
	}
	return w;
}

static void world_free(struct world *w)
{
	free(w->mem);
	free(w);
}

static char *error_list(uint32_t errors)
{
	static char buf[512];

	buf[0] = '\0';
	for (unsigned e = 0; e < PROBE_ERR__MAX; e++)
		if (errors & (1u << e)) {
			strcat(buf, probe_error_name((enum probe_error)e));
			strcat(buf, " ");
		}
	return buf;
}

static void check_valid(enum probe_entry entry)
{
	struct world *w = world_new(entry);
	struct probe_report *r = calloc(1, sizeof(*r));
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	probe_run(&w->in, r);
	CHECK_STR(error_list(r->errors), "");
	CHECK_EQ(r->entry, entry);
	CHECK_STR(r->cmdline, MARKER);
	CHECK_EQ(r->initrd_size, INITRD_SIZE);
	sha256(w->mem + INITRD, INITRD_SIZE, digest);
	sha256_hex(digest, hex);
	CHECK_STR(r->initrd_sha256, hex);
	CHECK(r->efi_systab);
	CHECK_EQ(r->efi_memmap, N_DESC);
	CHECK_EQ(r->n_setup_data, 1);
	CHECK_EQ(r->setup_data_types[0], SETUP_RNG_SEED);
	CHECK_EQ(r->e820_entries, probe_entry_is_legacy(entry) ? 3 : 0);
	CHECK_STR(r->efi_sig, probe_entry_is_legacy(entry) ? "EL64" : "");
	free(r);
	world_free(w);
}

TEST(probe_valid_legacy64_no_errors)
{
	check_valid(PROBE_ENTRY_LEGACY64);
}

TEST(probe_valid_boot32_no_errors)
{
	check_valid(PROBE_ENTRY_BOOT32);
}

TEST(probe_valid_handover_no_errors)
{
	check_valid(PROBE_ENTRY_HANDOVER);
}

TEST(probe_valid_stub_no_errors)
{
	check_valid(PROBE_ENTRY_STUB);
}

TEST(probe_valid_la57_no_errors)
{
	struct world *w = world_new(PROBE_ENTRY_LEGACY64);
	struct probe_report r;

	w->in.la57 = true;
	w->in.cr3 = PML5;
	probe_run(&w->in, &r);
	CHECK_STR(error_list(r.errors), "");
	world_free(w);
}

/* Without the image's header (no manifest) the loader's cmdline_size bounds
 * the command line, and nothing is compared. */
TEST(probe_without_manifest_uses_loader_cmdline_size)
{
	struct world *w = world_new(PROBE_ENTRY_LEGACY64);
	struct probe_report r;

	w->in.expected_hdr_size = 0;
	bp_of(w)->hdr.init_size = 0x1000; /* would be hdr_mismatch with a manifest */
	probe_run(&w->in, &r);
	CHECK_STR(error_list(r.errors), "");
	CHECK_STR(r.cmdline, MARKER);
	bp_of(w)->hdr.cmdline_size = 4;
	probe_run(&w->in, &r);
	CHECK_STR(error_list(r.errors), "cmdline_unterminated ");
	world_free(w);
}

/* ---- each check failing on its own ---- */

static void hdr_changed(struct world *w) { bp_of(w)->hdr.init_size = 0x1000; }
static void sentinel_set(struct world *w) { bp_of(w)->sentinel = 0xff; }
static void cmdline_far(struct world *w) { bp_of(w)->hdr.cmd_line_ptr = 0x900000; }
static void cmdline_long(struct world *w) { memset(w->mem + CMDLINE, 'a', CMDLINE_SIZE + 1); }
static void initrd_hole(struct world *w) { w->hole_start = INITRD + 0x1000; w->hole_end = INITRD + 0x1001; }
static void initrd_low(struct world *w) { bp_of(w)->hdr.ramdisk_image = 0xa0000; }
static void initrd_in_kernel(struct world *w) { bp_of(w)->hdr.ramdisk_image = KERNEL + 0x1000; }
static void kernel_odd(struct world *w) { w->in.kernel_addr = KERNEL + 0x1000; }
static void kernel_free(struct world *w) { set_desc(w, 3, EfiConventionalMemory, KERNEL, 0x100); }

/* relocatable_kernel 0 and pref_address @pref, in the image and as loaded */
static void fixed_at(struct world *w, uint64_t pref)
{
	put_hdr(w, 0x234, 0, 1);
	put_hdr(w, 0x258, pref, 8);
	bp_of(w)->hdr.relocatable_kernel = 0;
	bp_of(w)->hdr.pref_address = pref;
}
static void fixed_here(struct world *w) { fixed_at(w, KERNEL); }
static void fixed_below(struct world *w) { fixed_at(w, KERNEL - 0x100000); }
static void fixed_above(struct world *w) { fixed_at(w, KERNEL + 0x200000); }

static void e820_many(struct world *w)
{
	/* sorted, disjoint entries past the first three, and a count of 200 */
	for (unsigned i = 3; i < E820_MAX_ENTRIES_ZEROPAGE; i++)
		set_e820(bp_of(w), i, 0x100000000ull + i * 0x1000, 0x1000, E820_TYPE_RESERVED);
	bp_of(w)->e820_entries = 200;
}

static void e820_swapped(struct world *w)
{
	struct boot_params *bp = bp_of(w);
	struct boot_e820_entry t = bp->e820_table[0];

	bp->e820_table[0] = bp->e820_table[1];
	bp->e820_table[1] = t;
}

static void e820_overlapping(struct world *w) { bp_of(w)->e820_table[0].size = 0x100001; }

/* Kernel (or boot_params) range reserved in both maps, so they still agree. */
static void reserve_range(struct world *w, unsigned desc, uint64_t start, uint64_t size)
{
	struct boot_params *bp = bp_of(w);

	set_desc(w, desc, EfiReservedMemoryType, start, size / 4096);
	set_e820(bp, 1, 0x100000, start - 0x100000, E820_TYPE_RAM);
	set_e820(bp, 2, start, size, E820_TYPE_RESERVED);
	set_e820(bp, 3, start + size, MEM_SIZE - start - size, E820_TYPE_RAM);
	set_e820(bp, 4, 0xfee00000, 0x1000, E820_TYPE_RESERVED);
}

static void e820_no_kernel(struct world *w) { reserve_range(w, 3, KERNEL, 0x100000); }
static void e820_no_bp(struct world *w) { reserve_range(w, 2, BP, 0x10000); }
static void efi_el32(struct world *w) { bp_of(w)->efi_info.efi_loader_signature = 0x32334c45; }
static void systab_bad(struct world *w) { w->mem[SYSTAB] ^= 1; }
static void memmap_desc_small(struct world *w) { bp_of(w)->efi_info.efi_memdesc_size = 39; }
static void memmap_bad_type(struct world *w) { set_desc(w, 5, EfiMaxMemoryType, 0xfee00000, 1); }
static void memmap_not_multiple(struct world *w) { bp_of(w)->efi_info.efi_memmap_size += 8; }
static void memmap_vs_e820(struct world *w) { set_desc(w, 5, EfiConventionalMemory, 0xfee00000, 1); }

static void gop_other(struct world *w)
{
	struct screen_info *si = &bp_of(w)->screen_info;

	*si = (struct screen_info){ .orig_video_isVGA = VIDEO_TYPE_EFI, .lfb_width = 800, .lfb_height = 600,
				    .lfb_depth = 32, .lfb_base = 0x80000000, .lfb_size = 800 * 600 * 4,
				    .lfb_linelength = 800 * 4 };
	w->in.gop = (struct probe_gop){ .present = true, .fb_base = 0x80000000, .fb_size = 0x300000,
					.width = 1024, .height = 768, .pixels_per_scan_line = 1024 };
}

static void screen_small(struct world *w) { bp_of(w)->screen_info.lfb_size = 4096; }
static void setup_loop(struct world *w) { put_le64(w->mem + SETUP_DATA, SETUP_DATA); }
static void setup_huge(struct world *w) { put_le32(w->mem + SETUP_DATA + 12, 0x7fffffff); }
static void setup_far(struct world *w) { put_le64(w->mem + SETUP_DATA, 0x800000); }
static void bs_broken(struct world *w) { w->in.bs_status = EFI_SUCCESS; }
static void bs_untested(struct world *w) { w->in.bs_tested = false; }
static void irq_on(struct world *w) { w->in.rflags |= 0x200; }
static void pd_shifted(struct world *w) { put_le64(w->mem + PD + 8, 0x40000000 | 0x83); }
/* 5-level: the walk starts at the PML5, whose entry is missing. */
static void la57_empty(struct world *w)
{
	w->in.la57 = true;
	w->in.cr3 = PML5;
	put_le64(w->mem + PML5, 0);
}
static void bp_far(struct world *w) { w->in.bp_addr = 0x900000; }

struct broken {
	const char *what;
	enum probe_entry entry;
	void (*mutate)(struct world *w);
	const char *errors;  /* exactly these names, in enum order */
};

static const struct broken cases[] = {
	{ "header field changed", PROBE_ENTRY_LEGACY64, hdr_changed, "hdr_mismatch " },
	{ "header field changed (handover)", PROBE_ENTRY_HANDOVER, hdr_changed, "hdr_mismatch " },
	{ "sentinel set", PROBE_ENTRY_LEGACY64, sentinel_set, "sentinel " },
	{ "cmdline unreadable", PROBE_ENTRY_LEGACY64, cmdline_far, "cmdline_unreadable " },
	{ "cmdline unterminated", PROBE_ENTRY_LEGACY64, cmdline_long, "cmdline_unterminated " },
	{ "initrd unreadable", PROBE_ENTRY_LEGACY64, initrd_hole, "initrd_unreadable " },
	{ "initrd in a hole", PROBE_ENTRY_LEGACY64, initrd_low, "initrd_outside_ram " },
	{ "initrd in free memory", PROBE_ENTRY_HANDOVER, initrd_low, "initrd_outside_ram " },
	{ "initrd over the kernel", PROBE_ENTRY_LEGACY64, initrd_in_kernel, "initrd_overlaps_kernel " },
	{ "kernel misaligned", PROBE_ENTRY_LEGACY64, kernel_odd, "kernel_misaligned " },
	{ "kernel in free memory", PROBE_ENTRY_HANDOVER, kernel_free, "kernel_not_allocated " },
	{ "not relocatable, at pref_address", PROBE_ENTRY_LEGACY64, fixed_here, "" },
	{ "not relocatable, above pref_address", PROBE_ENTRY_LEGACY64, fixed_below, "kernel_not_at_pref_address " },
	{ "not relocatable, below pref_address", PROBE_ENTRY_BOOT32, fixed_above, "kernel_not_at_pref_address " },
	{ "not relocatable, above pref_address (handover)", PROBE_ENTRY_HANDOVER, fixed_below, "" },
	{ "not relocatable, below pref_address (handover)", PROBE_ENTRY_HANDOVER, fixed_above,
	  "kernel_not_at_pref_address " },
	{ "e820 count 200", PROBE_ENTRY_LEGACY64, e820_many, "e820_too_many " },
	{ "e820 unsorted", PROBE_ENTRY_LEGACY64, e820_swapped, "e820_unsorted " },
	{ "e820 overlap", PROBE_ENTRY_LEGACY64, e820_overlapping, "e820_overlap " },
	{ "e820 without kernel", PROBE_ENTRY_LEGACY64, e820_no_kernel, "e820_missing_kernel " },
	{ "e820 without boot_params", PROBE_ENTRY_LEGACY64, e820_no_bp, "e820_missing_boot_params " },
	{ "efi_info EL32", PROBE_ENTRY_LEGACY64, efi_el32, "efi_sig " },
	{ "system table signature", PROBE_ENTRY_LEGACY64, systab_bad, "efi_systab_sig " },
	{ "memmap descriptor size 39", PROBE_ENTRY_LEGACY64, memmap_desc_small, "efi_memmap " },
	{ "memmap type out of range", PROBE_ENTRY_LEGACY64, memmap_bad_type, "efi_memmap " },
	{ "memmap size not a multiple", PROBE_ENTRY_LEGACY64, memmap_not_multiple, "efi_memmap " },
	{ "memmap RAM not in e820", PROBE_ENTRY_LEGACY64, memmap_vs_e820, "efi_memmap_e820_mismatch " },
	{ "screen_info vs GOP", PROBE_ENTRY_HANDOVER, gop_other, "screen_gop_mismatch " },
	{ "screen_info too small", PROBE_ENTRY_LEGACY64, screen_small, "screen_inconsistent " },
	{ "setup_data loop", PROBE_ENTRY_LEGACY64, setup_loop, "setup_data_chain " },
	{ "setup_data len huge", PROBE_ENTRY_LEGACY64, setup_huge, "setup_data_chain " },
	{ "setup_data next unreadable", PROBE_ENTRY_LEGACY64, setup_far, "setup_data_chain " },
	{ "boot services answer wrong", PROBE_ENTRY_HANDOVER, bs_broken, "boot_services_unusable " },
	{ "boot services not callable", PROBE_ENTRY_STUB, bs_untested, "boot_services_unusable " },
	{ "interrupts on (handover: allowed, boot services run)", PROBE_ENTRY_HANDOVER, irq_on, "" },
	{ "interrupts on", PROBE_ENTRY_LEGACY64, irq_on, "interrupts_on " },
	{ "interrupts on (32-bit entry)", PROBE_ENTRY_BOOT32, irq_on, "interrupts_on " },
	{ "e820 unsorted (32-bit entry)", PROBE_ENTRY_BOOT32, e820_swapped, "e820_unsorted " },
	{ "kernel misaligned (32-bit entry)", PROBE_ENTRY_BOOT32, kernel_odd, "kernel_misaligned " },
	{ "2 MiB page elsewhere", PROBE_ENTRY_LEGACY64, pd_shifted, "not_identity_mapped " },
	{ "LA57, PML5 entry missing", PROBE_ENTRY_LEGACY64, la57_empty, "not_identity_mapped " },
	{ "boot_params unreadable", PROBE_ENTRY_LEGACY64, bp_far, "boot_params_unreadable " },
};

TEST(probe_each_check_fails_alone)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct world *w = world_new(cases[i].entry);
		struct probe_report r;

		cases[i].mutate(w);
		probe_run(&w->in, &r);
		if (cases[i].mutate == hdr_changed)
			CHECK_EQ(r.hdr_mismatch_at, 0x260);
		if (strcmp(error_list(r.errors), cases[i].errors))
			test_fail(__FILE__, __LINE__, "%s: errors \"%s\", expected \"%s\"", cases[i].what,
				  error_list(r.errors), cases[i].errors);
		world_free(w);
	}
}

/* Every error name is produced by at least one case above. */
TEST(probe_every_error_has_a_case)
{
	for (unsigned e = 0; e < PROBE_ERR__MAX; e++) {
		const char *name = probe_error_name((enum probe_error)e);
		bool seen = false;

		for (size_t i = 0; i < ARRAY_SIZE(cases) && !seen; i++)
			seen = strncmp(cases[i].errors, name, strlen(name)) == 0 &&
			       cases[i].errors[strlen(name)] == ' ';
		if (!seen)
			test_fail(__FILE__, __LINE__, "no broken case for %s", name);
	}
}

/* The line is valid JSON (checked by Python's parser, not by us) with the
 * docs/probe.md fields, and the command line survives escaping. */
TEST(probe_json_line)
{
	struct world *w = world_new(PROBE_ENTRY_LEGACY64);
	struct probe_report *r = calloc(1, sizeof(*r));
	char line[8192], cmd[256], out[256] = "", path[64];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/tmp/handoff-probe-line-%d.json", (int)getpid());
	probe_run(&w->in, r);
	r->errors |= 1u << PROBE_ERR_E820_OVERLAP | 1u << PROBE_ERR_SENTINEL;
	n = probe_report_json(r, line, sizeof(line));
	CHECK_EQ(n, strlen(line));
	CHECK(strncmp(line, "HANDOFF-PROBE {\"entry\":\"legacy64\",\"cmdline\":\"console=ttyS0 probe=\\\"x\\\\y\\\"\"",
		      72) == 0);
	CHECK(strstr(line, "\"errors\":[\"e820_overlap\",\"sentinel\"]") != NULL);
	CHECK(strstr(line, "\"initrd_size\":4660,") != NULL);
	CHECK(strstr(line, ",\"secure_boot\":2,") != NULL); /* boot_params 0x1ec */
	CHECK(strstr(line, "\"e820\":3,\"efi_systab\":true,\"efi_memmap\":6,\"efi_sig\":\"EL64\",\"screen\":\"efi\"") !=
	      NULL);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (f) {
		fputs(line + strlen("HANDOFF-PROBE "), f);
		fclose(f);
		snprintf(cmd, sizeof(cmd),
			 "python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d[\"cmdline\"], "
			 "d[\"initrd_sha256\"][:8], len(d[\"errors\"]))' %s",
			 path);
		f = popen(cmd, "r");
		if (f) {
			if (!fgets(out, sizeof(out), f))
				out[0] = '\0';
			pclose(f);
		}
		remove(path);
	}
	CHECK_STR(out, "console=ttyS0 probe=\"x\\y\" 199ca5a5 2\n");
	/* truncation reports the full length, as snprintf */
	CHECK_EQ(probe_report_json(r, line, 10), n);
	CHECK_EQ(strlen(line), 9);
	free(r);
	world_free(w);
}

static void put_section(uint8_t *h, size_t at, const char *name)
{
	memcpy(h + at, name, strlen(name));
}

TEST(probe_image_carries_kernel_finds_bzimage_or_linux)
{
	struct world *w = world_new(PROBE_ENTRY_STUB);
	uint8_t *h = w->mem + 0x400000;
	size_t sect = 0x40 + 24 + 0xf0;

	h[0] = 'M';
	h[1] = 'Z';
	put_le32(h + 0x3c, 0x40);
	memcpy(h + 0x40, "PE\0\0", 4);
	put_le16(h + 0x40 + 6, 2);
	put_le16(h + 0x40 + 20, 0xf0);
	put_section(h, sect, ".text");
	put_section(h, sect + 40, ".data");
	CHECK(!probe_image_carries_kernel(fake_read, w, 0x400000));
	put_section(h, sect + 40, ".bzimage");
	CHECK(probe_image_carries_kernel(fake_read, w, 0x400000));
	memcpy(h + sect + 40, ".linux\0\0", 8);
	CHECK(probe_image_carries_kernel(fake_read, w, 0x400000));
	memcpy(h + sect + 40, ".linuxx\0", 8);
	CHECK(!probe_image_carries_kernel(fake_read, w, 0x400000));
	memcpy(h + sect + 40, ".bzimage", 8);
	put_le16(h + 0x40 + 6, 1); /* the section is past NumberOfSections */
	CHECK(!probe_image_carries_kernel(fake_read, w, 0x400000));
	put_le16(h + 0x40 + 6, 2);
	h[0] = 'X';
	CHECK(!probe_image_carries_kernel(fake_read, w, 0x400000));
	CHECK(!probe_image_carries_kernel(fake_read, w, 0));
	world_free(w);
}

/* ---- 32-bit firmware (mixed mode) ---- */

TEST(probe_valid_efi32_entries_no_errors)
{
	check_valid(PROBE_ENTRY_HANDOVER32);
	check_valid(PROBE_ENTRY_STUB32);
	CHECK_STR(probe_entry_name(PROBE_ENTRY_HANDOVER32), "handover32");
	CHECK_STR(probe_entry_name(PROBE_ENTRY_STUB32), "stub32");
}

/* The system table's HeaderSize tells the firmware's word size (UEFI 2.10
 * §4.3: 0x48 with 32-bit pointers): "EL32" must go with a 32-bit table,
 * "EL64" with a 64-bit one. */
TEST(probe_el32_matches_a_32bit_system_table)
{
	struct world *w = world_new(PROBE_ENTRY_BOOT32);
	struct probe_report *r = calloc(1, sizeof(*r));
	char line[8192];

	put_le32(w->mem + SYSTAB + 12, PROBE_SYSTAB_SIZE_IA32);
	bp_of(w)->efi_info.efi_loader_signature = EFI32_LOADER_SIGNATURE;
	probe_run(&w->in, r);
	CHECK_STR(error_list(r->errors), "");
	CHECK_EQ(r->fw_bits, 32);
	CHECK_STR(r->efi_sig, "EL32");
	probe_report_json(r, line, sizeof(line));
	CHECK(strstr(line, "\"fw_bits\":32") != NULL);
	bp_of(w)->efi_info.efi_loader_signature = EFI64_LOADER_SIGNATURE;
	probe_run(&w->in, r);
	CHECK_STR(error_list(r->errors), "efi_sig ");
	put_le32(w->mem + SYSTAB + 12, PROBE_SYSTAB_SIZE_IA32 - 8);   /* older than any table */
	probe_run(&w->in, r);
	CHECK_STR(error_list(r->errors), "efi_systab_sig ");
	CHECK_EQ(r->fw_bits, 0);
	put_le32(w->mem + SYSTAB + 12, PROBE_SYSTAB_SIZE_X64);
	probe_run(&w->in, r);
	CHECK_STR(error_list(r->errors), "");
	CHECK_EQ(r->fw_bits, 64);
	free(r);
	world_free(w);
}

/* ---- Linux's random seed table (include/linux/efi.h linux_efi_random_seed) ---- */

static const uint8_t seed_guid[16] = { 0xbc, 0xe5, 0xe1, 0x1c, 0xeb, 0x7c, 0xf2, 0x42,
				       0x81, 0xe5, 0x8a, 0xad, 0xf1, 0x80, 0xf5, 0x7b };

/* Two configuration tables (another one first) in a system table of @bits,
 * the second the seed: 32 bytes 00..1f. */
static void put_seed_table(struct world *w, unsigned bits)
{
	uint8_t *st = w->mem + SYSTAB, *tables = st + 0x200, *seed = st + 0x400;
	unsigned esize = bits == 64 ? 24 : 20;

	put_le32(st + 12, bits == 64 ? PROBE_SYSTAB_SIZE_X64 : PROBE_SYSTAB_SIZE_IA32);
	put_le32(st + (bits == 64 ? 0x68 : 0x40), 2);
	put_le32(st + (bits == 64 ? 0x70 : 0x44), SYSTAB + 0x200);
	memset(tables, 0x11, 16);
	memcpy(tables + esize, seed_guid, 16);
	put_le32(tables + esize + 16, SYSTAB + 0x400);
	put_le32(seed, 32);
	for (unsigned i = 0; i < 32; i++)
		seed[4 + i] = (uint8_t)i;
}

TEST(probe_reports_the_random_seed_table)
{
	static const enum probe_entry entries[] = { PROBE_ENTRY_LEGACY64, PROBE_ENTRY_HANDOVER, PROBE_ENTRY_BOOT32 };
	struct probe_report *r = calloc(1, sizeof(*r));
	char line[8192];

	for (size_t i = 0; i < ARRAY_SIZE(entries); i++) {
		struct world *w = world_new(entries[i]);
		unsigned bits = entries[i] == PROBE_ENTRY_BOOT32 ? 32 : 64;

		probe_run(&w->in, r);
		CHECK(!r->rng_seed); /* the fake system table has no configuration table */
		probe_report_json(r, line, sizeof(line));
		CHECK(strstr(line, "rng_seed") == NULL);
		put_seed_table(w, bits);
		if (bits == 32)
			bp_of(w)->efi_info.efi_loader_signature = EFI32_LOADER_SIGNATURE;
		probe_run(&w->in, r);
		CHECK_STR(error_list(r->errors), "");
		CHECK(r->rng_seed);
		CHECK_EQ(r->rng_seed_size, 32);
		probe_report_json(r, line, sizeof(line));
		/* sha256(bytes(range(32))) */
		CHECK(strstr(line, ",\"rng_seed\":32,\"rng_seed_sha256\":"
				   "\"630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd\"") != NULL);
		world_free(w);
	}
	free(r);
}
