/* Verification and PCR 4 before any byte of an image runs (issue 13, issue
 * 21): by shim when handoff was started by shim (SHIM_LOCK.Verify(), or on the
 * stub scheme the LoadImage shim hooks for its second stage), else by the
 * firmware's LoadImage from the buffer already read (UEFI 2.10 §7.4: db/dbx
 * under Secure Boot, and the image measured into PCR 4 by a TPM-aware
 * firmware), else (no LoadImage can measure it) by handoff through the TPM.
 * The stub scheme starts the loaded image; handover and legacy unload it and
 * boot the very same buffer, so what runs is what was verified and measured.
 * src/core/trust.c decides what is done; this file only does it. */
#include "boot.h"
#include "measure.h"
#include <efi/image_security.h>
#include <efi/proto/shim_lock.h>

static EFI_GUID shim_lock_guid = SHIM_LOCK_GUID;
static EFI_GUID image_security_database_guid = EFI_IMAGE_SECURITY_DATABASE_GUID;

/* The table has no size of its own; its entries are bounded by this. */
#define EXEC_INFO_MAX (1u << 20)

static SHIM_LOCK *shim_lock(void)
{
	SHIM_LOCK *shim;

	return BS->LocateProtocol(&shim_lock_guid, NULL, (void **)&shim) == EFI_SUCCESS ? shim : NULL;
}

bool shim_present(void)
{
	return shim_lock() != NULL;
}

/* UEFI 2.10 §32.5.3.1: where the firmware says why it refused an image. */
static const uint8_t *exec_info_table(void)
{
	return efi_config_table(&image_security_database_guid);
}

static uint64_t exec_info_count(void)
{
	return image_exec_info_count(exec_info_table(), EXEC_INFO_MAX);
}

static EFI_STATUS refused_by_firmware(const struct boot_job *job, EFI_STATUS err, uint64_t n_before)
{
	const uint8_t *t = exec_info_table();
	int64_t action = -1;
	uint32_t a;

	/* Only an entry added by this LoadImage says something about this image. */
	if (image_exec_info_count(t, EXEC_INFO_MAX) > n_before &&
	    image_exec_info_last_action(t, EXEC_INFO_MAX, &a) == EFI_SUCCESS)
		action = a;
	return log_error_status(err, "%s: refused by Secure Boot: %s (%s)", job->kernel_path,
				trust_refusal_reason(err, job->info.is_pe && job->info.pe.cert_size != 0, action),
				trust_status_meaning(err));
}

static EFI_STATUS verify_by_shim(const struct boot_job *job)
{
	SHIM_LOCK *shim = shim_lock();
	EFI_STATUS err;

	if (!shim)
		return log_error_status(EFI_SECURITY_VIOLATION, "%s: refused: shim's SHIM_LOCK protocol went away",
					job->kernel_path);
	if (job->image_size > UINT32_MAX)
		return log_error_status(EFI_SECURITY_VIOLATION,
					"%s: refused: %zu bytes is too big for SHIM_LOCK.Verify", job->kernel_path,
					job->image_size);
	err = shim->Verify((void *)job->image, (uint32_t)job->image_size);
	if (EFI_ERROR(err))
		return log_error_status(err,
					"%s: refused by shim: %m: not signed by a key in db, MokList or shim's own "
					"certificate, revoked (dbx, MokListX, SBAT), or changed after signing",
					job->kernel_path);
	return EFI_SUCCESS;
}

/* What a failed LoadImage means when it is not to be booted anyway. */
static EFI_STATUS load_refused(const struct boot_job *job, enum load_outcome o, EFI_STATUS err, uint64_t n_before)
{
	EFI_STATUS shim_err;

	if (o == LOAD_FAILED)
		return log_error_status(err, "%s: LoadImage failed: %m", job->kernel_path);
	if (o != LOAD_REFUSED_BY_SHIM)
		return refused_by_firmware(job, err, n_before);
	/* shim's own verdict when it has not been asked yet (trust.h
	 * shim_verify_first): an unsigned kernel is "refused by shim". */
	shim_err = job->plan.trust.shim_verify_first ? EFI_SUCCESS : verify_by_shim(job);
	if (EFI_ERROR(shim_err))
		return shim_err;
	return log_error_status(err,
				"%s: shim accepted it, but the firmware's LoadImage refused it (%s): boot it by "
				"protocol handover or legacy",
				job->kernel_path, trust_status_meaning(err));
}

/* LoadImage from the buffer (UEFI 2.10 §7.4), with the file's device path
 * (also what the firmware logs with the PCR 4 event). The stub scheme keeps
 * the loaded image; handover and legacy boot job->image itself. When it fails
 * and the plan boots the kernel anyway (trust_load_outcome()), PCR 4 still
 * gets it once: whether the firmware measured it before it failed depends on
 * the firmware (on OVMF a refusal does not), its event log tells (@mark);
 * else handoff does. A preverified kernel the firmware refused returns the
 * refusal, measured: the caller boots it by another scheme. */
static EFI_STATUS load_image(const struct boot_job *job, const EFI_DEVICE_PATH_PROTOCOL *dp, bool *ret_measure,
			     EFI_HANDLE *ret_child)
{
	uint64_t n_before = exec_info_count(), mark = tpm_log_mark();
	EFI_HANDLE child = NULL;
	enum load_outcome o;
	EFI_STATUS err;

	err = BS->LoadImage(FALSE, IH, (EFI_DEVICE_PATH_PROTOCOL *)dp, (void *)job->image, job->image_size, &child);
	if (!EFI_ERROR(err)) {
		if (job->plan.scheme == SCHEME_STUB)
			*ret_child = child;
		else
			BS->UnloadImage(child); /* verified and measured: boot job->image itself */
		return EFI_SUCCESS;
	}
	/* §7.4: with EFI_SECURITY_VIOLATION the image was loaded and has a handle. */
	if (child)
		BS->UnloadImage(child);
	o = trust_load_outcome(&job->plan.trust, err);
	if (o != LOAD_MEASURE && o != LOAD_FALLBACK)
		return load_refused(job, o, err, n_before);
	log_status(LOG_INFO, err, o == LOAD_FALLBACK ? "%s: the firmware does not trust it on its own (%m)"
						     : "%s: LoadImage failed (%m): handoff measures it",
		   job->kernel_path);
	*ret_measure = job->plan.trust.pcr4 == PCR4_LOAD_IMAGE && !tpm_logged_since(mark);
	return o == LOAD_FALLBACK ? err : EFI_SUCCESS;
}

EFI_STATUS image_verify(const struct boot_job *job, EFI_HANDLE *ret_child)
{
	const struct trust_plan *t = &job->plan.trust;
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *own_dp = NULL;
	const EFI_DEVICE_PATH_PROTOCOL *dp = job->devpath;
	bool measure = t->pcr4 == PCR4_HANDOFF_PE || t->pcr4 == PCR4_HANDOFF_FILE;
	EFI_STATUS err = EFI_SUCCESS, m;

	*ret_child = NULL;
	if (!dp)
		dp = own_dp = devpath_for_file(job->device, job->kernel_path);
	if (t->shim_verify_first)
		err = verify_by_shim(job);
	if (!EFI_ERROR(err) && t->load_image)
		err = load_image(job, dp, &measure, ret_child);
	if ((!EFI_ERROR(err) || t->refusal_falls_back) && measure) {
		/* PCR 4 by handoff (trust.h PCR4_HANDOFF_*): the buffer that boots */
		m = tpm_measure_image(job->image, job->image_size, job->info.is_pe, dp, job->kernel_path);
		if (EFI_ERROR(m))
			return m;
	}
	return err;
}
