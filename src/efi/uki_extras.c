/* What systemd-stub hands the booted system besides the kernel, so that the
 * system's tools work the same after handoff's stub (systemd's
 * src/boot/efi/stub.c, docs/design.md "Signed PCR policies"):
 * - Boot Loader Interface variables: StubInfo; StubPcrKernelImage once the
 *   sections are in PCR 11 (systemd-pcrphase extends the boot phases only when
 *   it is set), StubPcrKernelParameters when PCR 12 gets a command line or
 *   credentials, StubPcrInitRDSysExts and StubPcrInitRDConfExts when the
 *   extension archives are measured (src/efi/uki_sidecars.c); the
 *   image's origin where no loader set it (bli_publish_origin());
 * - .pcrsig and .pcrpkey as /.extra/tpm2-pcr-signature.json and
 *   /.extra/tpm2-pcr-public-key.pem, each in a cpio archive after the initrds
 *   (systemd-cryptsetup looks there). Neither is measured again: .pcrpkey is
 *   in PCR 11 already, .pcrsig signs PCR values so cannot be part of them. */
#include "uki_run.h"
#include "core/cpio.h"
#include "core/fmt.h"
#include "core/tcg_event.h"
#include "loader_vars.h"

static void set_uint_var(const CHAR16 *name, uint32_t v)
{
	char s[12];

	fmt_snprintf(s, sizeof(s), "%u", v); /* systemd's efivar_set_uint_string(): decimal UCS-2 with NUL */
	loader_var_set_str(name, s);
}

void stub_export_variables(const EFI_LOADED_IMAGE_PROTOCOL *li, bool pcr11, bool pcr12, const struct stub_extras *x,
			   uint32_t profile)
{
	bli_publish_origin(li, /* keep= */ true);
	loader_var_set_str(u"StubInfo", "handoff-stub " HANDOFF_VERSION);
	if (pcr11)
		set_uint_var(u"StubPcrKernelImage", TPM_PCR_KERNEL_BOOT);
	if (pcr12)
		set_uint_var(u"StubPcrKernelParameters", TPM_PCR_KERNEL_CONFIG);
	if (pcr11 && x->buf[SIDECAR_SYSEXT])
		set_uint_var(u"StubPcrInitRDSysExts", SIDECAR_PCR_SYSEXTS);
	if (pcr11 && x->buf[SIDECAR_CONFEXT])
		set_uint_var(u"StubPcrInitRDConfExts", TPM_PCR_KERNEL_CONFIG);
	set_uint_var(u"StubProfile", profile);
}

static const struct {
	enum uki_section id;
	const char *name;
} extra_files[STUB_N_EXTRAS] = {
	{ UKI_PCRSIG, "tpm2-pcr-signature.json" },
	{ UKI_PCRPKEY, "tpm2-pcr-public-key.pem" },
};

EFI_STATUS stub_add_extras(struct initrd_set *set, const struct stub_sections *s, struct stub_extras *x)
{
	for (size_t i = 0; i < STUB_N_EXTRAS; i++) {
		const struct uki_blob *b = &s->uki.s[extra_files[i].id];
		EFI_STATUS err;

		if (!b->data || b->size == 0)
			continue;
		uint8_t **buf = &x->buf[_SIDECAR_MAX + i];
		size_t *size = &x->size[_SIDECAR_MAX + i];

		err = cpio_one_file(".extra", extra_files[i].name, b->data, b->size, CPIO_DIR_MODE, CPIO_FILE_MODE, buf,
				    size);
		if (!EFI_ERROR(err))
			err = initrd_set_add_data(set, extra_files[i].name, *buf, *size);
		if (EFI_ERROR(err))
			return err;
	}
	return EFI_SUCCESS;
}

void stub_extras_free(struct stub_extras *x)
{
	for (size_t i = 0; i < ARRAY_SIZE(x->buf); i++)
		mem_free(x->buf[i]);
	*x = (struct stub_extras){ 0 };
}
