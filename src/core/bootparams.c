/* boot_params ("zero page") construction, from boot.rst "Details of header
 * fields" and zero-page.rst. Pure: addresses are given by the caller, nothing
 * is allocated, and the physical address of a node is its pointer (UEFI maps
 * memory 1:1, UEFI 2.10 §2.3.4). */
#include "bootparams.h"
#include "e820.h"

/* The one way a 64-bit value is split into a low and a high 32-bit field.
 * A macro, not a function: the fields are packed, so no pointers to them. */
#define put_u64_split(lo, hi, v)                      \
	do {                                          \
		uint64_t _v = (v);                    \
		(lo) = (uint32_t)_v;                  \
		(hi) = (uint32_t)(_v >> 32);          \
	} while (0)

void bp_init_from_image(struct boot_params *bp, const struct bz_info *bz)
{
	memset(bp, 0, sizeof(*bp));
	/* boot.rst: copy the header from 0x1f1 to the end given by byte 0x201. */
	memcpy((uint8_t *)bp + SETUP_HEADER_OFFSET, bz->image + SETUP_HEADER_OFFSET,
	       bz->hdr_end - SETUP_HEADER_OFFSET);
	bp->hdr.type_of_loader = TYPE_OF_LOADER_UNDEFINED;
	/* boot.rst: the loader must set LOADED_HIGH for a protected-mode kernel at 1M+;
	 * CAN_USE_HEAP is for the real-mode entry only and must stay clear here. */
	bp->hdr.loadflags = (uint8_t)((bp->hdr.loadflags | LOADED_HIGH) & ~CAN_USE_HEAP);
	bp->hdr.setup_data = 0;
	bp->hdr.ramdisk_image = 0;
	bp->hdr.ramdisk_size = 0;
	bp->hdr.cmd_line_ptr = 0;
}

void bp_set_kernel(struct boot_params *bp, uint64_t addr)
{
	bp->hdr.code32_start = (uint32_t)addr;
}

void bp_set_cmdline(struct boot_params *bp, uint64_t addr)
{
	put_u64_split(bp->hdr.cmd_line_ptr, bp->ext_cmd_line_ptr, addr);
}

void bp_set_initrd(struct boot_params *bp, uint64_t addr, uint64_t size)
{
	put_u64_split(bp->hdr.ramdisk_image, bp->ext_ramdisk_image, addr);
	put_u64_split(bp->hdr.ramdisk_size, bp->ext_ramdisk_size, size);
}

/* Width and position of the run of set bits in a pixel mask (0/0 if empty). */
static void mask_bits(uint32_t mask, uint8_t *size, uint8_t *pos)
{
	uint8_t p = 0, s = 0;

	if (mask) {
		while (!(mask & 1u)) {
			mask >>= 1;
			p++;
		}
		while (mask & 1u) {
			mask >>= 1;
			s++;
		}
	}
	*size = s;
	*pos = p;
}

static void screen_pixels(struct screen_info *si, const struct fb_info *fb)
{
	switch (fb->format) {
	case FB_RGBX8:
	case FB_BGRX8:
		si->lfb_depth = 32;
		si->red_size = si->green_size = si->blue_size = si->rsvd_size = 8;
		si->red_pos = fb->format == FB_RGBX8 ? 0 : 16;
		si->green_pos = 8;
		si->blue_pos = fb->format == FB_RGBX8 ? 16 : 0;
		si->rsvd_pos = 24;
		si->lfb_linelength = (uint16_t)(fb->pixels_per_scan_line * 4);
		break;
	case FB_BITMASK:
		mask_bits(fb->mask_red, &si->red_size, &si->red_pos);
		mask_bits(fb->mask_green, &si->green_size, &si->green_pos);
		mask_bits(fb->mask_blue, &si->blue_size, &si->blue_pos);
		mask_bits(fb->mask_reserved, &si->rsvd_size, &si->rsvd_pos);
		si->lfb_depth = (uint16_t)(si->red_size + si->green_size + si->blue_size + si->rsvd_size);
		si->lfb_linelength = (uint16_t)(fb->pixels_per_scan_line * si->lfb_depth / 8);
		break;
	case FB_BLT_ONLY:
		/* No linear framebuffer: what Linux's own stub reports for PixelBltOnly. */
		si->lfb_depth = 4;
		si->lfb_linelength = (uint16_t)(fb->width / 2);
		break;
	}
}

void bp_set_screen(struct boot_params *bp, const struct fb_info *fb)
{
	struct screen_info *si = &bp->screen_info;
	uint32_t ext_base;

	memset(si, 0, sizeof(*si));
	si->orig_video_isVGA = VIDEO_TYPE_EFI;
	si->lfb_width = (uint16_t)fb->width;
	si->lfb_height = (uint16_t)fb->height;
	put_u64_split(si->lfb_base, ext_base, fb->base);
	si->ext_lfb_base = ext_base;
	si->lfb_size = (uint32_t)fb->size;
	si->capabilities = VIDEO_CAPABILITY_SKIP_QUIRKS | (ext_base ? VIDEO_CAPABILITY_64BIT_BASE : 0);
	screen_pixels(si, fb);
}

void bp_set_efi_info(struct boot_params *bp, uint64_t systab, const struct efi_memmap_info *map)
{
	struct efi_info *ei = &bp->efi_info;

	ei->efi_loader_signature = map->fw == FW_IA32 ? EFI32_LOADER_SIGNATURE : EFI64_LOADER_SIGNATURE;
	put_u64_split(ei->efi_systab, ei->efi_systab_hi, systab);
	put_u64_split(ei->efi_memmap, ei->efi_memmap_hi, map->addr);
	ei->efi_memmap_size = (uint32_t)map->size;
	ei->efi_memdesc_size = map->desc_size;
	ei->efi_memdesc_version = map->desc_version;
}

struct setup_data *bp_setup_data_tail(const struct boot_params *bp)
{
	struct setup_data *n = (struct setup_data *)(uintptr_t)bp->hdr.setup_data;

	while (n && n->next)
		n = (struct setup_data *)(uintptr_t)n->next;
	return n;
}

void bp_append_setup_data(struct boot_params *bp, struct setup_data *node, uint64_t node_addr)
{
	struct setup_data *tail = bp_setup_data_tail(bp);

	node->next = 0;
	if (tail)
		tail->next = node_addr;
	else
		bp->hdr.setup_data = node_addr;
}

EFI_STATUS bp_set_e820(struct boot_params *bp, const struct boot_e820_entry *e, size_t n,
		       struct setup_data *ext, size_t ext_cap, uint64_t ext_addr)
{
	size_t n_zero = MIN(n, (size_t)E820_MAX_ENTRIES_ZEROPAGE);
	size_t n_extra = n - n_zero;

	if (n_extra > ext_cap || (n_extra && !ext))
		return EFI_BUFFER_TOO_SMALL;
	memcpy(bp->e820_table, e, n_zero * sizeof(*e));
	bp->e820_entries = (uint8_t)n_zero;
	if (!n_extra)
		return EFI_SUCCESS;
	ext->type = SETUP_E820_EXT;
	ext->len = (uint32_t)(n_extra * sizeof(*e));
	memcpy(ext->data, e + n_zero, ext->len);
	bp_append_setup_data(bp, ext, ext_addr);
	return EFI_SUCCESS;
}

void bp_setup_header(struct boot_params *bp, const struct bz_info *bz, const struct bp_load *ld)
{
	bp_init_from_image(bp, bz);
	bp_set_kernel(bp, ld->kernel_addr);
	bp_set_cmdline(bp, ld->cmdline_addr);
	bp_set_initrd(bp, ld->initrd_addr, ld->initrd_size);
	bp->secure_boot = ld->secure_boot;
}

EFI_STATUS bp_setup_memmap(struct boot_params *bp, uint64_t systab, const struct bp_memmap *m)
{
	struct efi_memmap_info info = {
		.addr = (uintptr_t)m->map, .size = m->size,
		.desc_size = (uint32_t)m->desc_size, .desc_version = m->desc_version, .fw = m->fw,
	};
	size_t n;
	EFI_STATUS err;

	bp_set_efi_info(bp, systab, &info);
	err = e820_from_efi_memmap(m->map, m->size, m->desc_size, m->scratch, m->cap, &n);
	if (EFI_ERROR(err))
		return err;
	/* On a retry the e820 node is appended again: cut the chain where it was linked. */
	if (m->chain_tail)
		m->chain_tail->next = 0;
	else
		bp->hdr.setup_data = 0;
	return bp_set_e820(bp, m->scratch, n, m->ext, m->cap, (uintptr_t)m->ext);
}
