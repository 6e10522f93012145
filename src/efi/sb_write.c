/* The keys to the firmware: db, dbx, KEK, then PK, whose write ends Setup
 * Mode (UEFI 2.10 §32.3.2), and a reset, so that nothing boots before the
 * firmware measures and enforces the new state (PCR 7, as systemd-boot). */
#include "sb_write.h"
#include "core/log.h"

EFI_STATUS sb_keys_write(EFI_RUNTIME_SERVICES *rt, const struct sb_key_file files[SB_N_KEYS], bool shutdown)
{
	for (size_t i = 0; i < SB_N_KEYS; i++) {
		const struct sb_key_var *v = &sb_key_vars[i];
		EFI_STATUS err;

		if (!files[i].data)
			continue;
		err = rt->SetVariable((CHAR16 *)v->name, &v->guid, SB_KEY_ATTRIBUTES, files[i].size, files[i].data);
		if (EFI_ERROR(err))
			return log_error_status(err, "%s: SetVariable: %m (still in Setup Mode)", files[i].path);
	}
	log_info("Secure Boot keys enrolled");
	rt->ResetSystem(shutdown ? EfiResetShutdown : EfiResetCold, EFI_SUCCESS, 0, NULL);
	return log_error_status(EFI_DEVICE_ERROR, "ResetSystem returned");
}
