/* The stub's own sections, found through its loaded image: the headers are
 * mapped at ImageBase, each section at ImageBase + VirtualAddress. The
 * section table is checked against ImageSize before any section is used. */
#include "stub.h"
#include "core/pe.h"

static bool find(const struct pe_info *pe, const EFI_LOADED_IMAGE_PROTOCOL *li, const char *name, struct blob *ret)
{
	const struct pe_section *s = pe_find_section(pe, name);

	if (!s)
		return false;
	ret->data = pe_section_data(s, li->ImageBase, li->ImageSize, PE_LAYOUT_MEMORY, &ret->size);
	return ret->data != NULL;
}

EFI_STATUS stub_find_sections(const EFI_LOADED_IMAGE_PROTOCOL *li, struct stub_sections *ret)
{
	static struct pe_info pe; /* large: keep it off the firmware's stack */
	struct stub_sections s = { 0 };
	EFI_STATUS err;

	err = pe_parse_loaded(li->ImageBase, li->ImageSize, "stub", &pe);
	if (EFI_ERROR(err))
		return log_error_status(err, "stub: cannot read its own PE headers");
	if (find(&pe, li, SECTION_BZIMAGE, &s.linux))
		s.wrapped = true;
	else if (!find(&pe, li, SECTION_LINUX, &s.linux))
		return log_error_status(EFI_NOT_FOUND, "stub: no %s section: not a unified kernel image", SECTION_LINUX);
	find(&pe, li, SECTION_INITRD, &s.initrd);
	s.has_cmdline = find(&pe, li, SECTION_CMDLINE, &s.cmdline);
	*ret = s;
	return EFI_SUCCESS;
}
