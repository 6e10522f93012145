/* x86 Linux boot protocol: setup header, zero page (struct boot_params), e820,
 * screen_info and setup_data, written from Documentation/arch/x86/boot.rst and
 * zero-page.rst. Every offset the protocol fixes is asserted below. */
#ifndef BOOTPROTO_BOOTPARAM_H
#define BOOTPROTO_BOOTPARAM_H

#include <stddef.h>
#include <stdint.h>

#define SETUP_HEADER_OFFSET 0x1f1u  /* boot.rst: "The real-mode kernel header" */
#define SETUP_HDRS_MAGIC    0x53726448u /* "HdrS" at 0x202 */
#define BOOT_FLAG_MAGIC     0xaa55u
#define SETUP_SECTS_DEFAULT 4u       /* setup_sects == 0 means 4 */
#define BOOT_SECTOR_SIZE    512u
#define BOOT_PARAMS_SIZE    4096u
#define KERNEL_ENTRY64_OFFSET 0x200u /* 64-bit entry: load address + 0x200 */
#define HANDOVER_ENTRY64_EXTRA 0x200u /* 64-bit handover: handover_offset + 512 */
#define HANDOVER_ENTRY32_EXTRA 0x000u /* 32-bit handover: handover_offset itself */
#define TYPE_OF_LOADER_UNDEFINED 0xffu
#define BOOT_PROTO(major, minor) (((major) << 8) | (minor))

/* loadflags (0x211) */
#define LOADED_HIGH    (1u << 0)
#define KASLR_FLAG     (1u << 1)
#define QUIET_FLAG     (1u << 5)
#define KEEP_SEGMENTS  (1u << 6)
#define CAN_USE_HEAP   (1u << 7)

/* xloadflags (0x236) */
#define XLF_KERNEL_64              (1u << 0)
#define XLF_CAN_BE_LOADED_ABOVE_4G (1u << 1)
#define XLF_EFI_HANDOVER_32        (1u << 2)
#define XLF_EFI_HANDOVER_64        (1u << 3)
#define XLF_EFI_KEXEC              (1u << 4)
#define XLF_5LEVEL                 (1u << 5)
#define XLF_5LEVEL_ENABLED         (1u << 6)

struct setup_header {
	uint8_t  setup_sects;
	uint16_t root_flags;
	uint32_t syssize;
	uint16_t ram_size;
	uint16_t vid_mode;
	uint16_t root_dev;
	uint16_t boot_flag;
	uint16_t jump;
	uint32_t header;
	uint16_t version;
	uint32_t realmode_swtch;
	uint16_t start_sys_seg;
	uint16_t kernel_version;
	uint8_t  type_of_loader;
	uint8_t  loadflags;
	uint16_t setup_move_size;
	uint32_t code32_start;
	uint32_t ramdisk_image;
	uint32_t ramdisk_size;
	uint32_t bootsect_kludge;
	uint16_t heap_end_ptr;
	uint8_t  ext_loader_ver;
	uint8_t  ext_loader_type;
	uint32_t cmd_line_ptr;
	uint32_t initrd_addr_max;
	uint32_t kernel_alignment;
	uint8_t  relocatable_kernel;
	uint8_t  min_alignment;
	uint16_t xloadflags;
	uint32_t cmdline_size;
	uint32_t hardware_subarch;
	uint64_t hardware_subarch_data;
	uint32_t payload_offset;
	uint32_t payload_length;
	uint64_t setup_data;
	uint64_t pref_address;
	uint32_t init_size;
	uint32_t handover_offset;
	uint32_t kernel_info_offset;
} __attribute__((packed));

/* VIDEO_TYPE_* for screen_info.orig_video_isVGA */
#define VIDEO_TYPE_VLFB 0x23u
#define VIDEO_TYPE_EFI  0x70u
#define VIDEO_CAPABILITY_SKIP_QUIRKS (1u << 0)
#define VIDEO_CAPABILITY_64BIT_BASE  (1u << 1)

struct screen_info {
	uint8_t  orig_x;
	uint8_t  orig_y;
	uint16_t ext_mem_k;
	uint16_t orig_video_page;
	uint8_t  orig_video_mode;
	uint8_t  orig_video_cols;
	uint8_t  flags;
	uint8_t  unused2;
	uint16_t orig_video_ega_bx;
	uint16_t unused3;
	uint8_t  orig_video_lines;
	uint8_t  orig_video_isVGA;
	uint16_t orig_video_points;
	uint16_t lfb_width;
	uint16_t lfb_height;
	uint16_t lfb_depth;
	uint32_t lfb_base;
	uint32_t lfb_size;
	uint16_t cl_magic;
	uint16_t cl_offset;
	uint16_t lfb_linelength;
	uint8_t  red_size;
	uint8_t  red_pos;
	uint8_t  green_size;
	uint8_t  green_pos;
	uint8_t  blue_size;
	uint8_t  blue_pos;
	uint8_t  rsvd_size;
	uint8_t  rsvd_pos;
	uint16_t vesapm_seg;
	uint16_t vesapm_off;
	uint16_t pages;
	uint16_t vesa_attributes;
	uint32_t capabilities;
	uint32_t ext_lfb_base;
	uint8_t  _reserved[2];
} __attribute__((packed));

#define EFI64_LOADER_SIGNATURE 0x34364c45u /* "EL64": 64-bit firmware */
#define EFI32_LOADER_SIGNATURE 0x32334c45u /* "EL32": 32-bit firmware (mixed mode), _hi fields 0 */

struct efi_info {
	uint32_t efi_loader_signature;
	uint32_t efi_systab;
	uint32_t efi_memdesc_size;
	uint32_t efi_memdesc_version;
	uint32_t efi_memmap;
	uint32_t efi_memmap_size;
	uint32_t efi_systab_hi;
	uint32_t efi_memmap_hi;
} __attribute__((packed));

/* e820 types (arch/x86/include/uapi/asm/e820.h values) */
#define E820_TYPE_RAM           1u
#define E820_TYPE_RESERVED      2u
#define E820_TYPE_ACPI          3u
#define E820_TYPE_NVS           4u
#define E820_TYPE_UNUSABLE      5u
#define E820_TYPE_PMEM          7u
#define E820_TYPE_SOFT_RESERVED 0xefffffffu
#define E820_MAX_ENTRIES_ZEROPAGE 128u

struct boot_e820_entry {
	uint64_t addr;
	uint64_t size;
	uint32_t type;
} __attribute__((packed));

/* setup_data node types */
#define SETUP_NONE      0u
#define SETUP_E820_EXT  1u
#define SETUP_DTB       2u
#define SETUP_PCI       3u
#define SETUP_EFI       4u
#define SETUP_RNG_SEED  9u

struct setup_data {
	uint64_t next;
	uint32_t type;
	uint32_t len;   /* bytes of data[] */
	uint8_t  data[];
};

/* SETUP_PCI payload: one PCI option ROM (layout as the kernel's pci_setup_rom). */
struct pci_setup_rom {
	uint64_t next;      /* the setup_data header, spelled out: a struct */
	uint32_t type;      /* with a flexible array cannot be embedded */
	uint32_t len;
	uint16_t vendor;
	uint16_t devid;
	uint64_t pcilen;
	uint64_t segment;
	uint64_t bus;
	uint64_t device;
	uint64_t function;
	uint8_t  romdata[];
};

struct boot_params {
	struct screen_info screen_info;         /* 0x000 */
	uint8_t  apm_bios_info[0x14];           /* 0x040 */
	uint8_t  _pad2[4];                      /* 0x054 */
	uint64_t tboot_addr;                    /* 0x058 */
	uint8_t  ist_info[0x10];                /* 0x060 */
	uint64_t acpi_rsdp_addr;                /* 0x070 */
	uint8_t  _pad3[8];                      /* 0x078 */
	uint8_t  hd0_info[16];                  /* 0x080 */
	uint8_t  hd1_info[16];                  /* 0x090 */
	uint8_t  sys_desc_table[0x10];          /* 0x0a0 */
	uint8_t  olpc_ofw_header[0x10];         /* 0x0b0 */
	uint32_t ext_ramdisk_image;             /* 0x0c0 */
	uint32_t ext_ramdisk_size;              /* 0x0c4 */
	uint32_t ext_cmd_line_ptr;              /* 0x0c8 */
	uint8_t  _pad4[112];                    /* 0x0cc */
	uint32_t cc_blob_address;               /* 0x13c */
	uint8_t  edid_info[0x80];               /* 0x140 */
	struct efi_info efi_info;               /* 0x1c0 */
	uint32_t alt_mem_k;                     /* 0x1e0 */
	uint32_t scratch;                       /* 0x1e4 */
	uint8_t  e820_entries;                  /* 0x1e8 */
	uint8_t  eddbuf_entries;                /* 0x1e9 */
	uint8_t  edd_mbr_sig_buf_entries;       /* 0x1ea */
	uint8_t  kbd_status;                    /* 0x1eb */
	uint8_t  secure_boot;                   /* 0x1ec */
	uint8_t  _pad5[2];                      /* 0x1ed */
	uint8_t  sentinel;                      /* 0x1ef */
	uint8_t  _pad6[1];                      /* 0x1f0 */
	struct setup_header hdr;                /* 0x1f1 */
	uint8_t  _pad7[0x290 - 0x1f1 - sizeof(struct setup_header)];
	uint32_t edd_mbr_sig_buffer[16];        /* 0x290 */
	struct boot_e820_entry e820_table[E820_MAX_ENTRIES_ZEROPAGE]; /* 0x2d0 */
	uint8_t  _pad8[48];                     /* 0xcd0 */
	uint8_t  eddbuf[6 * 82];                /* 0xd00 */
	uint8_t  _pad9[276];                    /* 0xeec */
} __attribute__((packed));

#define BP_ASSERT(field, off) \
	_Static_assert(offsetof(struct boot_params, field) == (off), "zero-page.rst: " #field)
#define HDR_ASSERT(field, off) \
	_Static_assert(offsetof(struct boot_params, hdr.field) == (off), "boot.rst: " #field)
#define SI_ASSERT(field, off) \
	_Static_assert(offsetof(struct screen_info, field) == (off), "screen_info: " #field)

_Static_assert(sizeof(struct boot_params) == BOOT_PARAMS_SIZE, "zero page is one page");
_Static_assert(sizeof(struct screen_info) == 0x40, "screen_info size");
_Static_assert(sizeof(struct efi_info) == 0x20, "efi_info size");
_Static_assert(sizeof(struct boot_e820_entry) == 20, "e820 entry is packed 20 bytes");
_Static_assert(sizeof(struct setup_data) == 16, "setup_data header");
_Static_assert(offsetof(struct pci_setup_rom, vendor) == 16, "pci_setup_rom.vendor");
_Static_assert(offsetof(struct pci_setup_rom, pcilen) == 24, "pci_setup_rom.pcilen");
_Static_assert(offsetof(struct pci_setup_rom, romdata) == 64, "pci_setup_rom.romdata");

BP_ASSERT(screen_info, 0x000);
BP_ASSERT(apm_bios_info, 0x040);
BP_ASSERT(tboot_addr, 0x058);
BP_ASSERT(ist_info, 0x060);
BP_ASSERT(acpi_rsdp_addr, 0x070);
BP_ASSERT(hd0_info, 0x080);
BP_ASSERT(hd1_info, 0x090);
BP_ASSERT(sys_desc_table, 0x0a0);
BP_ASSERT(olpc_ofw_header, 0x0b0);
BP_ASSERT(ext_ramdisk_image, 0x0c0);
BP_ASSERT(ext_ramdisk_size, 0x0c4);
BP_ASSERT(ext_cmd_line_ptr, 0x0c8);
BP_ASSERT(cc_blob_address, 0x13c);
BP_ASSERT(edid_info, 0x140);
BP_ASSERT(efi_info, 0x1c0);
BP_ASSERT(efi_info.efi_loader_signature, 0x1c0);
BP_ASSERT(efi_info.efi_systab, 0x1c4);
BP_ASSERT(efi_info.efi_memdesc_size, 0x1c8);
BP_ASSERT(efi_info.efi_memdesc_version, 0x1cc);
BP_ASSERT(efi_info.efi_memmap, 0x1d0);
BP_ASSERT(efi_info.efi_memmap_size, 0x1d4);
BP_ASSERT(efi_info.efi_systab_hi, 0x1d8);
BP_ASSERT(efi_info.efi_memmap_hi, 0x1dc);
BP_ASSERT(alt_mem_k, 0x1e0);
BP_ASSERT(scratch, 0x1e4);
BP_ASSERT(e820_entries, 0x1e8);
BP_ASSERT(eddbuf_entries, 0x1e9);
BP_ASSERT(edd_mbr_sig_buf_entries, 0x1ea);
BP_ASSERT(kbd_status, 0x1eb);
BP_ASSERT(secure_boot, 0x1ec);
BP_ASSERT(sentinel, 0x1ef);
BP_ASSERT(hdr, 0x1f1);
BP_ASSERT(edd_mbr_sig_buffer, 0x290);
BP_ASSERT(e820_table, 0x2d0);
BP_ASSERT(eddbuf, 0xd00);

HDR_ASSERT(setup_sects, 0x1f1);
HDR_ASSERT(root_flags, 0x1f2);
HDR_ASSERT(syssize, 0x1f4);
HDR_ASSERT(ram_size, 0x1f8);
HDR_ASSERT(vid_mode, 0x1fa);
HDR_ASSERT(root_dev, 0x1fc);
HDR_ASSERT(boot_flag, 0x1fe);
HDR_ASSERT(jump, 0x200);
HDR_ASSERT(header, 0x202);
HDR_ASSERT(version, 0x206);
HDR_ASSERT(realmode_swtch, 0x208);
HDR_ASSERT(start_sys_seg, 0x20c);
HDR_ASSERT(kernel_version, 0x20e);
HDR_ASSERT(type_of_loader, 0x210);
HDR_ASSERT(loadflags, 0x211);
HDR_ASSERT(setup_move_size, 0x212);
HDR_ASSERT(code32_start, 0x214);
HDR_ASSERT(ramdisk_image, 0x218);
HDR_ASSERT(ramdisk_size, 0x21c);
HDR_ASSERT(bootsect_kludge, 0x220);
HDR_ASSERT(heap_end_ptr, 0x224);
HDR_ASSERT(ext_loader_ver, 0x226);
HDR_ASSERT(ext_loader_type, 0x227);
HDR_ASSERT(cmd_line_ptr, 0x228);
HDR_ASSERT(initrd_addr_max, 0x22c);
HDR_ASSERT(kernel_alignment, 0x230);
HDR_ASSERT(relocatable_kernel, 0x234);
HDR_ASSERT(min_alignment, 0x235);
HDR_ASSERT(xloadflags, 0x236);
HDR_ASSERT(cmdline_size, 0x238);
HDR_ASSERT(hardware_subarch, 0x23c);
HDR_ASSERT(hardware_subarch_data, 0x240);
HDR_ASSERT(payload_offset, 0x248);
HDR_ASSERT(payload_length, 0x24c);
HDR_ASSERT(setup_data, 0x250);
HDR_ASSERT(pref_address, 0x258);
HDR_ASSERT(init_size, 0x260);
HDR_ASSERT(handover_offset, 0x264);
HDR_ASSERT(kernel_info_offset, 0x268);

SI_ASSERT(orig_video_isVGA, 0x0f);
SI_ASSERT(lfb_width, 0x12);
SI_ASSERT(lfb_height, 0x14);
SI_ASSERT(lfb_depth, 0x16);
SI_ASSERT(lfb_base, 0x18);
SI_ASSERT(lfb_size, 0x1c);
SI_ASSERT(lfb_linelength, 0x24);
SI_ASSERT(red_size, 0x26);
SI_ASSERT(red_pos, 0x27);
SI_ASSERT(green_size, 0x28);
SI_ASSERT(green_pos, 0x29);
SI_ASSERT(blue_size, 0x2a);
SI_ASSERT(blue_pos, 0x2b);
SI_ASSERT(rsvd_size, 0x2c);
SI_ASSERT(rsvd_pos, 0x2d);
SI_ASSERT(capabilities, 0x36);
SI_ASSERT(ext_lfb_base, 0x3a);

#undef BP_ASSERT
#undef HDR_ASSERT
#undef SI_ASSERT

#endif
