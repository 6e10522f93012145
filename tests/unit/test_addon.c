/* UKI addons: addon_build() makes an image pe_parse() accepts, whose
 * sections addon_parse() reads back; what addon_parse() refuses (a UKI, no
 * .cmdline, another .uname, a line that is not one line of UTF-8); how
 * systemd-stub joins the lines (addon_join()). */
#include "test.h"
#include "core/addon.h"
#include "core/pe_write.h"
#include "core/uki.h"
#include <stdlib.h>

static struct pe_info pe;

static uint8_t *built(const char *cmdline, const char *uname, size_t *len)
{
	uint8_t *out = NULL;

	CHECK_EQ(addon_build(cmdline, NULL, uname, &out, len), EFI_SUCCESS);
	if (out)
		CHECK_EQ(pe_parse(out, *len, "addon", &pe), EFI_SUCCESS);
	return out;
}

TEST(addon_build_is_a_minimal_efi_application)
{
	size_t len = 0, n = 0;
	uint8_t *a = built("console=ttyS1 debug\n", NULL, &len);
	const struct pe_section *text;
	char *line = NULL;

	if (!a)
		return;
	CHECK_EQ(pe.machine, PE_MACHINE_X64);
	CHECK_EQ(pe.subsystem, PE_SUBSYSTEM_EFI_APPLICATION);
	CHECK_EQ(pe.n_sections, 3);
	CHECK_STR(pe.sections[0].name, ".text");
	CHECK_STR(pe.sections[1].name, ".sbat");
	CHECK_STR(pe.sections[2].name, ".cmdline");
	CHECK_EQ(pe.entry_point, 0x1000);
	text = pe_find_section(&pe, ".text");
	/* movabs rax, 0x8000000000000003 (EFI_UNSUPPORTED); ret */
	CHECK_MEM(a + text->raw_offset, "\x48\xb8\x03\0\0\0\0\0\0\x80\xc3", 11);
	CHECK_EQ(pe.sections[2].virtual_size, 19); /* the line feed dropped */
	CHECK_EQ(pe.checksum, pe_checksum(a, len, pe_opt_offset(&pe) + PE_OPT_CHECKSUM));
	CHECK(pe_section_data(&pe.sections[1], a, len, PE_LAYOUT_FILE, &n) != NULL);
	CHECK_EQ(n, strlen(UKI_SBAT_DEFAULT));
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, "6.1.0-1-amd64", "x.addon.efi", &line), EFI_SUCCESS);
	CHECK_STR(line, "console=ttyS1 debug");
	free(line);
	free(a);
}

TEST(addon_parse_uname_must_match)
{
	size_t len = 0;
	uint8_t *a = built("quiet", "6.1.0-1-amd64", &len);
	char *line = NULL;

	if (!a)
		return;
	CHECK_EQ(pe.n_sections, 4);
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, "6.1.0-1-amd64", "a.addon.efi", &line), EFI_SUCCESS);
	CHECK_STR(line, "quiet");
	free(line);
	line = NULL;
	/* a UKI without .uname takes it; one of another kernel does not */
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, NULL, "a.addon.efi", &line), EFI_SUCCESS);
	free(line);
	line = NULL;
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, "6.1.0-2-amd64", "a.addon.efi", &line), EFI_UNSUPPORTED);
	CHECK_LOG("a.addon.efi: its .uname \"6.1.0-1-amd64\" is not the UKI's \"6.1.0-2-amd64\", ignored");
	CHECK(line == NULL);
	free(a);
}

TEST(addon_parse_refusals)
{
	size_t len = 0;
	uint8_t *a = built("quiet", NULL, &len);
	char *line = NULL;

	if (!a)
		return;
	/* renamed sections: a UKI (.linux), then no .cmdline at all */
	memcpy(pe.sections[2].name, ".linux", 7);
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, NULL, "u.addon.efi", &line), EFI_UNSUPPORTED);
	CHECK_LOG("u.addon.efi: has a .linux section: a UKI, not an addon, ignored");
	memcpy(pe.sections[2].name, ".cmdlin", 8);
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, NULL, "n.addon.efi", &line), EFI_UNSUPPORTED);
	CHECK_LOG("n.addon.efi: no .cmdline section, ignored");
	free(a);
	/* what the stub would refuse is not built */
	CHECK_EQ(addon_build("a\nb", NULL, NULL, &a, &len), EFI_INVALID_PARAMETER);
	CHECK_EQ(addon_build("q\xc0\x80", NULL, NULL, &a, &len), EFI_INVALID_PARAMETER);
	CHECK_EQ(addon_build(" \n", NULL, NULL, &a, &len), EFI_INVALID_PARAMETER);
	CHECK(line == NULL);
}

TEST(addon_parse_refuses_a_bad_line)
{
	size_t len = 0;
	uint8_t *a = built("quiet x", NULL, &len);
	const struct pe_section *s;
	char *line = NULL;

	if (!a)
		return;
	s = pe_find_section(&pe, ".cmdline");
	a[s->raw_offset + 5] = '\n'; /* "quiet\nx": two lines */
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, NULL, "l.addon.efi", &line), EFI_INVALID_PARAMETER);
	CHECK(line == NULL);
	free(a);
}

/* A NUL ends the line, as systemd-stub reads it; blanks before it go too
 * (fuzz_addon: corpus crash-nul-in-cmdline). */
TEST(addon_parse_line_ends_at_nul)
{
	size_t len = 0;
	uint8_t *a = built("quiet debug", NULL, &len);
	const struct pe_section *s;
	char *line = NULL;

	if (!a)
		return;
	s = pe_find_section(&pe, ".cmdline");
	a[s->raw_offset + 6] = 0; /* "quiet \0ebug" */
	CHECK_EQ(addon_parse(&pe, a, len, PE_LAYOUT_FILE, NULL, "z.addon.efi", &line), EFI_SUCCESS);
	CHECK_STR(line, "quiet");
	free(line);
	free(a);
}

TEST(addon_join_as_systemd_stub)
{
	char *s;

	CHECK_STR(s = addon_join("root=/dev/vda", "console=ttyS1"), "root=/dev/vda console=ttyS1");
	free(s);
	CHECK_STR(s = addon_join("", "console=ttyS1"), "console=ttyS1");
	free(s);
	CHECK_STR(s = addon_join("quiet", ""), "quiet");
	free(s);
	CHECK_STR(s = addon_join("", ""), "");
	free(s);
}
