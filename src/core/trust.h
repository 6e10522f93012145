/* What must be verified and measured before an image runs (issue 13, issue
 * 21): one request in, one plan out; and the Secure Boot state Linux is told.
 * Pure: src/efi/verify.c and src/efi/tpm.c carry the plan out with thin
 * firmware calls, src/efi/vars.c reads the variables. */
#ifndef CORE_TRUST_H
#define CORE_TRUST_H

#include "plan.h"

enum verifier {
	VERIFY_NONE,      /* Secure Boot off, or the bytes are covered by the caller's own signature */
	VERIFY_FIRMWARE,  /* LoadImage from the buffer: db/dbx (UEFI 2.10 §32.5, §7.4 LoadImage) */
	VERIFY_SHIM,      /* shim's SHIM_LOCK.Verify: db, MokList, shim's vendor certificate */
};

/* Who puts the kernel into PCR 4 (EV_EFI_BOOT_SERVICES_APPLICATION) before
 * any byte of it runs: with a TPM exactly one of them, never none. */
enum pcr4_by {
	PCR4_NONE,        /* no TPM */
	PCR4_LOAD_IMAGE,  /* the firmware's LoadImage (or the one shim hooks): the Authenticode digest */
	PCR4_SHIM,        /* SHIM_LOCK.Verify() */
	PCR4_HANDOFF_PE,  /* handoff: HashLogExtendEvent with PE_COFF_IMAGE, the digest LoadImage would log */
	PCR4_HANDOFF_FILE, /* handoff: the SHA-256 of the file (a bzImage without a PE header) */
	PCR4_EARLIER,     /* already there: as part of the image that carries it, or before a fallback */
};

/* boot_params.secure_boot (zero-page.rst 0x1ec): Linux's enum efi_secureboot_mode. */
enum sb_mode { SB_MODE_UNSET, SB_MODE_UNKNOWN, SB_MODE_DISABLED, SB_MODE_ENABLED };

/* The variables Linux's EFI stub decides Secure Boot from (efi_get_secureboot()),
 * as GetVariable returned them (values 0 when not read). */
struct sb_vars {
	EFI_STATUS secure_boot_status; /* SecureBoot (EFI global variable, UEFI 2.10 §3.3) */
	uint8_t secure_boot;
	uint8_t setup_mode;            /* SetupMode; its status does not matter */
	EFI_STATUS moksb_status;       /* MokSBStateRT (shim's GUID): shim's validation switched off */
	uint32_t moksb_attributes;
	uint8_t moksb;
};

struct trust_request {
	const struct image_info *img;
	enum boot_scheme scheme;   /* resolved */
	bool secure_boot;          /* SecureBoot = 1 and SetupMode = 0 */
	bool shim;                 /* SHIM_LOCK is installed (handoff was started by shim) */
	bool tpm;                  /* EFI_TCG2_PROTOCOL with a TPM present */
	bool preverified;          /* the stub's own kernel: verified as part of the signed image */
	bool pcr4_done;            /* PCR 4 holds it already (the stub's fallback after a refused LoadImage) */
	/* A UKI of handoff's stub from the menu: the loader boots its sections
	 * from the buffer (src/efi/boot_uki.c), the image is not started. PCR 12
	 * as when it is started: the loader's line, then what the stub takes. */
	bool uki_direct;
	enum sb_mode sb_mode;      /* sb_mode() */
	/* The command line came from outside the image: a loader entry's options
	 * (PCR 12 as systemd-boot) or LoadOptions the stub took (as systemd-stub). */
	bool cmdline_outside;
	bool cmdline_empty;
	enum fw_arch fw; /* 32-bit firmware loads IA-32 images only: a 64-bit kernel's .compat entry runs unloaded */
};

struct trust_plan {
	enum verifier verify;
	/* LoadImage the buffer before any byte runs: the stub scheme starts the
	 * loaded image; handover and legacy unload it again and boot the same
	 * buffer. LoadImage verifies under Secure Boot and measures the image
	 * into PCR 4 (EV_EFI_BOOT_SERVICES_APPLICATION), so PCR 4 is the same
	 * on every scheme. */
	bool load_image;
	bool load_image_must_pass; /* the scheme needs the loaded image, or Secure Boot its verdict */
	bool refusal_falls_back;   /* a preverified kernel the firmware refuses boots by another scheme */
	/* SHIM_LOCK.Verify() before anything runs. Not when the image is loaded
	 * anyway (the stub scheme): shim hooks LoadImage for its second stage,
	 * verifies and measures there, so a second Verify() would put the kernel
	 * into PCR 4 twice. Verify() then only says why LoadImage refused. */
	bool shim_verify_first;
	bool measure_pcr9;         /* command line + initrd, as Linux's EFI stub does (handover, legacy) */
	bool measure_pcr12;        /* the command line, EV_IPL, as systemd-boot and systemd-stub do */
	enum pcr4_by pcr4;
	enum sb_mode bp_secure_boot; /* what handover and legacy write into boot_params.secure_boot */
};

/**
 * plan_trust() - decide verification and measurement for @req.
 * Under Secure Boot an image that is not PE/COFF cannot carry a signature and
 * is refused, unless it is preverified.
 * Return: EFI_SUCCESS, or EFI_SECURITY_VIOLATION with the reason logged, naming @name.
 */
EFI_STATUS plan_trust(const struct trust_request *req, const char *name, struct trust_plan *ret);

/* What a failed LoadImage means (trust_load_outcome()). */
enum load_outcome {
	LOAD_REFUSED,         /* the image policy refused it (EFI_SECURITY_VIOLATION, EFI_ACCESS_DENIED): not booted */
	LOAD_REFUSED_BY_SHIM, /* ... under shim, whose verdict names the reason */
	LOAD_FALLBACK,        /* ... a preverified kernel: PCR 4 first, then the caller boots it by another scheme */
	LOAD_FAILED,          /* the scheme needs the loaded image: not booted */
	LOAD_MEASURE,         /* LoadImage was to measure only: handoff measures PCR 4 unless the firmware did */
};

/**
 * trust_load_outcome() - what to do when LoadImage failed with @err under
 * plan @p. A policy refusal is a refusal whatever the SecureBoot variable
 * says (fail closed); no outcome boots the kernel without PCR 4.
 */
enum load_outcome trust_load_outcome(const struct trust_plan *p, EFI_STATUS err);

/** sb_enforced() - handoff verifies images: SecureBoot read and not 0, SetupMode not 1 (UEFI 2.10 §32.3). */
bool sb_enforced(const struct sb_vars *v);

/**
 * sb_mode() - Secure Boot as Linux's efi_get_secureboot() decides it, for
 * boot_params.secure_boot: SecureBoot absent, 0, or SetupMode 1: disabled;
 * unreadable: unknown; else enabled, unless shim's volatile MokSBStateRT is 1
 * (the user switched shim's validation off): disabled. So every scheme locks
 * the kernel down (or not) as Linux's own stub would.
 */
enum sb_mode sb_mode(const struct sb_vars *v);

/** verifier_name() - "the firmware (db/dbx)", "shim", "nobody". */
const char *verifier_name(enum verifier v);

/**
 * trust_refusal_reason() - why the firmware refused an image, in words, from
 * the LoadImage status, whether the image has an Authenticode signature, and
 * the Action the firmware recorded in its Image Execution Information Table
 * (@action < 0: none recorded). Return: a static string.
 */
const char *trust_refusal_reason(EFI_STATUS status, bool signed_image, int64_t action);

/** trust_status_meaning() - UEFI 2.10 §7.4 LoadImage's meaning of a refusal status. */
const char *trust_status_meaning(EFI_STATUS status);

/**
 * image_exec_info_count() - NumberOfImages of an Image Execution Information
 * Table (UEFI 2.10 §32.5.3.1) of at most @len bytes; 0 when too short.
 */
uint64_t image_exec_info_count(const uint8_t *tbl, size_t len);

/**
 * image_exec_info_last_action() - the Action of the last entry of the table,
 * walking every entry's InfoSize within @len bytes.
 * Return: EFI_SUCCESS, EFI_NOT_FOUND (no entries) or EFI_LOAD_ERROR (an entry
 * runs past @len or is shorter than its header; logged at debug level).
 */
EFI_STATUS image_exec_info_last_action(const uint8_t *tbl, size_t len, uint32_t *ret_action);

#endif
