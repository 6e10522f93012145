/* The one boot_params builder. Every write to a struct boot_params in handoff
 * goes through these functions (docs/style.md rule 4): handover uses the header,
 * command-line and initrd part; legacy uses all of it; the stub what it needs. */
#ifndef CORE_BOOTPARAMS_H
#define CORE_BOOTPARAMS_H

#include "bzimage.h"
#include "fwarch.h"

/* A linear framebuffer as GOP describes it, without firmware types. */
enum fb_format { FB_RGBX8, FB_BGRX8, FB_BITMASK, FB_BLT_ONLY };

struct fb_info {
	uint64_t base;
	uint64_t size;
	uint32_t width, height;
	uint32_t pixels_per_scan_line;
	enum fb_format format;
	uint32_t mask_red, mask_green, mask_blue, mask_reserved; /* FB_BITMASK only */
};

struct efi_memmap_info {
	uint64_t addr;        /* physical address of the descriptors */
	uint64_t size;        /* bytes */
	uint32_t desc_size;
	uint32_t desc_version;
	enum fw_arch fw;      /* the firmware that made the map: "EL64" or "EL32" */
};

/** bp_init_from_image() - zero @bp, copy the setup header (0x1f1 .. hdr_end) and mark the loader. */
void bp_init_from_image(struct boot_params *bp, const struct bz_info *bz);
/** bp_set_kernel() - record where the protected-mode kernel was loaded (code32_start). */
void bp_set_kernel(struct boot_params *bp, uint64_t addr);
/** bp_set_cmdline() - cmd_line_ptr and ext_cmd_line_ptr for a NUL-terminated line at @addr. */
void bp_set_cmdline(struct boot_params *bp, uint64_t addr);
/** bp_set_initrd() - ramdisk_image/size with their ext_* high halves; 0/0 means none. */
void bp_set_initrd(struct boot_params *bp, uint64_t addr, uint64_t size);
/** bp_set_screen() - screen_info for an EFI framebuffer (VIDEO_TYPE_EFI). */
void bp_set_screen(struct boot_params *bp, const struct fb_info *fb);
/**
 * bp_set_efi_info() - efi_info: the signature of @map->fw's word size ("EL64",
 * or "EL32" for 32-bit firmware, whose pointers leave the _hi halves 0), the
 * system table and the memory map.
 */
void bp_set_efi_info(struct boot_params *bp, uint64_t systab, const struct efi_memmap_info *map);
/**
 * bp_set_e820() - the first 128 entries go into the zero page, the rest into
 * @ext (a SETUP_E820_EXT node with room for @ext_cap entries), which is then
 * appended to the setup_data chain at address @ext_addr.
 * Return: EFI_SUCCESS, or EFI_BUFFER_TOO_SMALL when the entries do not fit.
 */
EFI_STATUS bp_set_e820(struct boot_params *bp, const struct boot_e820_entry *e, size_t n,
		       struct setup_data *ext, size_t ext_cap, uint64_t ext_addr);
/** bp_setup_data_tail() - the last node of the setup_data chain, or NULL. */
struct setup_data *bp_setup_data_tail(const struct boot_params *bp);
/** bp_append_setup_data() - link @node (at physical @node_addr) at the end of the chain. */
void bp_append_setup_data(struct boot_params *bp, struct setup_data *node, uint64_t node_addr);

/* Where the loader put the parts the zero page points to. */
struct bp_load {
	uint64_t kernel_addr;
	uint64_t cmdline_addr;
	uint64_t initrd_addr, initrd_size;   /* 0/0: no initrd */
	uint8_t secure_boot;                 /* boot_params.secure_boot: enum sb_mode (src/core/trust.h) */
};

/**
 * bp_setup_header() - the zero page the handover scheme passes (and the
 * first half of legacy's): the image's setup header, loader type, kernel,
 * command line, initrd and Secure Boot state (which the kernel's own EFI stub
 * would have set: legacy boot has none, and its handover entry keeps a set value).
 */
void bp_setup_header(struct boot_params *bp, const struct bz_info *bz, const struct bp_load *ld);

/* The final UEFI memory map, as GetMemoryMap returned it. */
struct bp_memmap {
	const void *map;
	size_t size, desc_size;
	uint32_t desc_version;
	struct boot_e820_entry *scratch;     /* room for one entry per descriptor */
	struct setup_data *ext;              /* SETUP_E820_EXT node, same capacity */
	size_t cap;
	struct setup_data *chain_tail;       /* last setup_data node before the e820 one, or NULL */
	enum fw_arch fw;                     /* whose map: decides the efi_info signature */
};

/**
 * bp_setup_memmap() - legacy boot's last step, between the final
 * GetMemoryMap and ExitBootServices: efi_info ("EL64" or "EL32", @systab, the map) and
 * the e820 table (overflow in a SETUP_E820_EXT node linked after
 * @m->chain_tail). Allocates nothing, so it can run again on a retry.
 * Return: EFI_SUCCESS, EFI_INVALID_PARAMETER (descriptor size), EFI_BUFFER_TOO_SMALL.
 */
EFI_STATUS bp_setup_memmap(struct boot_params *bp, uint64_t systab, const struct bp_memmap *m);

/** bp_e820_ext_size() - bytes of a SETUP_E820_EXT node for @n_extra entries. */
static inline size_t bp_e820_ext_size(size_t n_extra)
{
	return sizeof(struct setup_data) + n_extra * sizeof(struct boot_e820_entry);
}

#endif
