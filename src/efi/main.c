/* handoff.efi: read the configuration, show the menu, boot the chosen entry;
 * on any failure say why and show the menu again. */
#include "loader.h"
#include "vars.h"
#include "core/fmt.h"

static void set_loader_info(const struct loader *l)
{
	char buf[128];

	loader_var_set_str(u"LoaderInfo", "handoff " HANDOFF_VERSION);
	fmt_snprintf(buf, sizeof(buf), "UEFI %u.%02u", ST->Hdr.Revision >> 16, ST->Hdr.Revision & 0xffff);
	loader_var_set_str(u"LoaderFirmwareType", buf);
	/* LoaderFeatures bits (systemd's Boot Loader Interface): config timeout, one-shot... none yet
	 * beyond "entry default" (bit 3) and "boot counting" absent; publish what handoff does. */
	uint64_t features = (1u << 0) | (1u << 1) | (1u << 3);
	loader_var_set_raw(u"LoaderFeatures", &features, sizeof(features));
	(void)l;
}

EFI_STATUS EFIAPI efi_main(EFI_HANDLE image, EFI_SYSTEM_TABLE *systab)
{
	struct loader l = { 0 };
	bool force_menu = false;
	EFI_STATUS err;

	efi_init(image, systab);
	loader_var_set_time(u"LoaderTimeInitUSec");
	BS->SetWatchdogTimer(0, 0x10000, 0, NULL); /* the menu may wait longer than 5 min */
	err = loader_load(&l, image);
	if (EFI_ERROR(err)) {
		con_wait_any_key();
		return err;
	}
	l.secure_boot = secure_boot_enabled();
	set_loader_info(&l);
	for (;;) {
		char *cmdline = NULL;
		size_t idx = menu_choose(&l, force_menu, &cmdline);

		if (idx == MENU_EXIT)
			return EFI_ABORTED;
		con_forget_problems();
		boot_entry(&l, l.entries[idx], cmdline);
		mem_free(cmdline);
		/* Back here only on failure: the reason is on screen; let it be read. */
		con_wait_any_key();
		force_menu = true;
	}
}
