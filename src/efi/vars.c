/* EFI variables: Secure Boot state, OsIndications (reboot into the firmware
 * setup), and systemd's Boot Loader Interface
 * (vendor GUID 4a67b082-0a4c-41cf-b6c7-440b29bb8c4f) so that `bootctl status`
 * and `systemd-analyze` work on a system booted by handoff. */
#include "loader_vars.h"
#include "cpu.h"
#include "core/fmt.h"
#include <efi/proto/shim_lock.h>
#include <efi/vars.h>

#define VAR_VOLATILE (EFI_VARIABLE_BOOTSERVICE_ACCESS | EFI_VARIABLE_RUNTIME_ACCESS)

static EFI_GUID global_guid = EFI_GLOBAL_VARIABLE_GUID;
static EFI_GUID loader_guid = LOADER_GUID;
static EFI_GUID shim_guid = SHIM_LOCK_GUID; /* shim's variables' vendor GUID */

static EFI_STATUS get_u8(const CHAR16 *name, EFI_GUID *guid, uint32_t *attr, uint8_t *v)
{
	UINTN size = sizeof(*v);

	return RT->GetVariable((CHAR16 *)name, guid, attr, &size, v);
}

/* UEFI 2.10 §32.3: images are verified when SecureBoot is 1, which the
 * firmware only reports in user mode; SetupMode is read too. What they mean
 * is decided in src/core/trust.c (sb_enforced(), sb_mode()). */
void secure_boot_read(struct sb_vars *ret)
{
	struct sb_vars v = { 0 };

	v.secure_boot_status = get_u8(u"SecureBoot", &global_guid, NULL, &v.secure_boot);
	get_u8(u"SetupMode", &global_guid, NULL, &v.setup_mode);
	v.moksb_status = get_u8(u"MokSBStateRT", &shim_guid, &v.moksb_attributes, &v.moksb);
	*ret = v;
}

/* Boot Loader Interface strings are UCS-2 with the terminating NUL. */
void loader_var_set_str_attr(const CHAR16 *name, const char *value, uint32_t attributes)
{
	_cleanup_free_ CHAR16 *v = str8_to_16(value, /* path= */ false);

	if (v)
		RT->SetVariable((CHAR16 *)name, &loader_guid, attributes, (strlen16(v) + 1) * sizeof(CHAR16), v);
}

void loader_var_set_str(const CHAR16 *name, const char *value)
{
	loader_var_set_str_attr(name, value, VAR_VOLATILE);
}

bool firmware_ui_supported(void)
{
	uint64_t v = 0;
	UINTN size = sizeof(v);

	return RT->GetVariable(u"OsIndicationsSupported", &global_guid, NULL, &size, &v) == EFI_SUCCESS &&
	       size == sizeof(v) && (v & EFI_OS_INDICATIONS_BOOT_TO_FW_UI);
}

/* UEFI 2.10 §8.5.4: OsIndications asks the firmware to stop in its setup
 * at the next boot; then a cold reset (§8.5.1). Returns only on failure. */
EFI_STATUS reboot_into_firmware(void)
{
	uint64_t v = 0;
	UINTN size = sizeof(v);
	EFI_STATUS err;

	if (RT->GetVariable(u"OsIndications", &global_guid, NULL, &size, &v) != EFI_SUCCESS || size != sizeof(v))
		v = 0;
	v |= EFI_OS_INDICATIONS_BOOT_TO_FW_UI;
	err = RT->SetVariable(u"OsIndications", &global_guid, VAR_NON_VOLATILE, sizeof(v), &v);
	if (EFI_ERROR(err))
		return log_error_status(err, "OsIndications: cannot set: %m");
	RT->ResetSystem(EfiResetCold, EFI_SUCCESS, 0, NULL);
	return log_error_status(EFI_DEVICE_ERROR, "ResetSystem returned");
}

void loader_var_set_raw(const CHAR16 *name, const void *data, size_t size)
{
	RT->SetVariable((CHAR16 *)name, &loader_guid, VAR_VOLATILE, size, (void *)data);
}

EFI_STATUS loader_var_get_raw(const CHAR16 *name, void *buf, size_t *size)
{
	UINTN n = *size;
	EFI_STATUS err = RT->GetVariable((CHAR16 *)name, &loader_guid, NULL, &n, buf);

	*size = n;
	return err;
}

bool loader_var_exists(const CHAR16 *name)
{
	UINTN size = 0;

	return RT->GetVariable((CHAR16 *)name, &loader_guid, NULL, &size, NULL) == EFI_BUFFER_TOO_SMALL;
}

#define LOADER_VAR_MAX 512 /* bytes: entry ids and timeouts are short */

char *loader_var_get_str(const CHAR16 *name)
{
	CHAR16 buf[LOADER_VAR_MAX / sizeof(CHAR16) + 1];
	UINTN size = LOADER_VAR_MAX;
	EFI_STATUS err = RT->GetVariable((CHAR16 *)name, &loader_guid, NULL, &size, buf);

	if (err == EFI_NOT_FOUND)
		return NULL;
	if (EFI_ERROR(err) || size % sizeof(CHAR16)) {
		_cleanup_free_ char *var = str16_to_8(name, 64);
		log_warning("%s: %s, ignored", var ? var : "variable",
			    EFI_ERROR(err) ? efi_status_str(err) : "not a UCS-2 string");
		return NULL;
	}
	buf[size / sizeof(CHAR16)] = 0; /* the NUL is optional (systemd writes it, others may not) */
	return str16_to_8(buf, size / sizeof(CHAR16));
}

/* §8.2 SetVariable: no attributes and no data delete the variable. */
void loader_var_delete(const CHAR16 *name)
{
	RT->SetVariable((CHAR16 *)name, &loader_guid, 0, 0, NULL);
}

/* Counter ticks per microsecond, measured once against Stall(); 0 if unusable. */
static uint64_t counter_per_us(void)
{
	static uint64_t rate;

	if (!rate) {
		uint64_t t0 = cpu_counter();
		BS->Stall(1000);
		rate = (cpu_counter() - t0) / 1000;
	}
	return rate;
}

void loader_var_set_time(const CHAR16 *name)
{
	uint64_t rate = counter_per_us();
	char buf[32];

	if (!rate)
		return;
	fmt_snprintf(buf, sizeof(buf), "%llu", (unsigned long long)(cpu_counter() / rate));
	loader_var_set_str(name, buf);
}
