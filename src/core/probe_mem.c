/* The probe's memory checks: the e820 table (zero-page.rst), efi_info and
 * the EFI memory map (UEFI 2.10 §7.2 GetMemoryMap), their agreement (the
 * kernel's EFI-to-e820 rules, src/core/e820.c), the system table (§4.3),
 * the 4/5-level page tables, and whether a handover came from the stub of a
 * wrapped image (src/core/wrap.h) or a UKI. */
#include "probe_internal.h"
#include "e820.h"
#include "wrap.h"
#include <efi/linux.h>

#define PTE_PRESENT 1ull
#define PTE_PS (1ull << 7)
#define PTE_ADDR_MASK 0x000ffffffffff000ull
#define MAX_MAP_DESCS 4096u
#define MAX_PAGES_WALKED 1024u
#define PE_HEAD_READ 0x400u
#define UKI_LINUX_SECTION ".linux" /* with its NUL: 7 bytes of the 8-byte name */

static uint64_t end_of(uint64_t start, uint64_t len)
{
	return UINT64_MAX - start < len ? UINT64_MAX : start + len;
}

static bool probe_e820_covers(const struct probe_ctx *c, uint32_t type, uint64_t start, uint64_t len)
{
	unsigned n = MIN(c->bp.e820_entries, E820_MAX_ENTRIES_ZEROPAGE);
	uint64_t pos = start, end = end_of(start, len ? len : 1);

	/* Each round moves pos to the end of the entry holding it: the union of
	 * touching entries counts, whatever their order. */
	for (unsigned round = 0; round <= n && pos < end; round++) {
		bool found = false;

		for (unsigned i = 0; i < n && !found; i++) {
			const struct boot_e820_entry *e = &c->bp.e820_table[i];
			if (e->type == type && e->addr <= pos && pos - e->addr < e->size) {
				pos = end_of(e->addr, e->size);
				found = true;
			}
		}
		if (!found)
			return false;
	}
	return pos >= end;
}

static bool read_desc(const struct probe_ctx *c, uint64_t i, EFI_MEMORY_DESCRIPTOR *d)
{
	return probe_read(c, c->map_addr + i * c->desc_size, d, sizeof(*d));
}

/* Memory a loader allocated (or the firmware uses): not free for reuse. */
static bool efi_type_allocated(uint32_t type)
{
	return type == EfiLoaderCode || type == EfiLoaderData || type == EfiBootServicesCode ||
	       type == EfiBootServicesData;
}

bool probe_map_covers_allocated(const struct probe_ctx *c, uint64_t start, uint64_t len)
{
	uint64_t n = c->map_size / c->desc_size, pos = start, end = end_of(start, len ? len : 1);

	for (uint64_t round = 0; round <= n && pos < end; round++) {
		bool found = false;

		for (uint64_t i = 0; i < n && !found; i++) {
			EFI_MEMORY_DESCRIPTOR d;
			uint64_t size;

			if (!read_desc(c, i, &d))
				return false;
			size = d.NumberOfPages * EFI_PAGE_SIZE;
			if (efi_type_allocated(d.Type) && d.PhysicalStart <= pos && pos - d.PhysicalStart < size) {
				pos = end_of(d.PhysicalStart, size);
				found = true;
			}
		}
		if (!found)
			return false;
	}
	return pos >= end;
}

bool probe_in_ram(const struct probe_ctx *c, uint64_t start, uint64_t len)
{
	if (c->bp.e820_entries)
		return probe_e820_covers(c, E820_TYPE_RAM, start, len);
	return c->map_ok && probe_map_covers_allocated(c, start, len);
}

/* The loader fills e820 only for legacy boot; on EFI entries the kernel's
 * stub does it later, so an empty table there is right. */
void probe_check_e820(struct probe_ctx *c)
{
	unsigned n = c->bp.e820_entries;
	const struct boot_e820_entry *t = c->bp.e820_table;

	if (n == 0 && !probe_entry_is_legacy(c->in->entry))
		return;
	if (n > E820_MAX_ENTRIES_ZEROPAGE) {
		probe_fail(c, PROBE_ERR_E820_TOO_MANY);
		n = E820_MAX_ENTRIES_ZEROPAGE;
	}
	for (unsigned i = 1; i < n; i++)
		if (t[i].addr < t[i - 1].addr)
			probe_fail(c, PROBE_ERR_E820_UNSORTED);
	for (unsigned i = 0; i < n; i++)
		for (unsigned j = i + 1; j < n; j++)
			if (t[i].addr < end_of(t[j].addr, t[j].size) && t[j].addr < end_of(t[i].addr, t[i].size))
				probe_fail(c, PROBE_ERR_E820_OVERLAP);
	if (!probe_e820_covers(c, E820_TYPE_RAM, c->in->kernel_addr, c->init_size))
		probe_fail(c, PROBE_ERR_E820_MISSING_KERNEL);
	if (!probe_e820_covers(c, E820_TYPE_RAM, c->in->bp_addr, BOOT_PARAMS_SIZE))
		probe_fail(c, PROBE_ERR_E820_MISSING_BOOT_PARAMS);
}

bool probe_systab_valid(probe_read_fn read, void *ctx, uint64_t addr, uint32_t *ret_revision)
{
	EFI_TABLE_HEADER h;

	if (addr == 0 || !read(ctx, addr, &h, sizeof(h)))
		return false;
	if (ret_revision)
		*ret_revision = h.Revision;
	/* §4.3: signature "IBI SYST"; revisions start at 1.10; the header
	 * size covers at least the table as of 1.10 (with 32-bit pointers on
	 * IA-32 firmware). */
	return h.Signature == EFI_SYSTEM_TABLE_SIGNATURE && h.Revision >= EFI_1_10_SYSTEM_TABLE_REVISION &&
	       (h.Revision >> 16) < 16 && h.HeaderSize >= PROBE_SYSTAB_SIZE_IA32;
}

unsigned probe_systab_bits(probe_read_fn read, void *ctx, uint64_t addr)
{
	EFI_TABLE_HEADER h;

	if (!probe_systab_valid(read, ctx, addr, NULL) || !read(ctx, addr, &h, sizeof(h)))
		return 0;
	return h.HeaderSize >= PROBE_SYSTAB_SIZE_X64 ? 64 : 32;
}

/* §7.2: descriptors at least as big as the 1.0 struct, stepped by the size
 * the firmware reported, version 1, known types, page-aligned and not
 * wrapping. */
static bool map_sane(struct probe_ctx *c, uint32_t desc_version)
{
	uint64_t n;

	if (!c->map_addr || !c->map_size || c->desc_size < sizeof(EFI_MEMORY_DESCRIPTOR) || c->desc_size % 8 ||
	    c->map_size % c->desc_size || desc_version != EFI_MEMORY_DESCRIPTOR_VERSION)
		return false;
	n = c->map_size / c->desc_size;
	if (n > MAX_MAP_DESCS)
		return false;
	for (uint64_t i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR d;

		if (!read_desc(c, i, &d) || d.Type >= EfiMaxMemoryType || d.NumberOfPages == 0 ||
		    d.PhysicalStart % EFI_PAGE_SIZE || d.NumberOfPages > (UINT64_MAX - d.PhysicalStart) / EFI_PAGE_SIZE)
			return false;
	}
	c->r->efi_memmap = (unsigned)n;
	return true;
}

/* Every range the kernel's stub would call RAM must be RAM in e820 too. */
static void check_map_vs_e820(struct probe_ctx *c)
{
	uint64_t n = c->map_size / c->desc_size;

	for (uint64_t i = 0; i < n; i++) {
		EFI_MEMORY_DESCRIPTOR d;

		if (!read_desc(c, i, &d))
			return;
		if (e820_type_from_efi(d.Type, d.Attribute) == E820_TYPE_RAM &&
		    !probe_e820_covers(c, E820_TYPE_RAM, d.PhysicalStart, d.NumberOfPages * EFI_PAGE_SIZE)) {
			probe_fail(c, PROBE_ERR_EFI_MEMMAP_E820_MISMATCH);
			return;
		}
	}
}

/* §4.3, §4.6: NumberOfTableEntries and ConfigurationTable in a 64- or
 * 32-bit system table, and the {VendorGuid, VendorTable} entries. */
#define SYSTAB_N_TABLES(bits) ((bits) == 64 ? 0x68u : 0x40u)
#define SYSTAB_TABLES(bits) ((bits) == 64 ? 0x70u : 0x44u)
#define CONFIG_TABLES_MAX 256u

/* Linux's random seed table (include/linux/efi.h linux_efi_random_seed), if
 * the system table has one: its size and the digest of at most the 1 KiB
 * Linux credits. */
static void report_rng_seed(struct probe_ctx *c, uint64_t systab)
{
	static const EFI_GUID seed_guid = LINUX_EFI_RANDOM_SEED_TABLE_GUID;
	unsigned bits = c->r->fw_bits, esize = bits == 64 ? 24 : 20;
	uint32_t n = 0, tables32 = 0, size;
	uint64_t tables = 0, addr = 0;
	uint8_t e[24], bits_buf[1024];

	if (!probe_read(c, systab + SYSTAB_N_TABLES(bits), &n, 4) ||
	    !probe_read(c, systab + SYSTAB_TABLES(bits), bits == 64 ? (void *)&tables : (void *)&tables32, bits / 8))
		return;
	tables = bits == 64 ? tables : tables32;
	for (uint32_t i = 0; i < MIN(n, CONFIG_TABLES_MAX) && !addr; i++)
		if (probe_read(c, tables + (uint64_t)i * esize, e, esize) && memcmp(e, &seed_guid, 16) == 0)
			addr = bits == 64 ? get_le64(e + 16) : get_le32(e + 16);
	if (!addr || !probe_read(c, addr, &size, 4))
		return;
	c->r->rng_seed = true;
	c->r->rng_seed_size = size;
	if (probe_read(c, addr + 4, bits_buf, MIN(size, sizeof(bits_buf)))) {
		uint8_t d[SHA256_DIGEST_SIZE];

		sha256(bits_buf, MIN(size, sizeof(bits_buf)), d);
		sha256_hex(d, c->r->rng_seed_sha256);
	}
}

void probe_check_efi(struct probe_ctx *c)
{
	const struct efi_info *ei = &c->bp.efi_info;
	bool legacy = probe_entry_is_legacy(c->in->entry);
	uint64_t systab = legacy ? ei->efi_systab | (uint64_t)ei->efi_systab_hi << 32 : c->in->systab_addr;
	uint32_t desc_version;

	c->r->efi_systab = probe_systab_valid(c->in->read, c->in->read_ctx, systab, &c->r->efi_systab_revision);
	if (!c->r->efi_systab)
		probe_fail(c, PROBE_ERR_EFI_SYSTAB_SIG);
	c->r->fw_bits = probe_systab_bits(c->in->read, c->in->read_ctx, systab);
	if (c->r->fw_bits)
		report_rng_seed(c, systab);
	/* zero-page.rst: "EL64" from 64-bit firmware, "EL32" from 32-bit firmware */
	if (legacy &&
	    ei->efi_loader_signature != (c->r->fw_bits == 32 ? EFI32_LOADER_SIGNATURE : EFI64_LOADER_SIGNATURE))
		probe_fail(c, PROBE_ERR_EFI_SIG);
	if (legacy) {
		c->map_addr = ei->efi_memmap | (uint64_t)ei->efi_memmap_hi << 32;
		c->map_size = ei->efi_memmap_size;
		c->desc_size = ei->efi_memdesc_size;
		desc_version = ei->efi_memdesc_version;
	} else {
		c->map_addr = c->in->fw_map_addr;
		c->map_size = c->in->fw_map_size;
		c->desc_size = c->in->fw_desc_size;
		desc_version = c->in->fw_desc_version;
		if (!c->map_addr)
			return; /* the firmware gave none: boot_services_unusable says why */
	}
	c->map_ok = map_sane(c, desc_version);
	if (!c->map_ok)
		probe_fail(c, PROBE_ERR_EFI_MEMMAP);
	else if (legacy && c->bp.e820_entries)
		check_map_vs_e820(c);
}

/* Intel SDM vol. 3 §4.5: 4-level (or 5-level with CR4.LA57) paging; PS in a
 * PDPTE maps 1 GiB, in a PDE 2 MiB. */
static bool translate(const struct probe_ctx *c, uint64_t va, uint64_t *ret_pa)
{
	uint64_t table = c->in->cr3 & PTE_ADDR_MASK;

	for (unsigned level = c->in->la57 ? 5 : 4; level >= 1; level--) {
		unsigned shift = 12 + 9 * (level - 1);
		uint64_t e;

		if (!c->in->read(c->in->read_ctx, table + ((va >> shift) & 511) * 8, &e, sizeof(e)) ||
		    !(e & PTE_PRESENT))
			return false;
		if (level == 1 || ((level == 2 || level == 3) && (e & PTE_PS))) {
			uint64_t mask = (1ull << shift) - 1;
			*ret_pa = ((e & PTE_ADDR_MASK) & ~mask) | (va & mask);
			return true;
		}
		table = e & PTE_ADDR_MASK;
	}
	return false;
}

static bool identity(const struct probe_ctx *c, uint64_t va)
{
	uint64_t pa;

	return translate(c, va, &pa) && pa == va;
}

void probe_check_paging(struct probe_ctx *c)
{
	uint64_t kernel = c->in->kernel_addr, step = EFI_PAGE_SIZE;
	uint64_t cmdline = c->bp.hdr.cmd_line_ptr | (uint64_t)c->bp.ext_cmd_line_ptr << 32;
	bool ok = identity(c, c->in->bp_addr) && identity(c, c->in->bp_addr + BOOT_PARAMS_SIZE - 1);

	while (c->init_size / step > MAX_PAGES_WALKED)
		step *= 2;
	for (uint64_t off = 0; ok && off < c->init_size; off += step)
		ok = identity(c, kernel + off);
	if (ok && c->init_size)
		ok = identity(c, kernel + c->init_size - 1);
	if (ok && cmdline)
		ok = identity(c, cmdline);
	if (!ok)
		probe_fail(c, PROBE_ERR_NOT_IDENTITY_MAPPED);
}

bool probe_image_carries_kernel(probe_read_fn read, void *ctx, uint64_t image_base)
{
	uint8_t h[PE_HEAD_READ];
	uint32_t pe;
	size_t sect, n;

	if (!image_base || !read(ctx, image_base, h, sizeof(h)) || h[0] != 'M' || h[1] != 'Z')
		return false;
	pe = get_le32(h + 0x3c);
	if (pe > sizeof(h) - 24 || memcmp(h + pe, "PE\0\0", 4))
		return false;
	n = get_le16(h + pe + 6);
	sect = pe + 24 + get_le16(h + pe + 20);
	for (size_t i = 0; i < n && range_ok(sect + 40 * i, 40, sizeof(h)); i++)
		if (!memcmp(h + sect + 40 * i, WRAP_SECTION, 8) || !memcmp(h + sect + 40 * i, UKI_LINUX_SECTION, 7))
			return true;
	return false;
}
