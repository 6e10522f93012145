/* loader.conf parsing (loader.conf(5) subset): every key, line syntax (BOM,
 * CRLF, comments, blanks), and every kind of malformed line, each reported
 * as "path:line: ..." with the following lines still used. */
#include "test.h"
#include "core/config.h"
#include <stdlib.h>

#define PATH "\\loader\\loader.conf"

static struct loader_config parse_n(const char *text, size_t len)
{
	struct loader_config cfg;

	CHECK_EQ(cfg_parse_loader_conf(text, len, PATH, &cfg), EFI_SUCCESS);
	return cfg;
}

static struct loader_config parse(const char *text)
{
	return parse_n(text, strlen(text));
}

TEST(config_empty_gives_defaults)
{
	struct loader_config cfg = parse("");

	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK(cfg.editor);
	CHECK(cfg.default_glob == NULL);
	CHECK(cfg.console_mode == NULL);
	CHECK_EQ(cfg.sb_enroll, CFG_SB_ENROLL_IF_SAFE); /* systemd-boot's default */
	CHECK(!cfg.sb_enroll_shutdown);
	CHECK_EQ(cfg.sb_enroll_timeout_sec, 15);
	CHECK_EQ(cfg.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
}

TEST(config_every_key)
{
	struct loader_config cfg = parse("timeout 5\n"
					 "default debian-*\n"
					 "editor no\n"
					 "console-mode max\n");

	CHECK_EQ(cfg.timeout_sec, 5);
	CHECK_STR(cfg.default_glob, "debian-*");
	CHECK(!cfg.editor);
	CHECK_STR(cfg.console_mode, "max");
	CHECK_EQ(cfg.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	cfg_free(&cfg);
	CHECK(cfg.default_glob == NULL && cfg.console_mode == NULL);
	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
}

TEST(config_timeout_values)
{
	static const struct {
		const char *value;
		uint32_t want; /* CFG_TIMEOUT_UNSET: an error */
	} cases[] = {
		{ "0", 0 },
		{ "10", 10 },
		{ "007", 7 },
		{ "menu-force", CFG_TIMEOUT_MENU_FORCE },
		{ "menu-hidden", 0 },
		{ "menu-disabled", 0 },
		{ "4294967293", UINT32_MAX - 2 }, /* the largest plain number */
		{ "4294967294", CFG_TIMEOUT_UNSET }, /* would read as menu-force */
		{ "4294967295", CFG_TIMEOUT_UNSET },
		{ "18446744073709551616", CFG_TIMEOUT_UNSET }, /* 2^64: no wrap-around */
		{ "99999999999999999999999999", CFG_TIMEOUT_UNSET },
		{ "-1", CFG_TIMEOUT_UNSET },
		{ "+5", CFG_TIMEOUT_UNSET },
		{ "5s", CFG_TIMEOUT_UNSET },
		{ "0x10", CFG_TIMEOUT_UNSET },
		{ "1 2", CFG_TIMEOUT_UNSET },
		{ "menu", CFG_TIMEOUT_UNSET },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char text[128];
		struct loader_config cfg;

		test_log_reset();
		snprintf(text, sizeof(text), "timeout %s\n", cases[i].value);
		cfg = parse(text);
		CHECK_EQ(cfg.timeout_sec, cases[i].want);
		CHECK_EQ(cfg.n_errors, cases[i].want == CFG_TIMEOUT_UNSET);
		if (cases[i].want == CFG_TIMEOUT_UNSET)
			CHECK_LOG(PATH ":1: timeout '");
	}
}

TEST(config_editor_booleans)
{
	static const char *const yes[] = { "yes", "y", "true", "t", "on", "1", "YES", "True" };
	static const char *const no[] = { "no", "n", "false", "f", "off", "0", "No", "OFF" };
	static const char *const bad[] = { "maybe", "2", "yess", "enabled" };
	char text[64];

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		snprintf(text, sizeof(text), "editor no\neditor %s\n", yes[i]);
		CHECK(parse(text).editor);
	}
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++) {
		snprintf(text, sizeof(text), "editor %s\n", no[i]);
		CHECK(!parse(text).editor);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct loader_config cfg;

		test_log_reset();
		snprintf(text, sizeof(text), "# x\neditor %s\n", bad[i]);
		cfg = parse(text);
		CHECK(cfg.editor); /* the default stays */
		CHECK_EQ(cfg.n_errors, 1);
		CHECK_LOG(PATH ":2: editor '");
	}
}

TEST(config_bom_crlf_comments_blanks)
{
	static const char text[] = "\xef\xbb\xbf# written on Windows\r\n"
				   "\r\n"
				   "   \t\r\n"
				   "  timeout\t\t 4  \r\n"
				   "#timeout 9\r\n"
				   "default   debian-* \r\n"
				   "editor no";
	struct loader_config cfg = parse(text);

	CHECK_EQ(cfg.timeout_sec, 4);
	CHECK_STR(cfg.default_glob, "debian-*"); /* no CR, no blanks kept */
	CHECK(!cfg.editor);                      /* last line without a newline still counts */
	CHECK_EQ(cfg.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	cfg_free(&cfg);
}

TEST(config_bom_only_and_bom_alone_line)
{
	struct loader_config cfg = parse("\xef\xbb\xbf");

	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK_EQ(cfg.n_errors, 0);
	/* A BOM is only special at the very start: elsewhere it is a key. */
	cfg = parse("timeout 1\n\xef\xbb\xbftimeout 2\n");
	CHECK_EQ(cfg.timeout_sec, 1);
	CHECK_LOG(PATH ":2: unknown key '\xef\xbb\xbftimeout'");
}

TEST(config_line_numbers_count_every_line)
{
	/* BOM on line 1, comment, blank, CRLF lines: the error is on line 5. */
	struct loader_config cfg = parse("\xef\xbb\xbf# c\r\n\r\ntimeout 1\r\n   \r\neditor perhaps\r\ntimeout 3\r\n");

	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG(PATH ":5: editor 'perhaps' is not yes or no");
	CHECK_EQ(cfg.timeout_sec, 3);
}

TEST(config_unknown_key_warns_and_goes_on)
{
	struct loader_config cfg = parse("timeout 2\nfoo bar\ndefault x\n");

	CHECK_LOG(PATH ":2: unknown key 'foo', ignored");
	CHECK_EQ(test_log_count(), 1);
	CHECK_EQ(cfg.n_errors, 0); /* a warning, not a malformed line */
	CHECK_EQ(cfg.timeout_sec, 2);
	CHECK_STR(cfg.default_glob, "x");
	cfg_free(&cfg);
}

TEST(config_systemd_boot_keys_are_accepted)
{
	struct loader_config cfg = parse("auto-entries no\nauto-firmware yes\nbeep 1\nsecure-boot-enroll manual\n"
					 "reboot-for-bitlocker yes\nrandom-seed-mode always\nauto-poweroff no\n"
					 "auto-reboot no\nreboot-on-error auto\nlog-level debug\ntimeout 3\n");

	CHECK_EQ(test_log_count(), 0); /* no warning, no error */
	CHECK_LOG(PATH ":3: 'beep' is a systemd-boot option that handoff does not implement");
	CHECK_EQ(cfg.n_errors, 0);
	CHECK_EQ(cfg.timeout_sec, 3);
	CHECK_EQ(cfg_auto_entries(&cfg), CFG_AUTO_FIRMWARE); /* the explicit yes wins over auto-entries no */
	CHECK(cfg.reboot_for_bitlocker);
	CHECK(!cfg.auto_entries);
}

/* loader.conf(5) secure-boot-enroll, -action and -timeout-sec: every value,
 * any case; a bad one is an error naming the line and leaves the value as it was. */
TEST(config_secure_boot_enroll)
{
	static const struct {
		const char *value;
		int want; /* -1: an error */
	} cases[] = {
		{ "off", CFG_SB_ENROLL_OFF },
		{ "manual", CFG_SB_ENROLL_MANUAL },
		{ "if-safe", CFG_SB_ENROLL_IF_SAFE },
		{ "force", CFG_SB_ENROLL_FORCE },
		{ "FORCE", CFG_SB_ENROLL_FORCE },
		{ "yes", -1 },
		{ "if-safe-ish", -1 },
		{ "of", -1 },
	};
	char text[64];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct loader_config cfg;

		test_log_reset();
		snprintf(text, sizeof(text), "secure-boot-enroll manual\nsecure-boot-enroll %s\n", cases[i].value);
		cfg = parse(text);
		CHECK_EQ(cfg.sb_enroll, cases[i].want < 0 ? CFG_SB_ENROLL_MANUAL : cases[i].want);
		CHECK_EQ(cfg.n_errors, cases[i].want < 0);
		if (cases[i].want < 0)
			CHECK_LOG(PATH ":2: secure-boot-enroll '");
		CHECK_EQ(test_log_count(), 1); /* the error, or "given again" for a good one */
	}
}

TEST(config_secure_boot_enroll_action_and_timeout)
{
	struct loader_config cfg = parse("secure-boot-enroll-action shutdown\nsecure-boot-enroll-timeout-sec 3\n");

	CHECK(cfg.sb_enroll_shutdown);
	CHECK_EQ(cfg.sb_enroll_timeout_sec, 3);
	CHECK_EQ(test_log_count(), 0);
	cfg = parse("secure-boot-enroll-action Reboot\nsecure-boot-enroll-timeout-sec hidden\n");
	CHECK(!cfg.sb_enroll_shutdown);
	CHECK_EQ(cfg.sb_enroll_timeout_sec, 0);
	CHECK_EQ(test_log_count(), 0);
	cfg = parse("secure-boot-enroll-timeout-sec 0\nsecure-boot-enroll-timeout-sec 4294967295\n");
	CHECK_EQ(cfg.sb_enroll_timeout_sec, UINT32_MAX);
	test_log_reset();
	cfg = parse("secure-boot-enroll-action poweroff\nsecure-boot-enroll-timeout-sec 4294967296\n"
		    "secure-boot-enroll-timeout-sec -1\n");
	CHECK(!cfg.sb_enroll_shutdown);
	CHECK_EQ(cfg.sb_enroll_timeout_sec, 15);
	CHECK_EQ(cfg.n_errors, 3);
	CHECK_LOG(PATH ":1: secure-boot-enroll-action 'poweroff' is not reboot or shutdown, ignored");
	CHECK_LOG(PATH ":2: secure-boot-enroll-timeout-sec '4294967296' is not a number of seconds or hidden");
	CHECK_LOG(PATH ":3: secure-boot-enroll-timeout-sec '-1'");
}

TEST(config_auto_entries)
{
	/* loader.conf(5): auto-firmware defaults to yes, auto-reboot and
	 * auto-poweroff to no; handoff's auto-entries no turns defaults off. */
	static const struct {
		const char *text;
		uint8_t want;
	} cases[] = {
		{ "", CFG_AUTO_FIRMWARE },
		{ "auto-entries no\n", 0 },
		{ "auto-entries no\nauto-reboot yes\n", CFG_AUTO_REBOOT },
		{ "auto-firmware no\n", 0 },
		{ "auto-reboot yes\nauto-poweroff on\n", CFG_AUTO_FIRMWARE | CFG_AUTO_REBOOT | CFG_AUTO_POWEROFF },
		{ "auto-reboot yes\nauto-reboot no\n", CFG_AUTO_FIRMWARE },
		{ "auto-entries no\nauto-entries yes\n", CFG_AUTO_FIRMWARE },
		{ "auto-poweroff maybe\n", CFG_AUTO_FIRMWARE }, /* a bad value changes nothing */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct loader_config cfg = parse(cases[i].text);

		if (cfg_auto_entries(&cfg) != cases[i].want)
			test_fail(__FILE__, __LINE__, "'%s': auto entries %#x, want %#x", cases[i].text,
				  cfg_auto_entries(&cfg), cases[i].want);
		cfg_free(&cfg);
	}
	CHECK_LOG(PATH ":1: auto-poweroff 'maybe' is not yes or no");
}

TEST(config_default_saved)
{
	struct loader_config cfg = parse("default debian-*\ndefault @SAVED\n");

	CHECK(cfg.default_saved);
	CHECK(cfg.default_glob == NULL);
	cfg_free(&cfg);
	cfg = parse("default @saved\ndefault arch*\n"); /* a glob after it replaces it */
	CHECK(!cfg.default_saved);
	CHECK_STR(cfg.default_glob, "arch*");
	cfg_free(&cfg);
	cfg = parse("default arch*\ndefault @current\n");
	CHECK_LOG(PATH ":2: default '@current': the only special value is @saved, ignored");
	CHECK_EQ(cfg.n_errors, 1);
	CHECK_STR(cfg.default_glob, "arch*");
	CHECK(!cfg.default_saved);
	cfg_free(&cfg);
}

TEST(config_key_without_value)
{
	struct loader_config cfg = parse("timeout\neditor no\ndefault \t \n");

	CHECK_LOG(PATH ":1: 'timeout' has no value, ignored");
	CHECK_LOG(PATH ":3: 'default' has no value");
	CHECK_EQ(cfg.n_errors, 2);
	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK(!cfg.editor);
	CHECK(cfg.default_glob == NULL);
}

TEST(config_nul_byte_line)
{
	static const char text[] = "timeout 1\0 9\neditor no\n# \0 in a comment\n";
	struct loader_config cfg = parse_n(text, sizeof(text) - 1);

	CHECK_LOG(PATH ":1: NUL byte in line, ignored");
	CHECK_LOG(PATH ":3: NUL byte in line");
	CHECK_EQ(cfg.n_errors, 2);
	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK(!cfg.editor);
}

TEST(config_long_lines)
{
	size_t n = 8192;
	char *text = malloc(n + 64);
	struct loader_config cfg;
	size_t len;

	/* 4096 bytes (CRLF not counted) is the limit, 4097 is too long. */
	len = (size_t)sprintf(text, "default ");
	memset(text + len, 'a', 4096 - len);
	len = 4096;
	len += (size_t)sprintf(text + len, "\r\ndefault ");
	memset(text + len, 'b', 4097 - 8);
	len += 4097 - 8;
	len += (size_t)sprintf(text + len, "\ntimeout 2\n");
	cfg = parse_n(text, len);
	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG(PATH ":2: line longer than 4096 bytes (4097), ignored");
	CHECK(cfg.default_glob && strlen(cfg.default_glob) == 4096 - 8 && cfg.default_glob[0] == 'a');
	CHECK_EQ(cfg.timeout_sec, 2);
	cfg_free(&cfg);
	free(text);
}

TEST(config_long_line_without_newline_at_end)
{
	size_t n = 100000;
	char *text = malloc(n);

	memcpy(text, "timeout 1\n", 10);
	memset(text + 10, 'x', n - 10);
	struct loader_config cfg = parse_n(text, n);
	CHECK_EQ(cfg.timeout_sec, 1);
	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG(PATH ":2: line longer than 4096 bytes (99990)");
	free(text);
}

TEST(config_duplicate_key_last_wins)
{
	struct loader_config cfg = parse("default a\ntimeout 1\ndefault b\n");

	CHECK_STR(cfg.default_glob, "b");
	CHECK_LOG(PATH ":3: 'default' given again, the last one counts");
	CHECK_EQ(cfg.n_errors, 0);
	cfg_free(&cfg);
}

TEST(config_cr_alone_is_not_a_line_end)
{
	/* Classic Mac line ends are not a format loader.conf(5) allows: the
	 * whole text is one line, and the error says so instead of guessing. */
	struct loader_config cfg = parse("timeout 1\rdefault x\r");

	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG(PATH ":1: timeout '1\rdefault x' is not a number");
	CHECK(cfg.default_glob == NULL);
}

TEST(config_values_keep_inner_spaces_and_hashes)
{
	struct loader_config cfg = parse("default my entry #1  \nconsole-mode  keep\n");

	CHECK_STR(cfg.default_glob, "my entry #1");
	CHECK_STR(cfg.console_mode, "keep");
	cfg_free(&cfg);
}

TEST(config_keys_are_case_sensitive)
{
	struct loader_config cfg = parse("Timeout 5\n");

	CHECK_EQ(cfg.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK_LOG(PATH ":1: unknown key 'Timeout'");
}

/* --- cases from the first implementation on main, kept ------------------------ */

static struct loader_config parse_reset(const char *text)
{
	struct loader_config c;

	test_log_reset();
	CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), "\\loader\\loader.conf", &c), EFI_SUCCESS);
	return c;
}

TEST(config_defaults_main)
{
	struct loader_config c = parse_reset("");

	CHECK_EQ(c.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK(c.default_glob == NULL);
	CHECK(c.editor);
	CHECK_EQ(c.n_errors, 0);
}

TEST(config_all_keys_main)
{
	struct loader_config c = parse_reset(
		"\xef\xbb\xbf# handoff\r\ntimeout 7\r\n  default   debian-*  \r\neditor no\nconsole-mode max\n\n");

	CHECK_EQ(c.timeout_sec, 7);
	CHECK_STR(c.default_glob, "debian-*");
	CHECK(!c.editor);
	CHECK_STR(c.console_mode, "max");
	CHECK_EQ(c.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	cfg_free(&c);
}

TEST(config_timeout_words)
{
	struct loader_config c = parse_reset("timeout menu-force\n");

	CHECK_EQ(c.timeout_sec, CFG_TIMEOUT_MENU_FORCE);
	c = parse_reset("timeout menu-hidden\n");
	CHECK_EQ(c.timeout_sec, 0);
	c = parse_reset("timeout 0\n");
	CHECK_EQ(c.timeout_sec, 0);
}

TEST(config_malformed_lines_skipped_rest_counts)
{
	struct loader_config c = parse_reset(
		"timeout abc\neditor maybe\ndefault\ntimeout 99999999999\nfrobnicate 1\nbeep yes\ntimeout 3\n");

	CHECK_EQ(c.timeout_sec, 3);
	CHECK_EQ(c.n_errors, 4);
	CHECK_LOG("\\loader\\loader.conf:1: timeout 'abc'");
	CHECK_LOG("\\loader\\loader.conf:2: editor 'maybe'");
	CHECK_LOG("\\loader\\loader.conf:3: 'default' has no value");
	CHECK_LOG("\\loader\\loader.conf:4: timeout '99999999999'");
	CHECK_LOG("\\loader\\loader.conf:5: unknown key 'frobnicate'");
	CHECK(!test_log_contains("unknown key 'beep'")); /* known to systemd-boot: an info line at most */
	CHECK_EQ(test_log_count(), 5);
	cfg_free(&c);
}

TEST(config_nul_and_long_lines)
{
	char text[6000];
	struct loader_config c;
	size_t n;

	memcpy(text, "timeout 1\nx\0y 2\n", 16);
	n = 16;
	memset(text + n, 'a', 5000);
	n += 5000;
	memcpy(text + n, "\ntimeout 4", 10);
	n += 10;
	test_log_reset();
	CHECK_EQ(cfg_parse_loader_conf(text, n, "lc", &c), EFI_SUCCESS);
	CHECK_EQ(c.timeout_sec, 4); /* last line without a newline still counts */
	CHECK_EQ(c.n_errors, 2);
	CHECK_LOG("lc:2: NUL byte");
	CHECK_LOG("lc:3: line longer than");
}

/* issue 12: under Secure Boot an edited command line is measured, never
 * verified, so the editor is off unless loader.conf asks for it. */
TEST(cfg_editor_default_follows_secure_boot)
{
	struct loader_config c;

	CHECK_EQ(cfg_parse_loader_conf("timeout 3\n", 10, "l.conf", &c), EFI_SUCCESS);
	CHECK(cfg_editor_allowed(&c, false));
	CHECK(!cfg_editor_allowed(&c, true));
	cfg_free(&c);
	CHECK_EQ(cfg_parse_loader_conf("editor yes\n", 11, "l.conf", &c), EFI_SUCCESS);
	CHECK(cfg_editor_allowed(&c, true));
	cfg_free(&c);
	CHECK_EQ(cfg_parse_loader_conf("editor no\n", 10, "l.conf", &c), EFI_SUCCESS);
	CHECK(!cfg_editor_allowed(&c, false));
	cfg_free(&c);
	CHECK_EQ(cfg_parse_loader_conf("editor maybe\n", 13, "l.conf", &c), EFI_SUCCESS);
	CHECK(!cfg_editor_allowed(&c, true)); /* a bad value is no explicit yes */
	cfg_free(&c);
}
