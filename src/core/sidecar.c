/* Which companion files of a UKI go into which /.extra archive (sidecar.h),
 * the table of systemd-stub's generate_sidecar_initrds(): credentials
 * 0500/0400 and PCR 12, system extensions 0555/0444 and PCR 13 (*.raw, the
 * compatible spelling of *.sysext.raw), configuration extensions 0555/0444
 * and PCR 12. */
#include "sidecar.h"
#include "str16.h"
#include "tcg_event.h"

static const struct sidecar_spec specs[_SIDECAR_MAX] = {
	[SIDECAR_CREDENTIALS] = { NULL, ".cred", NULL, ".extra/credentials", 0500, 0400, TPM_PCR_KERNEL_CONFIG,
				  "Credentials initrd" },
	[SIDECAR_GLOBAL_CREDENTIALS] = { "\\loader\\credentials", ".cred", NULL, ".extra/global_credentials", 0500,
					 0400, TPM_PCR_KERNEL_CONFIG, "Global credentials initrd" },
	[SIDECAR_SYSEXT] = { NULL, ".raw", ".confext.raw", ".extra/sysext", 0555, 0444, SIDECAR_PCR_SYSEXTS,
			     "System extension initrd" },
	[SIDECAR_CONFEXT] = { NULL, ".confext.raw", NULL, ".extra/confext", 0555, 0444, TPM_PCR_KERNEL_CONFIG,
			      "Configuration extension initrd" },
};

const struct sidecar_spec *sidecar_spec(enum sidecar_kind kind)
{
	return (unsigned)kind < _SIDECAR_MAX ? &specs[kind] : NULL;
}

bool sidecar_takes(enum sidecar_kind kind, const char *name)
{
	const struct sidecar_spec *s = sidecar_spec(kind);
	size_t n = strlen(name);

	if (!s || n == 0 || n > 255 || name[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++)
		if ((uint8_t)name[i] >= 0x80)
			return false;
	return str8_has_suffix_ci(name, s->suffix) && !(s->exclude && str8_has_suffix_ci(name, s->exclude));
}
