/* loader.conf: keys, defaults, CRLF/BOM/comments, malformed lines reported
 * with path:line while the rest of the file still counts. */
#include "test.h"
#include "core/config.h"

static struct loader_config parse(const char *text)
{
	struct loader_config c;

	test_log_reset();
	CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), "\\loader\\loader.conf", &c), EFI_SUCCESS);
	return c;
}

TEST(config_defaults)
{
	struct loader_config c = parse("");

	CHECK_EQ(c.timeout_sec, CFG_TIMEOUT_UNSET);
	CHECK(c.default_glob == NULL);
	CHECK(c.editor);
	CHECK_EQ(c.n_errors, 0);
}

TEST(config_all_keys)
{
	struct loader_config c = parse("\xef\xbb\xbf# handoff\r\ntimeout 7\r\n  default   debian-*  \r\neditor no\nconsole-mode max\n\n");

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
	struct loader_config c = parse("timeout menu-force\n");

	CHECK_EQ(c.timeout_sec, CFG_TIMEOUT_MENU_FORCE);
	c = parse("timeout menu-hidden\n");
	CHECK_EQ(c.timeout_sec, 0);
	c = parse("timeout 0\n");
	CHECK_EQ(c.timeout_sec, 0);
}

TEST(config_malformed_lines_skipped_rest_counts)
{
	struct loader_config c = parse("timeout abc\neditor maybe\ndefault\ntimeout 99999999999\nfrobnicate 1\nbeep yes\ntimeout 3\n");

	CHECK_EQ(c.timeout_sec, 3);
	CHECK_EQ(c.n_errors, 4);
	CHECK_LOG("\\loader\\loader.conf:1: timeout 'abc'");
	CHECK_LOG("\\loader\\loader.conf:2: editor 'maybe'");
	CHECK_LOG("\\loader\\loader.conf:3: 'default' has no value");
	CHECK_LOG("\\loader\\loader.conf:4: timeout '99999999999'");
	CHECK_LOG("\\loader\\loader.conf:5: unknown key 'frobnicate'");
	CHECK(!test_log_contains("beep"));
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
