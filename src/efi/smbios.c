/* What the VM's host says in SMBIOS OEM strings (type 11), as systemd-boot
 * and systemd-stub read it (man systemd-boot, systemd-stub "SMBIOS Type 11
 * Strings"): the structure table of the SMBIOS 3 entry point, else of the
 * 2.1 one (UEFI 2.10 §4.6.1), walked by src/core/smbios.c; nothing in a
 * confidential VM (in_confidential_vm(), cpu_*.c), whose host is not
 * trusted. */
#include "boot.h"
#include "cpu.h"
#include "core/smbios.h"

#define SMBIOS_EP_MAX 0xff /* its length is a byte */

static const char *oem_string(const char *prefix, size_t *ret_len)
{
	static const EFI_GUID guids[2] = { SMBIOS3_TABLE_GUID, SMBIOS_TABLE_GUID };
	uint64_t addr;
	uint32_t size;

	for (size_t i = 0; i < ARRAY_SIZE(guids); i++)
		if (smbios_entry_point(efi_config_table(&guids[i]), SMBIOS_EP_MAX, i == 0, &addr, &size))
			return smbios_oem_string((const uint8_t *)(uintptr_t)addr, size, prefix, ret_len);
	return NULL;
}

char *smbios_cmdline(const char *prefix)
{
	size_t len;
	const char *v = oem_string(prefix, &len);

	if (!v)
		return NULL;
	if (in_confidential_vm()) {
		log_warning("SMBIOS %s: ignored in a confidential VM", prefix);
		return NULL;
	}
	return smbios_cmdline_extra(v, len, prefix);
}
