/* Entry files, loader.conf and a UKI's .osrel are UTF-8 (issue 21): a line
 * that is not well-formed, whatever the class of fault, is reported as
 * "path:line: invalid UTF-8 at byte offset N (0xXX), ..." and skipped, and
 * the rest of the file still counts. Well-formed text of any length passes. */
#include "test.h"
#include "core/bls.h"
#include "core/config.h"
#include "core/osrel.h"
#include <stdio.h>
#include <stdlib.h>

#define EPATH "\\loader\\entries\\evil.conf"

/* Each class of ill-formed UTF-8 (Unicode 15.0 Table 3-7), placed at byte 13
 * of "options quiet<here> init=/bin/evil". */
static const struct {
	const char *what, *bytes;
} classes[] = {
	{ "overlong NUL", "\xc0\x80" },
	{ "overlong 3-byte '/'", "\xe0\x80\xaf" },
	{ "overlong 4-byte", "\xf0\x80\x80\xa0" },
	{ "surrogate U+D800", "\xed\xa0\x80" },
	{ "surrogate U+DFFF", "\xed\xbf\xbf" },
	{ "truncated sequence", "\xe2\x82" },
	{ "stray continuation byte", "\x80" },
	{ "above U+10FFFF", "\xf4\x90\x80\x80" },
	{ "no lead byte", "\xff" },
};

TEST(conf_utf8_every_class_skips_the_line_with_file_line_offset)
{
	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
		char text[256], want[128];
		struct bls_entry e;
		int len = snprintf(text, sizeof(text),
				   "title Evil\nlinux /k\noptions console=ttyS0\noptions quiet%s init=/bin/evil\n"
				   "options panic=-1\n",
				   classes[i].bytes);

		test_log_reset();
		CHECK_EQ(bls_parse_entry(text, (size_t)len, "evil.conf", EPATH, &e), EFI_SUCCESS);
		snprintf(want, sizeof(want), EPATH ":4: invalid UTF-8 at byte offset 13 (0x%02x), ignored",
			 (uint8_t)classes[i].bytes[0]);
		if (!test_log_contains(want))
			test_fail(__FILE__, __LINE__, "%s: no log line \"%s\"", classes[i].what, want);
		CHECK_EQ(e.n_errors, 1);
		CHECK_EQ(test_log_count(), 1);
		CHECK_STR(e.options, "console=ttyS0 panic=-1"); /* nothing of line 4 */
		CHECK_STR(e.title, "Evil");
		CHECK_STR(e.kernel, "/k");
		bls_entry_free(&e);
	}
}

TEST(conf_utf8_offset_counts_from_the_line_start)
{
	/* the BOM is not part of line 1; leading blanks and a CRLF end are */
	static const char text[] = "\xef\xbb\xbf  title \xc3\xa9\xc0\x80\r\nlinux /k\r\n\tsort-key \xed\xa0\x80\r\n";
	struct bls_entry e;

	CHECK_EQ(bls_parse_entry(text, sizeof(text) - 1, "evil.conf", EPATH, &e), EFI_SUCCESS);
	CHECK_LOG(EPATH ":1: invalid UTF-8 at byte offset 10 (0xc0), ignored");
	CHECK_LOG(EPATH ":3: invalid UTF-8 at byte offset 10 (0xed), ignored");
	CHECK_EQ(e.n_errors, 2);
	CHECK(e.title == NULL && e.sort_key == NULL);
	CHECK_STR(e.kernel, "/k");
	bls_entry_free(&e);
}

TEST(conf_utf8_well_formed_text_passes)
{
	static const char text[] = "title Caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\nlinux /k\n"
				   "options root=LABEL=\xd0\xba\xd0\xbe\xd1\x80\xd0\xb5\xd0\xbd\xd1\x8c quiet\n";
	struct bls_entry e;

	CHECK_EQ(bls_parse_entry(text, sizeof(text) - 1, "e.conf", EPATH, &e), EFI_SUCCESS);
	CHECK_EQ(e.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	CHECK_STR(e.title, "Caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
	CHECK_STR(e.options, "root=LABEL=\xd0\xba\xd0\xbe\xd1\x80\xd0\xb5\xd0\xbd\xd1\x8c quiet");
	bls_entry_free(&e);
}

TEST(conf_utf8_loader_conf_line_skipped)
{
	static const char text[] = "timeout 3\ndefault deb\xc0\x80ian-*\neditor no\n";
	struct loader_config cfg;

	CHECK_EQ(cfg_parse_loader_conf(text, sizeof(text) - 1, "\\loader\\loader.conf", &cfg), EFI_SUCCESS);
	CHECK_LOG("\\loader\\loader.conf:2: invalid UTF-8 at byte offset 11 (0xc0), ignored");
	CHECK_EQ(cfg.n_errors, 1);
	CHECK(cfg.default_glob == NULL);
	CHECK_EQ(cfg.timeout_sec, 3);
	CHECK(!cfg.editor);
	cfg_free(&cfg);
}

/* A UKI's .osrel names its menu entry: an ill-formed line is skipped like a
 * line of an entry file, and the entry falls back to the next field. */
TEST(conf_utf8_osrel_line_skipped)
{
	static const char text[] = "NAME=\"Plain\"\nPRETTY_NAME=\"Evil\xc0\x80 x\"\nVERSION_ID=\"1\xf4\x90\x80\x80\"\n"
				   "ID=plain\n";
	struct osrel o;
	struct bls_entry e = { 0 };

	CHECK_EQ(osrel_parse(text, sizeof(text) - 1, "uki.efi", &o), EFI_SUCCESS);
	CHECK_LOG("uki.efi:2: invalid UTF-8 at byte offset 17 (0xc0), line ignored");
	CHECK_LOG("uki.efi:3: invalid UTF-8 at byte offset 13 (0xf4), line ignored");
	CHECK_EQ(o.n_bad_lines, 2);
	CHECK(o.pretty_name == NULL && o.version_id == NULL);
	CHECK_STR(o.name, "Plain");
	CHECK_STR(o.id, "plain");
	osrel_free(&o);
	CHECK_EQ(bls_entry_from_uki(&e, "uki.efi", "\\EFI\\Linux\\uki.efi", text, sizeof(text) - 1, false),
		 EFI_SUCCESS);
	CHECK_STR(e.title, "Plain");
	CHECK(e.version == NULL);
	bls_entry_free(&e);
}
