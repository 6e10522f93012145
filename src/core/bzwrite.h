/* bzImage writer: a 64-bit protected-mode payload behind a boot protocol
 * 2.15 setup header (boot.rst "The real-mode kernel header"), the format
 * bz_parse() reads. Used to build build/probe.img; the seed of a future
 * `handoff mkimage`. */
#ifndef CORE_BZWRITE_H
#define CORE_BZWRITE_H

#include "platform.h"
#include <efi/efi.h>

/* Setup area: 8 sectors, one zero page. OVMF's legacy loader (LoadLinuxLib
 * LoadLinuxCheckKernelSetup) refuses a setup smaller than struct boot_params. */
#define BZW_SETUP_SECTS 7u
#define BZW_VERSION_OFFSET 0x300u   /* kernel_version string, in sector 1 */
#define BZW_VERSION_MAX 127u
#define BZW_REALMODE_OFFSET 0x26cu  /* where the jump at 0x200 lands */

struct bz_params {
	uint32_t init_size;         /* memory the payload needs from its load address */
	uint32_t handover_offset;   /* 64-bit handover entry = payload + this + 0x200; 0: none */
	uint32_t cmdline_size;      /* longest command line accepted, without the NUL */
	uint32_t kernel_alignment;  /* power of two */
	uint64_t pref_address;
	uint32_t initrd_addr_max;
	uint16_t xloadflags;        /* XLF_* */
	bool fixed;                 /* relocatable_kernel = 0: runs at pref_address only */
	const char *kernel_version; /* at most BZW_VERSION_MAX bytes; NULL: none */
};

/**
 * bz_write() - lay out setup sectors and header, then @payload (its 64-bit
 * entry at offset 0x200, boot.rst "64-bit boot protocol"). The header says
 * protocol 2.15, LOADED_HIGH, relocatable unless @p->fixed, code32_start 0x100000. Entering
 * the setup code in real mode prints an error line on COM1 and exits QEMU.
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_len;
 * EFI_INVALID_PARAMETER for inconsistent parameters (logged, naming the
 * field); EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS bz_write(const uint8_t *payload, size_t payload_len, const struct bz_params *p, uint8_t **ret,
		    size_t *ret_len);

#endif
