/* os-release parsing (os-release(5) quoting rules, malformed lines) and the
 * default os-release written from a kernel version string. */
#include "test.h"
#include "core/osrel.h"
#include <stdlib.h>

static const char debian[] =
	"PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\n"
	"NAME=\"Debian GNU/Linux\"\n"
	"VERSION_ID=\"12\"\n"
	"VERSION=\"12 (bookworm)\"\n"
	"VERSION_CODENAME=bookworm\n"
	"ID=debian\n"
	"HOME_URL=\"https://www.debian.org/\"\n";

TEST(osrel_debian)
{
	struct osrel o;

	CHECK_EQ(osrel_parse(debian, strlen(debian), "os-release", &o), EFI_SUCCESS);
	CHECK_STR(o.pretty_name, "Debian GNU/Linux 12 (bookworm)");
	CHECK_STR(o.name, "Debian GNU/Linux");
	CHECK_STR(o.version_id, "12");
	CHECK_STR(o.version, "12 (bookworm)");
	CHECK_STR(o.id, "debian");
	CHECK(o.image_id == NULL);
	CHECK(o.build_id == NULL);
	CHECK_EQ(o.n_bad_lines, 0);
	CHECK_EQ(test_log_count(), 0);
	osrel_free(&o);
	CHECK(o.pretty_name == NULL);
}

TEST(osrel_quoting)
{
	static const char text[] =
		"PRETTY_NAME=\"a \\\"quoted\\\" \\$HOME \\`x\\` back\\\\slash \\n kept\"\n"
		"NAME='single \\ \"as is\"'\n"
		"ID=un\\ quoted\n"
		"VERSION_ID=1.\"2\"'.3'\n"
		"IMAGE_ID=\"\"\n"
		"BUILD_ID=trail   \t\n"
		"IMAGE_VERSION=crlf\r\n";
	struct osrel o;

	CHECK_EQ(osrel_parse(text, strlen(text), "q", &o), EFI_SUCCESS);
	CHECK_STR(o.pretty_name, "a \"quoted\" $HOME `x` back\\slash \\n kept");
	CHECK_STR(o.name, "single \\ \"as is\"");
	CHECK_STR(o.id, "un quoted");
	CHECK_STR(o.version_id, "1.2.3");
	CHECK_STR(o.image_id, "");
	CHECK_STR(o.build_id, "trail");
	CHECK_STR(o.image_version, "crlf");
	CHECK_EQ(o.n_bad_lines, 0);
	osrel_free(&o);
}

TEST(osrel_comments_blanks_and_overrides)
{
	static const char text[] = "# comment\n\n   \n  ID=first\n\t# indented comment\nID=second\nUNKNOWN=x\nNAME=n";
	struct osrel o;

	CHECK_EQ(osrel_parse(text, strlen(text), "c", &o), EFI_SUCCESS);
	CHECK_STR(o.id, "second");
	CHECK_STR(o.name, "n"); /* no newline at the end */
	CHECK_EQ(o.n_bad_lines, 0);
	osrel_free(&o);
}

TEST(osrel_malformed_lines_are_reported_and_skipped)
{
	static const char text[] =
		"ID=ok\n"                     /* 1 */
		"just words\n"                /* 2 */
		"1ABC=x\n"                    /* 3 */
		"NAME =x\n"                   /* 4 */
		"NAME=\"unterminated\n"       /* 5 */
		"NAME='unterminated\n"        /* 6 */
		"NAME=two words\n"            /* 7 */
		"NAME=back\\\n"               /* 8 */
		"=value\n"                    /* 9 */
		"VERSION_ID=\"7\"x y\n"       /* 10 */
		"PRETTY_NAME=\"fine\"\n";     /* 11 */
	struct osrel o;

	CHECK_EQ(osrel_parse(text, strlen(text), "/etc/os-release", &o), EFI_SUCCESS);
	CHECK_STR(o.id, "ok");
	CHECK_STR(o.pretty_name, "fine");
	CHECK(o.name == NULL);
	CHECK(o.version_id == NULL);
	CHECK_EQ(o.n_bad_lines, 9);
	CHECK_EQ(test_log_count(), 9);
	CHECK_LOG("/etc/os-release:2: no '='");
	CHECK_LOG("/etc/os-release:3: invalid variable name");
	CHECK_LOG("/etc/os-release:4: invalid variable name");
	CHECK_LOG("/etc/os-release:5: unterminated double quote");
	CHECK_LOG("/etc/os-release:6: unterminated single quote");
	CHECK_LOG("/etc/os-release:7: blank inside an unquoted value");
	CHECK_LOG("/etc/os-release:8: backslash at the end");
	CHECK_LOG("/etc/os-release:9: invalid variable name");
	CHECK_LOG("/etc/os-release:10: blank inside");
	osrel_free(&o);
}

TEST(osrel_nul_ends_text)
{
	static const char text[] = "ID=a\n\0NAME=hidden\n";
	struct osrel o;

	CHECK_EQ(osrel_parse(text, sizeof(text), "padded", &o), EFI_SUCCESS);
	CHECK_STR(o.id, "a");
	CHECK(o.name == NULL);
	osrel_free(&o);
	CHECK_EQ(osrel_parse("", 0, "empty", &o), EFI_SUCCESS);
	CHECK(o.id == NULL);
	osrel_free(&o);
}

TEST(osrel_uname_from_kernel_version)
{
	char *u;

	u = uname_from_kernel_version("6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	CHECK_STR(u, "6.1.0-57-amd64");
	mem_free(u);
	u = uname_from_kernel_version("  5.10.0\t#1");
	CHECK_STR(u, "5.10.0");
	mem_free(u);
	CHECK(uname_from_kernel_version("") == NULL);
	CHECK(uname_from_kernel_version("   ") == NULL);
	CHECK(uname_from_kernel_version(NULL) == NULL);
}

TEST(osrel_default_round_trips)
{
	char *text = osrel_default("6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	struct osrel o;

	CHECK_STR(text,
		  "NAME=\"Linux\"\nID=linux\nPRETTY_NAME=\"Linux 6.1.0-57-amd64\"\nVERSION_ID=\"6.1.0-57-amd64\"\n");
	CHECK_EQ(osrel_parse(text, strlen(text), "default", &o), EFI_SUCCESS);
	CHECK_STR(o.pretty_name, "Linux 6.1.0-57-amd64");
	CHECK_STR(o.version_id, "6.1.0-57-amd64");
	CHECK_STR(o.id, "linux");
	osrel_free(&o);
	mem_free(text);

	/* shell-special characters in a hostile version string survive quoting */
	text = osrel_default("6.1\"$x`\\y #1");
	CHECK_EQ(osrel_parse(text, strlen(text), "default", &o), EFI_SUCCESS);
	CHECK_STR(o.version_id, "6.1\"$x`\\y");
	CHECK_STR(o.pretty_name, "Linux 6.1\"$x`\\y");
	CHECK_EQ(o.n_bad_lines, 0);
	osrel_free(&o);
	mem_free(text);

	text = osrel_default("");
	CHECK_EQ(osrel_parse(text, strlen(text), "default", &o), EFI_SUCCESS);
	CHECK_STR(o.pretty_name, "Linux");
	CHECK(o.version_id == NULL);
	osrel_free(&o);
	mem_free(text);
}

/* A kernel_version string is an image's bytes: a release that is not UTF-8
 * names nothing (fuzz_osrel: the default .osrel lost its PRETTY_NAME line). */
TEST(osrel_uname_not_utf8_is_no_uname)
{
	char *s = uname_from_kernel_version("6.1\xc0\x80-evil (x) #1");
	struct osrel o;

	CHECK(s == NULL);
	s = osrel_default("\xd3\xd1" "1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP");
	CHECK_STR(s, "NAME=\"Linux\"\nID=linux\nPRETTY_NAME=\"Linux\"\n");
	CHECK_EQ(osrel_parse(s, strlen(s), "default", &o), EFI_SUCCESS);
	CHECK_EQ(o.n_bad_lines, 0);
	osrel_free(&o);
	mem_free(s);
	s = uname_from_kernel_version("6.12.9-caf\xc3\xa9 #1");
	CHECK_STR(s, "6.12.9-caf\xc3\xa9");
	mem_free(s);
}
