/* handoff.efi: read the configuration, show the menu, boot the chosen entry;
 * on any failure (after loader.conf's retries, boot_retry.c) show the menu
 * again at once, the reason under it and no countdown: an unattended machine
 * never waits for a key to get there. */
#include "loader.h"
#include "loader_vars.h"

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct loader l = { 0 };
	struct sb_vars sb;
	EFI_STATUS err;

	efi_init(image, systab);
	loader_var_set_time(u"LoaderTimeInitUSec");
	BS->SetWatchdogTimer(0, WATCHDOG_CODE, 0, NULL); /* the menu may wait longer than 5 min */
	err = loader_load(&l, image);
	if (EFI_ERROR(err)) {
		con_pause_before_exit();
		return err;
	}
	secure_boot_read(&sb);
	l.secure_boot = sb_enforced(&sb);
	l.sb_mode = sb_mode(&sb);
	l.editor = cfg_editor_allowed(&l.cfg, l.secure_boot);
	sb_enroll_offer(&l, &sb);
	loader_info_publish(&l, image);
	for (;;) {
		char *cmdline = NULL;
		size_t idx = menu_choose(&l, &cmdline);

		if (idx == MENU_EXIT)
			return EFI_ABORTED;
		boot_try(&l, idx, cmdline);
		mem_free(cmdline);
		/* Back here only on failure: the menu shows the reason (con_problems). */
		l.force_menu = true;
	}
}
