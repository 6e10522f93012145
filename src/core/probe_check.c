/* The probe's checks of the boot_params itself: setup header copy, command
 * line, initrd, kernel placement, setup_data chain, screen_info and the CPU
 * state (boot.rst "The real-mode kernel header", "The kernel command line",
 * "64-bit boot protocol", "EFI handover protocol"). Memory-map and paging
 * checks are in probe_mem.c, the JSON line in probe_json.c. */
#include "probe_internal.h"

#define SETUP_DATA_MAX_NODES 64u
#define SETUP_DATA_MAX_LEN (64u << 20)
#define INITRD_CHUNK 4096u
#define RFLAGS_IF (1u << 9)

static const char *const error_names[PROBE_ERR__MAX] = {
	[PROBE_ERR_HDR_MISMATCH] = "hdr_mismatch",
	[PROBE_ERR_CMDLINE_UNREADABLE] = "cmdline_unreadable",
	[PROBE_ERR_CMDLINE_UNTERMINATED] = "cmdline_unterminated",
	[PROBE_ERR_INITRD_UNREADABLE] = "initrd_unreadable",
	[PROBE_ERR_INITRD_OUTSIDE_RAM] = "initrd_outside_ram",
	[PROBE_ERR_INITRD_OVERLAPS_KERNEL] = "initrd_overlaps_kernel",
	[PROBE_ERR_KERNEL_MISALIGNED] = "kernel_misaligned",
	[PROBE_ERR_KERNEL_NOT_ALLOCATED] = "kernel_not_allocated",
	[PROBE_ERR_E820_TOO_MANY] = "e820_too_many",
	[PROBE_ERR_E820_UNSORTED] = "e820_unsorted",
	[PROBE_ERR_E820_OVERLAP] = "e820_overlap",
	[PROBE_ERR_E820_MISSING_KERNEL] = "e820_missing_kernel",
	[PROBE_ERR_E820_MISSING_BOOT_PARAMS] = "e820_missing_boot_params",
	[PROBE_ERR_EFI_SIG] = "efi_sig",
	[PROBE_ERR_EFI_SYSTAB_SIG] = "efi_systab_sig",
	[PROBE_ERR_EFI_MEMMAP] = "efi_memmap",
	[PROBE_ERR_EFI_MEMMAP_E820_MISMATCH] = "efi_memmap_e820_mismatch",
	[PROBE_ERR_SCREEN_GOP_MISMATCH] = "screen_gop_mismatch",
	[PROBE_ERR_SCREEN_INCONSISTENT] = "screen_inconsistent",
	[PROBE_ERR_SETUP_DATA_CHAIN] = "setup_data_chain",
	[PROBE_ERR_BOOT_SERVICES_UNUSABLE] = "boot_services_unusable",
	[PROBE_ERR_INTERRUPTS_ON] = "interrupts_on",
	[PROBE_ERR_NOT_IDENTITY_MAPPED] = "not_identity_mapped",
	[PROBE_ERR_SENTINEL] = "sentinel",
	[PROBE_ERR_BOOT_PARAMS_UNREADABLE] = "boot_params_unreadable",
	[PROBE_ERR_KERNEL_NOT_AT_PREF] = "kernel_not_at_pref_address",
};

const char *probe_error_name(enum probe_error err)
{
	return (unsigned)err < PROBE_ERR__MAX ? error_names[err] : "unknown";
}

const char *probe_entry_name(enum probe_entry entry)
{
	switch (entry) {
	case PROBE_ENTRY_LEGACY64:
		return "legacy64";
	case PROBE_ENTRY_HANDOVER:
		return "handover";
	case PROBE_ENTRY_STUB:
		return "stub";
	case PROBE_ENTRY_BOOT32:
		return "boot32";
	case PROBE_ENTRY_HANDOVER32:
		return "handover32";
	case PROBE_ENTRY_STUB32:
		return "stub32";
	}
	return "unknown";
}

bool probe_read(const struct probe_ctx *c, uint64_t addr, void *buf, size_t len)
{
	if (addr == 0 || UINT64_MAX - addr < len)
		return false;
	return c->in->read(c->in->read_ctx, addr, buf, len);
}

static uint64_t expected_le(const struct probe_ctx *c, size_t bp_offset, size_t size)
{
	size_t off = bp_offset - SETUP_HEADER_OFFSET;
	uint64_t v = 0;

	if (!range_ok(off, size, c->in->expected_hdr_size))
		return 0;
	for (size_t i = 0; i < size; i++)
		v |= (uint64_t)c->in->expected_hdr[off + i] << (8 * i);
	return v;
}

/* boot.rst marks these fields "read": a loader copies them from the image
 * and must not change them. Left out: kernel_alignment (a loader may lower
 * it, 2.10+), and boot_flag and jump, which belong to the boot sector and the
 * real-mode code rather than to what the kernel reads from the zero page
 * (Debian's GRUB 2.06 does not carry boot_flag over). */
static void check_header(struct probe_ctx *c)
{
	static const struct { uint16_t offset; uint8_t size; } ro[] = {
		{ 0x1f1, 1 }, { 0x1f4, 4 }, { 0x202, 4 }, { 0x206, 2 },
		{ 0x20e, 2 }, { 0x22c, 4 }, { 0x234, 1 }, { 0x236, 2 }, { 0x238, 4 }, { 0x248, 4 },
		{ 0x24c, 4 }, { 0x258, 8 }, { 0x260, 4 }, { 0x264, 4 }, { 0x268, 4 },
	};
	const uint8_t *seen = (const uint8_t *)&c->bp;

	for (size_t i = 0; i < ARRAY_SIZE(ro); i++) {
		if (!range_ok(ro[i].offset - SETUP_HEADER_OFFSET, ro[i].size, c->in->expected_hdr_size))
			continue;
		if (memcmp(seen + ro[i].offset, c->in->expected_hdr + (ro[i].offset - SETUP_HEADER_OFFSET),
			   ro[i].size)) {
			probe_fail(c, PROBE_ERR_HDR_MISMATCH);
			c->r->hdr_mismatch_at = ro[i].offset;
			break;
		}
	}
	if (c->bp.sentinel != 0)
		probe_fail(c, PROBE_ERR_SENTINEL);
}

/* "The kernel command line": at most cmdline_size bytes plus the NUL. */
static void check_cmdline(struct probe_ctx *c)
{
	uint64_t ptr = c->bp.hdr.cmd_line_ptr | (uint64_t)c->bp.ext_cmd_line_ptr << 32;
	/* The image's own limit; without a manifest, the one the loader saw. */
	uint64_t limit = (c->in->expected_hdr_size ? expected_le(c, 0x238, 4) : c->bp.hdr.cmdline_size) + 1;
	size_t n = 0;

	if (ptr == 0)
		return; /* no command line at all: allowed, reported as "" */
	for (uint64_t i = 0; i < limit; i++) {
		char ch;

		if (!probe_read(c, ptr + i, &ch, 1)) {
			probe_fail(c, PROBE_ERR_CMDLINE_UNREADABLE);
			break;
		}
		if (ch == '\0') {
			c->r->cmdline[n] = '\0';
			return;
		}
		if (n + 1 < sizeof(c->r->cmdline))
			c->r->cmdline[n++] = ch;
		else
			c->r->cmdline_truncated = true;
	}
	c->r->cmdline[n] = '\0';
	if (!(c->r->errors & (1u << PROBE_ERR_CMDLINE_UNREADABLE)))
		probe_fail(c, PROBE_ERR_CMDLINE_UNTERMINATED);
}

static bool overlaps(uint64_t a, uint64_t a_len, uint64_t b, uint64_t b_end)
{
	return a < b_end && b < a + a_len;
}

static void hash_initrd(struct probe_ctx *c)
{
	struct sha256_ctx sha;
	uint8_t chunk[INITRD_CHUNK], digest[SHA256_DIGEST_SIZE];

	sha256_init(&sha);
	for (uint64_t off = 0; off < c->r->initrd_size; off += INITRD_CHUNK) {
		size_t n = (size_t)MIN((uint64_t)INITRD_CHUNK, c->r->initrd_size - off);

		if (!probe_read(c, c->r->initrd_addr + off, chunk, n)) {
			probe_fail(c, PROBE_ERR_INITRD_UNREADABLE);
			return;
		}
		sha256_update(&sha, chunk, n);
	}
	sha256_final(&sha, digest);
	sha256_hex(digest, c->r->initrd_sha256);
}

static void check_initrd(struct probe_ctx *c)
{
	struct probe_report *r = c->r;

	r->initrd_addr = c->bp.hdr.ramdisk_image | (uint64_t)c->bp.ext_ramdisk_image << 32;
	r->initrd_size = c->bp.hdr.ramdisk_size | (uint64_t)c->bp.ext_ramdisk_size << 32;
	if (r->initrd_size == 0)
		return;
	if (r->initrd_addr == 0 || UINT64_MAX - r->initrd_addr < r->initrd_size) {
		probe_fail(c, PROBE_ERR_INITRD_UNREADABLE);
		return;
	}
	if (!probe_in_ram(c, r->initrd_addr, r->initrd_size))
		probe_fail(c, PROBE_ERR_INITRD_OUTSIDE_RAM);
	if (overlaps(r->initrd_addr, r->initrd_size, c->in->kernel_addr, c->kernel_end))
		probe_fail(c, PROBE_ERR_INITRD_OVERLAPS_KERNEL);
	hash_initrd(c);
}

/* Legacy boot: the loader must place a relocatable kernel at a multiple of
 * kernel_alignment (boot.rst, relocatable_kernel), one that is not at
 * pref_address. On EFI entries Linux moves itself when needed, so only the
 * allocation is checked there: the whole init_size must belong to the
 * loader, or the kernel's stack and heap in it are memory the firmware may
 * hand out again; and a kernel that is not relocatable must not lie below
 * pref_address (Linux's stub moves it up to pref_address or the lowest free
 * aligned address above it, efi_relocate_kernel()). */
static void check_kernel_placement(struct probe_ctx *c)
{
	uint64_t align = expected_le(c, 0x230, 4);
	uint64_t at = c->in->kernel_addr;
	bool legacy = probe_entry_is_legacy(c->in->entry);

	c->r->fixed = c->in->expected_hdr_size >= 0x260 - SETUP_HEADER_OFFSET && !expected_le(c, 0x234, 1);
	c->r->pref_address = expected_le(c, 0x258, 8);
	if (c->r->fixed && (legacy ? at != c->r->pref_address : at < c->r->pref_address))
		probe_fail(c, PROBE_ERR_KERNEL_NOT_AT_PREF);
	if (legacy) {
		if (align && at % align)
			probe_fail(c, PROBE_ERR_KERNEL_MISALIGNED);
		return;
	}
	if (c->map_ok && !probe_map_covers_allocated(c, at, c->init_size))
		probe_fail(c, PROBE_ERR_KERNEL_NOT_ALLOCATED);
}

/* Each node {next, type, len, data[len]} readable, in RAM and bounded; the
 * chain ends within SETUP_DATA_MAX_NODES (which also catches a loop). */
static void check_setup_data(struct probe_ctx *c)
{
	uint64_t addr = c->bp.hdr.setup_data;

	for (unsigned n = 0; addr; n++) {
		struct setup_data node;
		uint8_t last;

		if (n == SETUP_DATA_MAX_NODES || !probe_read(c, addr, &node, sizeof(node)) ||
		    node.len > SETUP_DATA_MAX_LEN || !probe_read(c, addr + sizeof(node) + node.len - 1, &last, 1) ||
		    !probe_in_ram(c, addr, sizeof(node) + node.len)) {
			probe_fail(c, PROBE_ERR_SETUP_DATA_CHAIN);
			return;
		}
		if (c->r->n_setup_data < PROBE_SETUP_DATA_MAX)
			c->r->setup_data_types[c->r->n_setup_data++] = node.type;
		addr = node.next;
	}
}

static uint64_t screen_base(const struct screen_info *si)
{
	uint64_t base = si->lfb_base;

	if (si->capabilities & VIDEO_CAPABILITY_64BIT_BASE)
		base |= (uint64_t)si->ext_lfb_base << 32;
	return base;
}

/* An EFI framebuffer must describe itself consistently; when the firmware's
 * GOP mode is known it must describe that one. */
static void check_screen(struct probe_ctx *c)
{
	const struct screen_info *si = &c->bp.screen_info;
	const struct probe_gop *gop = &c->in->gop;
	uint64_t bpp = (si->lfb_depth + 7u) / 8u;

	c->r->video_type = si->orig_video_isVGA;
	if (si->orig_video_isVGA != VIDEO_TYPE_EFI)
		return;
	if (!si->lfb_width || !si->lfb_height || !screen_base(si) || si->lfb_depth < 8 || si->lfb_depth > 32 ||
	    si->lfb_linelength < si->lfb_width * bpp || si->lfb_size < (uint64_t)si->lfb_linelength * si->lfb_height)
		probe_fail(c, PROBE_ERR_SCREEN_INCONSISTENT);
	if (gop->present &&
	    (screen_base(si) != gop->fb_base || si->lfb_width != gop->width || si->lfb_height != gop->height ||
	     si->lfb_linelength != (uint64_t)gop->pixels_per_scan_line * bpp))
		probe_fail(c, PROBE_ERR_SCREEN_GOP_MISMATCH);
}

/* boot.rst "32-bit/64-bit boot protocol": interrupts must be disabled. On
 * EFI entries they are on, as boot services still run. */
static void check_cpu(struct probe_ctx *c)
{
	const struct probe_input *in = c->in;

	if (probe_entry_is_legacy(in->entry) && (in->rflags & RFLAGS_IF))
		probe_fail(c, PROBE_ERR_INTERRUPTS_ON);
	if (!probe_entry_is_legacy(in->entry) && (!in->bs_tested || in->bs_status != EFI_BUFFER_TOO_SMALL))
		probe_fail(c, PROBE_ERR_BOOT_SERVICES_UNUSABLE);
	if (in->check_paging)
		probe_check_paging(c);
}

static void report_basics(struct probe_ctx *c)
{
	struct probe_report *r = c->r;
	uint32_t sig = c->bp.efi_info.efi_loader_signature;

	r->entry = c->in->entry;
	r->version = c->bp.hdr.version;
	r->type_of_loader = c->bp.hdr.type_of_loader;
	r->loadflags = c->bp.hdr.loadflags;
	r->secure_boot = c->bp.secure_boot;
	r->kernel_addr = c->in->kernel_addr;
	r->bp_addr = c->in->bp_addr;
	r->e820_entries = c->bp.e820_entries;
	for (unsigned i = 0; i < 4; i++) {
		char ch = (char)(sig >> (8 * i));
		r->efi_sig[i] = ch >= 0x20 && ch < 0x7f ? ch : '?';
	}
	r->efi_sig[sig ? 4 : 0] = '\0';
}

void probe_run(const struct probe_input *in, struct probe_report *ret)
{
	struct probe_ctx c = { .in = in, .r = ret };

	memset(ret, 0, sizeof(*ret));
	c.init_size = expected_le(&c, 0x260, 4);
	c.kernel_end = in->kernel_addr + c.init_size;
	if (!probe_read(&c, in->bp_addr, &c.bp, sizeof(c.bp))) {
		/* Nothing else can be judged without boot_params. */
		ret->entry = in->entry;
		probe_fail(&c, PROBE_ERR_BOOT_PARAMS_UNREADABLE);
		return;
	}
	report_basics(&c);
	check_header(&c);
	probe_check_e820(&c);
	probe_check_efi(&c);
	check_cmdline(&c);
	check_initrd(&c);
	check_kernel_placement(&c);
	check_setup_data(&c);
	check_screen(&c);
	check_cpu(&c);
}
