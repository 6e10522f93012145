/* Verification before any byte of an image runs (issue 13): by shim when
 * handoff was started by shim (SHIM_LOCK.Verify(), or on the stub scheme the
 * LoadImage shim hooks for its second stage), else by the firmware's
 * LoadImage from the buffer already read (UEFI 2.10 §7.4: db/dbx under Secure
 * Boot, and the image measured into PCR 4 by a TPM-aware firmware). The
 * stub scheme starts the loaded image; handover and legacy unload it and
 * boot the very same buffer, so what runs is what was verified.
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

static bool is_policy_refusal(EFI_STATUS err)
{
	return err == EFI_SECURITY_VIOLATION || err == EFI_ACCESS_DENIED;
}

/* LoadImage from the buffer, with the file's device path (also what the
 * firmware logs with the PCR 4 event). */
static EFI_STATUS load_from_buffer(const struct boot_job *job, EFI_HANDLE *ret_child)
{
	_cleanup_free_ EFI_DEVICE_PATH_PROTOCOL *own_dp =
		job->devpath ? NULL : devpath_for_file(job->device, job->kernel_path);
	const EFI_DEVICE_PATH_PROTOCOL *dp = job->devpath ? job->devpath : own_dp;
	EFI_HANDLE child = NULL;
	EFI_STATUS err;

	err = BS->LoadImage(FALSE, IH, (EFI_DEVICE_PATH_PROTOCOL *)dp, (void *)job->image, job->image_size, &child);
	/* §7.4: with EFI_SECURITY_VIOLATION the image was loaded and has a handle. */
	if (EFI_ERROR(err) && child)
		BS->UnloadImage(child);
	else if (!EFI_ERROR(err))
		*ret_child = child;
	return err;
}

static EFI_STATUS load_failed(const struct boot_job *job, EFI_STATUS err, uint64_t n_before)
{
	const struct trust_plan *t = &job->plan.trust;

	if (t->verify == VERIFY_FIRMWARE && is_policy_refusal(err))
		return refused_by_firmware(job, err, n_before);
	if (t->verify == VERIFY_SHIM && is_policy_refusal(err)) {
		/* shim's own verdict when it has not been asked yet (trust.h
		 * shim_verify_first): an unsigned kernel is "refused by shim". */
		EFI_STATUS shim_err = t->shim_verify_first ? EFI_SUCCESS : verify_by_shim(job);

		if (EFI_ERROR(shim_err))
			return shim_err;
		return log_error_status(err,
					"%s: shim accepted it, but the firmware's LoadImage refused it (%s): boot it "
					"by protocol handover or legacy",
					job->kernel_path, trust_status_meaning(err));
	}
	if (!t->load_image_must_pass) {
		log_status(LOG_WARNING, err, "%s: LoadImage failed (%m): the image is not measured into PCR 4",
			   job->kernel_path);
		return EFI_SUCCESS;
	}
	if (is_policy_refusal(err)) {
		/* Preverified (inside a signed image): the caller may boot the same bytes another way. */
		log_status(LOG_INFO, err, "%s: the firmware does not trust it on its own (%m)", job->kernel_path);
		return err;
	}
	return log_error_status(err, "%s: LoadImage failed: %m", job->kernel_path);
}

EFI_STATUS image_verify(const struct boot_job *job, EFI_HANDLE *ret_child)
{
	const struct trust_plan *t = &job->plan.trust;
	uint64_t n_before = exec_info_count();
	EFI_HANDLE child = NULL;
	EFI_STATUS err;

	*ret_child = NULL;
	if (t->shim_verify_first) {
		err = verify_by_shim(job);
		if (EFI_ERROR(err))
			return err;
	}
	if (!t->load_image)
		return EFI_SUCCESS;
	err = load_from_buffer(job, &child);
	if (EFI_ERROR(err))
		return load_failed(job, err, n_before);
	if (job->plan.scheme == SCHEME_STUB)
		*ret_child = child;
	else
		BS->UnloadImage(child); /* verified and measured: boot job->image itself */
	return EFI_SUCCESS;
}
