/* The stub's own payload, found through its loaded image (headers at
 * ImageBase, sections at their RVAs; or a UKI file read by the loader, the
 * sections at their file offsets): UKI sections (UAPI.5), or the kernel of
 * a `handoff wrap` image, whose bzImage is the mapped headers followed by the
 * .bzimage section (src/core/wrap.h): two pieces, put together by main.c. */
#include "uki_run.h"
#include "core/uki.h"
#include "core/wrap.h"
#include "core/fmt.h"
#include "core/tcg_event.h"
#include "measure.h"

static EFI_STATUS find_wrapped(const struct pe_info *pe, const EFI_LOADED_IMAGE_PROTOCOL *li, enum pe_layout layout,
			       struct stub_sections *s)
{
	struct wrap_view v;
	EFI_STATUS err;

	err = wrap_find(pe, li->ImageBase, li->ImageSize, layout, "stub", &v);
	if (EFI_ERROR(err))
		return err;
	/* put together once, in the kernel's final pages (src/stub/main.c) */
	s->head = (struct blob){ v.head, v.head_size };
	s->body = (struct blob){ v.body, v.body_size };
	s->wrapped = true;
	return EFI_SUCCESS;
}

static struct blob blob_of(const struct uki_blob *b)
{
	return (struct blob){ b->data, b->size };
}

EFI_STATUS stub_find_sections(const EFI_LOADED_IMAGE_PROTOCOL *li, enum pe_layout layout, uint32_t profile,
			       struct stub_sections *ret)
{
	static struct pe_info pe; /* large: keep it off the firmware's stack */
	struct uki_sections u;
	struct stub_sections s = { 0 };
	EFI_STATUS err;

	err = layout == PE_LAYOUT_MEMORY ? pe_parse_loaded(li->ImageBase, li->ImageSize, "stub", &pe)
					 : pe_parse(li->ImageBase, li->ImageSize, "stub", &pe);
	if (EFI_ERROR(err))
		return log_error_status(err, "stub: cannot read its own PE headers");
	if (pe_find_section(&pe, WRAP_SECTION)) {
		err = find_wrapped(&pe, li, layout, &s);
	} else {
		err = uki_parse_profile(&pe, li->ImageBase, li->ImageSize, layout, "stub", profile, &u);
		if (err == EFI_NOT_FOUND)
			return log_error_status(err, "stub: no .linux section: not a unified kernel image");
		if (!EFI_ERROR(err))
			err = uki_check_handled(&pe, "stub", /* at_boot= */ true);
		s.linux = blob_of(&u.s[UKI_LINUX]);
		s.initrd = blob_of(&u.s[UKI_INITRD]);
		s.ucode = blob_of(&u.s[UKI_UCODE]);
		s.cmdline = blob_of(&u.s[UKI_CMDLINE]);
		s.has_cmdline = s.cmdline.data != NULL;
		s.uki = u;
	}
	if (EFI_ERROR(err))
		return err;
	*ret = s;
	return EFI_SUCCESS;
}

static EFI_STATUS measure_pcr11(void *ctx, const char *desc, const void *data, size_t size)
{
	return tpm_measure_ipl_ascii(TPM_PCR_KERNEL_BOOT, desc, data, size);
}

EFI_STATUS stub_measure_sections(const struct stub_sections *s, uint32_t profile)
{
	EFI_STATUS err = uki_measure_sections(&s->uki, measure_pcr11, /* ctx= */ NULL);
	CHAR16 num[12];
	char text[12];
	size_t n;

	if (EFI_ERROR(err) || profile == 0)
		return err;
	/* systemd-stub: a profile but 0 into PCR 12, its number in UTF-16 with its NUL */
	n = fmt_snprintf(text, sizeof(text), "%u", profile);
	for (size_t i = 0; i <= n; i++)
		num[i] = (CHAR16)text[i];
	return tpm_measure_tagged(TPM_PCR_KERNEL_CONFIG, UKI_PROFILE_EVENT_TAG, text, num, (n + 1) * sizeof(CHAR16));
}
