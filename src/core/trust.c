/* The verification and measurement policy (issue 13, issue 21). Under Secure
 * Boot every image is verified before any byte runs, by shim when handoff was
 * started by shim, else by the firmware's LoadImage; the verified buffer is
 * the one that boots. 32-bit firmware's LoadImage takes IA-32 images only: a
 * 64-bit kernel there is verified by shim or not booted under Secure Boot. With
 * a TPM every kernel is in PCR 4 exactly once before it runs: by LoadImage
 * where it loads the image anyway or can (Secure Boot off), by shim's Verify(),
 * else by handoff itself (enum pcr4_by). PCR 9 is measured by Linux's own stub
 * on the stub scheme and by handoff on the other two; PCR 12 gets a loader
 * entry's command line as systemd-boot does. */
#include "trust.h"
#include "log.h"
#include <efi/image_security.h>

const char *verifier_name(enum verifier v)
{
	switch (v) {
	case VERIFY_FIRMWARE: return "the firmware (db/dbx)";
	case VERIFY_SHIM: return "shim (SHIM_LOCK)";
	default: return "nobody";
	}
}

/* Whoever runs before the kernel and measures it; handoff when nobody does.
 * A preverified kernel without a PE header (a wrapped bzImage) is in PCR 4
 * as part of the image that carries it, the one LoadImage measured. */
static enum pcr4_by pcr4_measurer(const struct trust_request *req, const struct trust_plan *p)
{
	if (!req->tpm)
		return PCR4_NONE;
	if (p->load_image)
		return PCR4_LOAD_IMAGE;
	if (p->shim_verify_first)
		return PCR4_SHIM;
	if (req->pcr4_done || (req->preverified && !req->img->is_pe))
		return PCR4_EARLIER;
	return req->img->is_pe ? PCR4_HANDOFF_PE : PCR4_HANDOFF_FILE;
}

EFI_STATUS plan_trust(const struct trust_request *req, const char *name, struct trust_plan *ret)
{
	const struct image_info *img = req->img;
	/* an image this firmware cannot LoadImage: a 64-bit kernel on 32-bit firmware */
	bool foreign = req->fw == FW_IA32 && !(img->is_pe && pe_is_efi_app(&img->pe, PE_MACHINE_I386));
	bool stub = req->scheme == SCHEME_STUB && !foreign && !req->uki_direct;
	struct trust_plan p = { .bp_secure_boot = req->sb_mode };

	if (req->secure_boot && !req->preverified) {
		if (!img->is_pe)
			return log_error_status(EFI_SECURITY_VIOLATION,
						"%s: refused: Secure Boot is on and this is a bzImage without a "
						"PE/COFF header, so it carries no signature to verify",
						name);
		p.verify = req->shim ? VERIFY_SHIM : VERIFY_FIRMWARE;
	}
	if (p.verify == VERIFY_FIRMWARE && foreign)
		return log_error_status(EFI_SECURITY_VIOLATION,
					"%s: refused: Secure Boot is on and 32-bit firmware cannot verify a 64-bit "
					"kernel (its LoadImage takes IA-32 images only; boot it from shim)",
					name);
	/* The stub scheme starts what LoadImage loaded. Handover and legacy load
	 * it to have the firmware verify it (Secure Boot) or, with Secure Boot
	 * off, measure it into PCR 4, then unload it. Under shim, shim's
	 * Verify() measures PCR 4 itself, and the firmware would refuse a
	 * MOK-signed kernel. A preverified kernel (in the stub) is measured by
	 * handoff, with Secure Boot on or off alike: the firmware may not trust
	 * it on its own. A UKI of handoff's stub booted from the buffer is
	 * loaded as handover and legacy load a kernel: to be verified or
	 * measured, then unloaded. */
	p.load_image = stub || p.verify == VERIFY_FIRMWARE ||
		       (req->tpm && img->is_pe && p.verify == VERIFY_NONE && !foreign && !req->preverified);
	p.load_image_must_pass = stub || p.verify == VERIFY_FIRMWARE;
	p.refusal_falls_back = stub && req->preverified;
	p.shim_verify_first = p.verify == VERIFY_SHIM && !p.load_image;
	p.measure_pcr9 = req->tpm && req->scheme != SCHEME_STUB;
	p.measure_pcr12 = req->tpm && req->cmdline_outside && !req->cmdline_empty;
	p.pcr4 = pcr4_measurer(req, &p);
	*ret = p;
	return EFI_SUCCESS;
}

enum load_outcome trust_load_outcome(const struct trust_plan *p, EFI_STATUS err)
{
	if (err == EFI_SECURITY_VIOLATION || err == EFI_ACCESS_DENIED) {
		if (p->verify == VERIFY_SHIM)
			return LOAD_REFUSED_BY_SHIM;
		return p->refusal_falls_back ? LOAD_FALLBACK : LOAD_REFUSED;
	}
	return p->load_image_must_pass ? LOAD_FAILED : LOAD_MEASURE;
}

bool sb_enforced(const struct sb_vars *v)
{
	return v->secure_boot_status == EFI_SUCCESS && v->secure_boot != 0 && v->setup_mode != 1;
}

enum sb_mode sb_mode(const struct sb_vars *v)
{
	if (v->secure_boot_status == EFI_NOT_FOUND)
		return SB_MODE_DISABLED;
	if (v->secure_boot_status != EFI_SUCCESS)
		return SB_MODE_UNKNOWN;
	if (!sb_enforced(v))
		return SB_MODE_DISABLED;
	/* shim's MokSBStateRT counts only when volatile, as Linux has it */
	if (v->moksb_status == EFI_SUCCESS && !(v->moksb_attributes & EFI_VARIABLE_NON_VOLATILE) && v->moksb == 1)
		return SB_MODE_DISABLED;
	return SB_MODE_ENABLED;
}

const char *trust_status_meaning(EFI_STATUS status)
{
	if (status == EFI_SECURITY_VIOLATION)
		return "EFI_SECURITY_VIOLATION: loaded, but the platform policy forbids starting it (UEFI 2.10 "
		       "LoadImage)";
	if (status == EFI_ACCESS_DENIED)
		return "EFI_ACCESS_DENIED: the platform policy forbids loading it (UEFI 2.10 LoadImage)";
	return efi_status_str(status);
}

/* The Action recorded for the image (UEFI 2.10 §32.5.3.1). EDK2 records
 * AUTH_UNTESTED for an image neither db nor dbx names (unsigned, signed by
 * another key, or changed so its signature no longer matches), SIG_FAILED
 * for a signer in dbx, SIG_FOUND for a hash in dbx. */
const char *trust_refusal_reason(EFI_STATUS status, bool signed_image, int64_t action)
{
	if (status != EFI_SECURITY_VIOLATION && status != EFI_ACCESS_DENIED)
		return "the firmware could not load it";
	switch (action) {
	case EFI_IMAGE_EXECUTION_AUTH_SIG_FOUND:
		return "its hash or signature is in dbx (forbidden)";
	case EFI_IMAGE_EXECUTION_AUTH_SIG_FAILED:
		return signed_image ? "its signature failed verification, or its signer is in dbx (revoked)"
				    : "not signed, and its hash is not in db";
	case EFI_IMAGE_EXECUTION_POLICY_FAILED:
		return "the platform's image policy refused it";
	default:
		return signed_image ? "its signature is not trusted by db: signed by a key db does not trust, or "
				      "changed after signing"
				    : "not signed, and its hash is not in db";
	}
}

/* NumberOfImages is a UINTN: 32 bits in the table of 32-bit firmware, which
 * is the table the IA-32 build reads. */
uint64_t image_exec_info_count(const uint8_t *tbl, size_t len)
{
	if (!tbl || len < sizeof(EFI_IMAGE_EXECUTION_INFO_TABLE))
		return 0;
	return sizeof(UINTN) == 8 ? get_le64(tbl) : get_le32(tbl);
}

EFI_STATUS image_exec_info_last_action(const uint8_t *tbl, size_t len, uint32_t *ret_action)
{
	uint64_t n = image_exec_info_count(tbl, len);
	size_t off = sizeof(EFI_IMAGE_EXECUTION_INFO_TABLE);
	uint32_t action = 0;

	if (n == 0)
		return EFI_NOT_FOUND;
	for (uint64_t i = 0; i < n; i++) {
		uint32_t info_size;

		if (!range_ok(off, sizeof(EFI_IMAGE_EXECUTION_INFO), len)) {
			log_debug("image execution table: entry %llu past the end", (unsigned long long)i);
			return EFI_LOAD_ERROR;
		}
		action = get_le32(tbl + off);
		info_size = get_le32(tbl + off + 4);
		if (info_size < sizeof(EFI_IMAGE_EXECUTION_INFO) || !range_ok(off, info_size, len)) {
			log_debug("image execution table: entry %llu: InfoSize %u", (unsigned long long)i, info_size);
			return EFI_LOAD_ERROR;
		}
		off += info_size;
	}
	*ret_action = action & EFI_IMAGE_EXECUTION_AUTHENTICATION;
	return EFI_SUCCESS;
}
