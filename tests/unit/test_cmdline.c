/* initrd= extraction and .cmdline section handling. */
#include "test.h"
#include "core/array.h"
#include "core/cmdline.h"
#include "core/fwquirk.h"

static void check_paths(const char *cmdline, const char *const *want, size_t n_want)
{
	char **v = NULL;
	size_t n = 99;

	CHECK_EQ(cmdline_initrd_paths(cmdline, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, n_want);
	for (size_t i = 0; i < n && i < n_want; i++)
		CHECK_STR(v[i], want[i]);
	strv_free(v, n);
}

TEST(cmdline_initrd_values_in_order)
{
	static const char *const two[] = { "\\EFI\\a.img", "/b/c.cpio" };
	static const char *const quoted[] = { "/with space/x.img" };
	static const char *const none[] = { NULL };

	check_paths("root=/dev/vda initrd=\\EFI\\a.img quiet initrd=/b/c.cpio", two, 2);
	check_paths("  initrd=\"/with space/x.img\"  ", quoted, 1);
	check_paths("\"initrd=/with space/x.img\"", quoted, 1);
	check_paths("noinitrd=1 initrdx=/a myinitrd=/b initrd=", none, 0);
	check_paths("", none, 0);
	check_paths("\t\n", none, 0);
}

TEST(cmdline_from_section_trims)
{
	static const uint8_t a[] = "console=ttyS0 quiet\n\n";
	static const uint8_t b[] = { 'a', ' ', 'b', 0, 'x', 'y' };
	char *s;

	s = cmdline_from_section(a, sizeof(a) - 1);
	CHECK_STR(s, "console=ttyS0 quiet");
	mem_free(s);
	s = cmdline_from_section(b, sizeof(b));
	CHECK_STR(s, "a b");
	mem_free(s);
	s = cmdline_from_section(a, 0);
	CHECK_STR(s, "");
	mem_free(s);
}

TEST(cmdline_for_stub_secure_boot_keeps_the_section)
{
	static const uint8_t opts[] = { 'r', 0, 'o', 0, 0, 0 };        /* u"ro" */
	static const uint8_t section[] = "root=/dev/sda quiet\n";
	char *s;

	s = cmdline_for_stub(opts, sizeof(opts), section, sizeof(section) - 1, false);
	CHECK_STR(s, "ro");                                   /* options win without Secure Boot */
	mem_free(s);
	s = cmdline_for_stub(opts, sizeof(opts), section, sizeof(section) - 1, true);
	CHECK_STR(s, "root=/dev/sda quiet");                  /* the signed section wins with it */
	mem_free(s);
	s = cmdline_for_stub(opts, sizeof(opts), NULL, 0, true);
	CHECK_STR(s, "ro");                                   /* nothing embedded: options are all there is */
	mem_free(s);
	s = cmdline_for_stub(NULL, 0, NULL, 0, false);
	CHECK_STR(s, "");
	mem_free(s);
}

/* The line the stub measures into PCR 12 is the one it took from LoadOptions. */
TEST(cmdline_stub_takes_load_options_exactly_when_it_uses_them)
{
	static const uint8_t opts[] = { 'r', 0, 'o', 0, 0, 0 }, empty[] = { 0, 0, 'x', 0 };

	CHECK(cmdline_stub_takes_load_options(opts, sizeof(opts), false, false));
	CHECK(cmdline_stub_takes_load_options(opts, sizeof(opts), false, true));
	CHECK(cmdline_stub_takes_load_options(opts, sizeof(opts), true, false));
	CHECK(!cmdline_stub_takes_load_options(opts, sizeof(opts), true, true)); /* sealed .cmdline */
	CHECK(!cmdline_stub_takes_load_options(empty, sizeof(empty), false, false)); /* starts with NUL */
	CHECK(!cmdline_stub_takes_load_options(opts, 1, false, false));        /* less than one CHAR16 */
	CHECK(!cmdline_stub_takes_load_options(NULL, 0, false, false));
}

TEST(cmdline_for_stub_odd_unterminated_unaligned_options)
{
	static const uint8_t raw[] = {0xff, 'a', 0, 0xe9, 0, 'b', 0, 'c'}; /* from byte 1: u"a\u00e9b" + half a unit */
	char *s = cmdline_for_stub(raw + 1, sizeof(raw) - 1, NULL, 0, false);

	CHECK_STR(s, "a\xc3\xa9" "b");
	mem_free(s);
	s = cmdline_for_stub(raw + 1, 1, NULL, 0, false);     /* less than one CHAR16: no options */
	CHECK_STR(s, "");
	mem_free(s);
}

/* --- the chokepoint: one line, two forms (issue 21) ----------------------- */

TEST(cmdline_forms_are_the_same_line_twice)
{
	/* "a é €😀": what cmd_line_ptr gets, and the UTF-16LE with NUL that
	 * LoadOptions carry and PCR 9 and 12 measure */
	static const char line[] = "a \xc3\xa9 \xe2\x82\xac\xf0\x9f\x98\x80";
	static const uint8_t utf16[] = { 'a', 0, ' ', 0, 0xe9, 0, ' ', 0, 0xac, 0x20, 0x3d, 0xd8, 0x00, 0xde, 0, 0 };
	struct cmdline_forms f;

	CHECK_EQ(cmdline_forms_make(line, &f), EFI_SUCCESS);
	CHECK(f.utf8 == line);
	CHECK_EQ(f.utf8_len, sizeof(line) - 1);
	CHECK_EQ(f.utf16_size, sizeof(utf16));
	CHECK_MEM(f.utf16, utf16, sizeof(utf16));
	cmdline_forms_free(&f);
	CHECK(f.utf16 == NULL);

	CHECK_EQ(cmdline_forms_make("", &f), EFI_SUCCESS);
	CHECK_EQ(f.utf8_len, 0);
	CHECK_EQ(f.utf16_size, 2);
	CHECK_MEM(f.utf16, "\0\0", 2);
	cmdline_forms_free(&f);
}

TEST(cmdline_forms_refuse_what_the_kernel_would_read_otherwise)
{
	static const struct {
		const char *line, *log;
	} refused[] = {
		{ "quiet\xc0\x80 init=/bin/evil", "command line: invalid UTF-8 at byte offset 5 (0xc0)" },
		{ "root=/dev/vda \xed\xa0\x80", "command line: invalid UTF-8 at byte offset 14 (0xed)" },
		{ "x\xe2\x82", "command line: invalid UTF-8 at byte offset 1 (0xe2)" },
		{ "\x80", "command line: invalid UTF-8 at byte offset 0 (0x80)" },
		/* Linux's EFI stub ends LoadOptions at a line feed; its parser reads on */
		{ "quiet\ninit=/bin/evil", "command line: line feed at byte offset 5" },
	};

	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		struct cmdline_forms f;

		test_log_reset();
		CHECK_EQ(cmdline_forms_make(refused[i].line, &f), EFI_INVALID_PARAMETER);
		CHECK(f.utf16 == NULL);
		CHECK_EQ(f.utf16_size, 0);
		CHECK_LOG(refused[i].log);
		cmdline_forms_free(&f);
	}
}

TEST(cmdline_check_names_what_it_checks)
{
	static const char good[] = "console=ttyS0 \xc3\xa9";

	CHECK_EQ(cmdline_check(good, sizeof(good) - 1, ".cmdline"), EFI_SUCCESS);
	CHECK_EQ(test_log_count(), 0);
	CHECK_EQ(cmdline_check("a\xc0\x80", 3, ".cmdline"), EFI_INVALID_PARAMETER);
	CHECK_LOG(".cmdline: invalid UTF-8 at byte offset 1 (0xc0)");
	CHECK_EQ(cmdline_check("a\xc0\x80", 1, "--cmdline"), EFI_SUCCESS); /* only @n bytes count */
}

/* The stub reads LoadOptions as Linux's stub does (ends at NUL or line feed,
 * surrogate pairs combined, a lone half as U+FFFD), so the line it takes
 * always passes the chokepoint; an ill-formed .cmdline is taken as it is and
 * refused there (so a UKI's signed line is never silently altered). */
TEST(cmdline_for_stub_load_options_become_well_formed)
{
	static const uint8_t opts[] = { 'a', 0, 0x3d, 0xd8, 0x00, 0xde, 0x00, 0xdc, '\n', 0, 'b', 0, 0, 0 };
	static const uint8_t section[] = "q\xc0\x80 init=/bin/evil\n";
	struct cmdline_forms f;
	char *s;

	s = cmdline_for_stub(opts, sizeof(opts), NULL, 0, false);
	CHECK_STR(s, "a\xf0\x9f\x98\x80\xef\xbf\xbd");
	CHECK_EQ(cmdline_forms_make(s, &f), EFI_SUCCESS);
	cmdline_forms_free(&f);
	mem_free(s);
	s = cmdline_for_stub(opts, sizeof(opts), section, sizeof(section) - 1, true);
	CHECK_STR(s, "q\xc0\x80 init=/bin/evil");
	CHECK_EQ(cmdline_forms_make(s, &f), EFI_INVALID_PARAMETER);
	CHECK_LOG("command line: invalid UTF-8 at byte offset 1 (0xc0)");
	cmdline_forms_free(&f);
	mem_free(s);
}

/* Which of the options handoff advises on U-Boot Linux takes from a line, by
 * the kernel's own rules (kernel/params.c, drivers/firmware/efi/efi.c). */
TEST(cmdline_kernel_flags_as_the_kernel_parses)
{
	const unsigned both = CMDLINE_DISABLE_MTRR_TRIM | CMDLINE_EFI_NORUNTIME;

	CHECK_EQ(cmdline_kernel_flags(""), 0);
	CHECK_EQ(cmdline_kernel_flags("console=ttyS0 quiet"), 0);
	CHECK_EQ(cmdline_kernel_flags("console=ttyS0 disable_mtrr_trim efi=noruntime"), both);
	CHECK_EQ(cmdline_kernel_flags("disable-mtrr-trim"), CMDLINE_DISABLE_MTRR_TRIM);  /* parameq(): - is _ */
	CHECK_EQ(cmdline_kernel_flags("\tdisable_mtrr_trim=1\n"), CMDLINE_DISABLE_MTRR_TRIM);
	CHECK_EQ(cmdline_kernel_flags("noefi"), CMDLINE_EFI_NORUNTIME);
	CHECK_EQ(cmdline_kernel_flags("efi=debug,noruntime"), CMDLINE_EFI_NORUNTIME);
	CHECK_EQ(cmdline_kernel_flags("\"efi=noruntime\""), CMDLINE_EFI_NORUNTIME);     /* quotes do not count */
	CHECK_EQ(cmdline_kernel_flags("efi=noruntime efi=runtime"), 0);                 /* a later efi= undoes it */
	CHECK_EQ(cmdline_kernel_flags("efi=noruntime,runtime"), 0);                     /* "runtime" is checked last */
	CHECK_EQ(cmdline_kernel_flags("efi=runtime efi=noruntime"), CMDLINE_EFI_NORUNTIME);
	/* not these: other names, words inside a list item, no "=", and anything after "--" (init's) */
	CHECK_EQ(cmdline_kernel_flags("disable_mtrr_trimx xdisable_mtrr_trim efi=noruntimex efi=xnoruntime"), 0);
	CHECK_EQ(cmdline_kernel_flags("efi noefix myefi=noruntime"), 0);
	CHECK_EQ(cmdline_kernel_flags("quiet -- disable_mtrr_trim efi=noruntime"), 0);
	CHECK_EQ(cmdline_kernel_flags("disable_mtrr_trim --x efi=noruntime"), both);
	/* an option longer than any looked for matches none, and the next still counts */
	CHECK_EQ(cmdline_kernel_flags("efi=noruntime,aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
				       " disable_mtrr_trim"),
		 CMDLINE_DISABLE_MTRR_TRIM);
}

TEST(fwquirk_missing_options_on_x64_uboot_only)
{
	const unsigned both = CMDLINE_DISABLE_MTRR_TRIM | CMDLINE_EFI_NORUNTIME;

	CHECK_EQ(fwquirk_missing_options(FW_X64, u"Das U-Boot", "console=ttyS0"), both);
	CHECK_EQ(fwquirk_missing_options(FW_X64, u"Das U-Boot", "efi=noruntime"), CMDLINE_DISABLE_MTRR_TRIM);
	CHECK_EQ(fwquirk_missing_options(FW_X64, u"Das U-Boot", "noefi disable_mtrr_trim"), 0);
	CHECK_EQ(fwquirk_missing_options(FW_X64, u"EDK II", "console=ttyS0"), 0);
	CHECK_EQ(fwquirk_missing_options(FW_X64, u"Das U-Bo", "console=ttyS0"), 0);
	CHECK_EQ(fwquirk_missing_options(FW_X64, u"", ""), 0);
	CHECK_EQ(fwquirk_missing_options(FW_X64, NULL, ""), 0);
	CHECK_EQ(fwquirk_missing_options(FW_IA32, u"Das U-Boot", "console=ttyS0"), 0); /* not on 32-bit U-Boot */
}
