/* The probe's checks (docs/probe.md): given the boot_params a loader
 * handed over, the CPU state the entry glue saw and a way to read physical
 * memory, decide what the loader did wrong and describe what it passed, as
 * the one JSON line `HANDOFF-PROBE {...}`. Pure: the payload (src/probe/)
 * reads real memory, host tests give fake memory. */
#ifndef CORE_PROBE_CHECK_H
#define CORE_PROBE_CHECK_H

#include "platform.h"
#include "sha256.h"
#include <bootproto/bootparam.h>
#include <efi/efi.h>

/* How the payload was entered (the values are also used by src/probe/entry.S). */
enum probe_entry {
	PROBE_ENTRY_LEGACY64 = 0, /* 64-bit entry at load address + 0x200 (rsi = boot_params) */
	PROBE_ENTRY_HANDOVER = 1, /* EFI handover entry, called by a loader */
	PROBE_ENTRY_STUB = 2,     /* handover entry, called by handoff's stub inside probe.img */
	PROBE_ENTRY_BOOT32 = 3,   /* 32-bit entry at the load address (esi = boot_params) */
	PROBE_ENTRY_HANDOVER32 = 4, /* 32-bit EFI handover entry (handover_offset), from 32-bit firmware */
	PROBE_ENTRY_STUB32 = 5,   /* IA-32 PE entry named by the image's .compat section (mixed mode) */
};

/* The EFI system table's HeaderSize (UEFI 2.10 §4.3) with 32- and 64-bit
 * pointers: how the probe tells which firmware made it. */
#define PROBE_SYSTAB_SIZE_IA32 0x48u
#define PROBE_SYSTAB_SIZE_X64 0x78u

/* Entries from 32-bit firmware, whose boot services the probe's IA-32 code
 * (src/probe/efi32.c) asked before it left for long mode. */
static inline bool probe_entry_is_efi32(enum probe_entry e)
{
	return e == PROBE_ENTRY_HANDOVER32 || e == PROBE_ENTRY_STUB32;
}

/* Entries after which the loader owns the whole boot_params (e820, efi_info)
 * and boot services are gone: the 64-bit and the 32-bit boot protocols. */
static inline bool probe_entry_is_legacy(enum probe_entry e)
{
	return e == PROBE_ENTRY_LEGACY64 || e == PROBE_ENTRY_BOOT32;
}

/* Error names, reported in "errors" (one bit each in probe_report.errors). */
enum probe_error {
	PROBE_ERR_HDR_MISMATCH,
	PROBE_ERR_CMDLINE_UNREADABLE,
	PROBE_ERR_CMDLINE_UNTERMINATED,
	PROBE_ERR_INITRD_UNREADABLE,
	PROBE_ERR_INITRD_OUTSIDE_RAM,
	PROBE_ERR_INITRD_OVERLAPS_KERNEL,
	PROBE_ERR_KERNEL_MISALIGNED,
	PROBE_ERR_KERNEL_NOT_ALLOCATED,
	PROBE_ERR_E820_TOO_MANY,
	PROBE_ERR_E820_UNSORTED,
	PROBE_ERR_E820_OVERLAP,
	PROBE_ERR_E820_MISSING_KERNEL,
	PROBE_ERR_E820_MISSING_BOOT_PARAMS,
	PROBE_ERR_EFI_SIG,
	PROBE_ERR_EFI_SYSTAB_SIG,
	PROBE_ERR_EFI_MEMMAP,
	PROBE_ERR_EFI_MEMMAP_E820_MISMATCH,
	PROBE_ERR_SCREEN_GOP_MISMATCH,
	PROBE_ERR_SCREEN_INCONSISTENT,
	PROBE_ERR_SETUP_DATA_CHAIN,
	PROBE_ERR_BOOT_SERVICES_UNUSABLE,
	PROBE_ERR_INTERRUPTS_ON,
	PROBE_ERR_NOT_IDENTITY_MAPPED,
	PROBE_ERR_SENTINEL,
	PROBE_ERR_BOOT_PARAMS_UNREADABLE,
	PROBE_ERR_KERNEL_NOT_AT_PREF,
	PROBE_ERR__MAX,
};

/* Reads @len bytes of physical memory at @addr; false when that memory is
 * not readable (host tests: outside the fake memory). */
typedef bool (*probe_read_fn)(void *ctx, uint64_t addr, void *buf, size_t len);

/* The GOP mode as the firmware reports it (EFI entries only). */
struct probe_gop {
	bool present;
	uint64_t fb_base;
	uint64_t fb_size;
	uint32_t width, height;
	uint32_t pixels_per_scan_line;
};

/* What the checks work on. Addresses are physical (identity-mapped). */
struct probe_input {
	enum probe_entry entry;
	uint64_t bp_addr;              /* the boot_params the loader passed */
	uint64_t kernel_addr;          /* the payload's own load address (protected-mode part) */
	const uint8_t *expected_hdr;   /* the image's setup header, bytes 0x1f1 .. hdr_end */
	size_t expected_hdr_size;
	probe_read_fn read;
	void *read_ctx;
	/* CPU state at entry */
	uint64_t rflags;
	uint64_t cr3;
	bool la57;                     /* CR4.LA57: 5-level paging */
	bool check_paging;             /* walk cr3 (false when the glue could not read it) */
	/* EFI entries: what the firmware says, gathered by the glue */
	uint64_t systab_addr;          /* handover: rsi; legacy64: ignored (efi_info) */
	bool bs_tested;                /* the glue called GetMemoryMap with no buffer */
	EFI_STATUS bs_status;          /* ... and got this (EFI_BUFFER_TOO_SMALL expected) */
	uint64_t fw_map_addr;          /* handover: a full GetMemoryMap result */
	uint64_t fw_map_size, fw_desc_size;
	uint32_t fw_desc_version;
	struct probe_gop gop;
};

#define PROBE_CMDLINE_MAX 2048u
#define PROBE_SETUP_DATA_MAX 16u   /* types listed; the walk stops at 64 nodes */

struct probe_report {
	enum probe_entry entry;
	uint32_t errors;               /* 1u << enum probe_error */
	char cmdline[PROBE_CMDLINE_MAX];
	bool cmdline_truncated;
	uint64_t initrd_addr, initrd_size;
	char initrd_sha256[SHA256_HEX_SIZE];   /* "" without an initrd */
	unsigned e820_entries;
	bool efi_systab;               /* a system table with a valid signature */
	uint32_t efi_systab_revision;
	unsigned fw_bits;              /* 64 or 32: the table's HeaderSize says; 0 unknown */
	unsigned efi_memmap;           /* descriptors in the map checked */
	char efi_sig[5];               /* efi_info.efi_loader_signature as text */
	uint8_t video_type;            /* screen_info.orig_video_isVGA */
	uint16_t hdr_mismatch_at;      /* zero-page offset of the first changed header field, or 0 */
	uint16_t version;              /* hdr.version as seen */
	uint8_t type_of_loader;
	uint8_t loadflags;
	uint8_t secure_boot;           /* boot_params.secure_boot (0x1ec) as the loader set it */
	uint64_t kernel_addr, bp_addr;
	bool fixed;                    /* the image says relocatable_kernel = 0 ... */
	uint64_t pref_address;         /* ... so it must run here (legacy) or above (EFI entries) */
	bool rng_seed;                 /* a LINUX_EFI_RANDOM_SEED_TABLE in the system table ... */
	uint32_t rng_seed_size;        /* ... its size field */
	char rng_seed_sha256[SHA256_HEX_SIZE]; /* ... the digest of its first MIN(size, 1 KiB) bytes */
	uint32_t setup_data_types[PROBE_SETUP_DATA_MAX];
	unsigned n_setup_data;
};

/** probe_error_name() - the name reported for @err ("hdr_mismatch", ...). */
const char *probe_error_name(enum probe_error err);

/** probe_entry_name() - "legacy64", "handover", "stub", "boot32", "handover32" or "stub32". */
const char *probe_entry_name(enum probe_entry entry);

/**
 * probe_run() - run every check that applies to @in->entry and fill @ret.
 * Never fails: what cannot be read is itself an error in @ret->errors.
 */
void probe_run(const struct probe_input *in, struct probe_report *ret);

/**
 * probe_report_json() - the report as `HANDOFF-PROBE {...}` (no newline).
 * Return: the length the full line has (as snprintf); truncated when >= @size.
 */
size_t probe_report_json(const struct probe_report *r, char *buf, size_t size);

/**
 * probe_image_carries_kernel() - whether the PE image loaded at @image_base
 * carries its kernel: a wrapped bzImage (".bzimage" section, src/core/wrap.h)
 * or a UKI (".linux", UAPI.5). Then the handover entry was called by the stub
 * of the very image the firmware or loader started, not by a loader.
 */
bool probe_image_carries_kernel(probe_read_fn read, void *ctx, uint64_t image_base);

/**
 * probe_systab_valid() - the EFI system table at @addr has the right
 * signature and a plausible revision (UEFI 2.10 §4.3), so its boot services
 * may be called.
 */
bool probe_systab_valid(probe_read_fn read, void *ctx, uint64_t addr, uint32_t *ret_revision);

/**
 * probe_systab_bits() - the word size of the firmware that made the system
 * table at @addr: 64 or 32 by its HeaderSize, 0 when unreadable or neither.
 */
unsigned probe_systab_bits(probe_read_fn read, void *ctx, uint64_t addr);

#endif
