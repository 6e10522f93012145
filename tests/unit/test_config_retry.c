/* loader.conf's retry-on-error SECONDS [next|reset] (README "Network boot"):
 * every form taken, with exact results; every bad value refused by line
 * number, leaving the value given before it (or the default: off). */
#include "test.h"
#include "core/config.h"
#include <stdio.h>

#define PATH "\\loader\\loader.conf"

static struct loader_config parse_retry(const char *text)
{
	struct loader_config cfg;

	test_log_reset();
	CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), PATH, &cfg), EFI_SUCCESS);
	return cfg;
}

TEST(config_retry_off_by_default)
{
	struct loader_config cfg = parse_retry("timeout 0\n");

	CHECK_EQ(cfg.retry_sec, 0);
	CHECK(!cfg.retry_next);
	CHECK_EQ(cfg.n_errors, 0);
}

TEST(config_retry_values)
{
	static const struct {
		const char *value;
		uint32_t sec;
		bool next;
	} cases[] = {
		{ "60", 60, false },              /* reset when the word is left out */
		{ "60 reset", 60, false },
		{ "60 next", 60, true },
		{ "5\tNEXT", 5, true },           /* a tab, any case */
		{ "30 \t  Reset", 30, false },    /* any run of blanks */
		{ "0", 0, false },                /* off */
		{ "0 next", 0, true },            /* off: nothing to go next from */
		{ "007", 7, false },
		{ "86400", 86400, false },        /* CFG_RETRY_SEC_MAX */
		{ "1 next", 1, true },
	};
	char text[96];

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct loader_config cfg;

		snprintf(text, sizeof(text), "timeout 0\nretry-on-error %s\n", cases[i].value);
		cfg = parse_retry(text);
		CHECK_EQ(cfg.retry_sec, cases[i].sec);
		CHECK_EQ(cfg.retry_next, cases[i].next);
		CHECK_EQ(cfg.n_errors, 0);
		CHECK_EQ(test_log_count(), 0);
	}
}

TEST(config_retry_bad_values_are_refused_by_line)
{
	static const char *const bad[] = {
		"86401",                  /* above a day */
		"4294967356",             /* 2^32 + 60: no wrap-around */
		"18446744073709551676",   /* 2^64 + 60 */
		"-1", "+5", "5s", "0x10", "1.5", "sixty",
		"next", "reset",          /* no number */
		"60 again",               /* an unknown word */
		"60 next reset",          /* two words */
		"60 next,",
		"60next",                 /* no blank between */
		"60 60",
	};
	char text[96], want[128];

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		struct loader_config cfg;

		snprintf(text, sizeof(text), "retry-on-error 30 next\n# a comment\nretry-on-error %s\ntimeout 4\n",
			 bad[i]);
		cfg = parse_retry(text);
		CHECK_EQ(cfg.retry_sec, 30); /* the line before stays */
		CHECK(cfg.retry_next);
		CHECK_EQ(cfg.timeout_sec, 4); /* and the rest counts */
		CHECK_EQ(cfg.n_errors, 1);
		snprintf(want, sizeof(want), PATH ":3: retry-on-error '%s' is not " CFG_RETRY_WHAT ", ignored", bad[i]);
		CHECK_LOG(want);
		CHECK_EQ(test_log_count(), 1);
	}
}

TEST(config_retry_bad_value_alone_leaves_it_off)
{
	struct loader_config cfg = parse_retry("retry-on-error 90000 reset\n");

	CHECK_EQ(cfg.retry_sec, 0);
	CHECK(!cfg.retry_next);
	CHECK_EQ(cfg.n_errors, 1);
	CHECK_LOG(PATH ":1: retry-on-error '90000 reset' is not SECONDS (0..86400) [next|reset], ignored");
}
