/* loader.conf's editor-password: the line as handoff set-editor-password
 * writes it (hashes here from Python's hashlib.pbkdf2_hmac), its bounds, the
 * check, and failing closed: a malformed or unreadable line leaves the
 * editor locked with no password that opens it, named by file and line. */
#include "test.h"
#include "core/config.h"
#include "core/conf_line.h"
#include <stdlib.h>

#define SALT16 "000102030405060708090a0b0c0d0e0f"
/* PBKDF2-HMAC-SHA256("correct horse", bytes 0..15, 1000) */
#define HASH16 "c914cc4f06cc6e8f46d157e3a1b5aa7abceebb17bb0444cd4c4ac16ca2ae9864"
#define GOOD "editor-password pbkdf2-sha256:1000:" SALT16 ":" HASH16 "\n"

static struct loader_config parse(const char *text)
{
	struct loader_config cfg;

	CHECK_EQ(cfg_parse_loader_conf(text, strlen(text), "lc", &cfg), EFI_SUCCESS);
	return cfg;
}

static bool opens(const struct loader_config *cfg, const char *pw)
{
	return cfg_password_check(&cfg->editor_password, pw, strlen(pw));
}

TEST(editor_password_as_the_tool_writes_it)
{
	struct loader_config c = parse("timeout 3\n" GOOD);
	uint8_t salt[16];

	for (unsigned i = 0; i < sizeof(salt); i++)
		salt[i] = (uint8_t)i;
	CHECK(c.editor_password.set && !c.editor_password.malformed);
	CHECK_EQ(c.editor_password.iterations, 1000);
	CHECK_EQ(c.editor_password.salt_len, 16);
	CHECK_MEM(c.editor_password.salt, salt, 16);
	CHECK_EQ(c.editor_password.hash[0], 0xc9);
	CHECK_EQ(c.editor_password.hash[31], 0x64);
	CHECK_EQ(c.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	CHECK(opens(&c, "correct horse"));
	CHECK(!opens(&c, "correct horsE"));
	CHECK(!opens(&c, "correct hors"));
	CHECK(!opens(&c, "correct horse "));
	CHECK(!opens(&c, ""));
	CHECK(cfg_editor_allowed(&c, false)); /* the editor is there: it asks first */
	cfg_free(&c);
	CHECK(!c.editor_password.set);
}

TEST(editor_password_none_locks_nothing)
{
	struct loader_config c = parse("editor yes\n");

	CHECK(!c.editor_password.set);
	CHECK(!opens(&c, "")); /* nothing to check against: never true */
	cfg_free(&c);
}

TEST(editor_password_salt_and_case_bounds)
{
	/* 8 and 64 bytes of salt, the hash in capitals: PBKDF2("x", bytes 0..N-1, 1000) */
	struct loader_config c = parse("editor-password pbkdf2-sha256:1000:0001020304050607:"
				       "db7e3594302e6088e691b2e7e1fe86e52773a261d9d0e59d49ade54f7f94d109\n");
	char line[400];

	CHECK(c.editor_password.set && !c.editor_password.malformed);
	CHECK_EQ(c.editor_password.salt_len, 8);
	CHECK(opens(&c, "x"));
	cfg_free(&c);
	snprintf(line, sizeof(line), "editor-password pbkdf2-sha256:1000:");
	for (unsigned i = 0; i < 64; i++)
		snprintf(line + strlen(line), 3, "%02X", i);
	strcat(line, ":AD9626F83589C1A386D835F6D02147AC0EA95BA5684A64877D55BDC098164267\n");
	c = parse(line);
	CHECK(c.editor_password.set && !c.editor_password.malformed);
	CHECK_EQ(c.editor_password.salt_len, 64);
	CHECK(opens(&c, "x"));
	CHECK(!opens(&c, "X"));
	cfg_free(&c);
}

TEST(editor_password_malformed_values_lock_for_good)
{
	static const char *const bad[] = {
		"pbkdf2-sha512:1000:" SALT16 ":" HASH16,         /* another scheme */
		"PBKDF2-SHA256:1000:" SALT16 ":" HASH16,         /* the scheme is exact */
		"pbkdf2-sha256:999:" SALT16 ":" HASH16,          /* RFC 8018 §4.2: at least 1000 */
		"pbkdf2-sha256:5000001:" SALT16 ":" HASH16,      /* more than the loader may spend */
		"pbkdf2-sha256:99999999999999999999999:" SALT16 ":" HASH16,
		"pbkdf2-sha256::" SALT16 ":" HASH16,
		"pbkdf2-sha256:+1000:" SALT16 ":" HASH16,
		"pbkdf2-sha256:1000:00010203040506:" HASH16,     /* 7 bytes of salt */
		"pbkdf2-sha256:1000:000102030405060:" HASH16,    /* odd digits */
		"pbkdf2-sha256:1000:" SALT16 SALT16 SALT16 SALT16 "00:" HASH16, /* 65 bytes */
		"pbkdf2-sha256:1000:" SALT16 ":" HASH16 "00",    /* 33-byte hash */
		"pbkdf2-sha256:1000:" SALT16 ":c914cc4f06cc6e8f46d157e3a1b5aa7abceebb17bb0444cd4c4ac16ca2ae98",
		"pbkdf2-sha256:1000:" SALT16 ":" HASH16 ":",     /* a fifth field */
		"pbkdf2-sha256:1000:" SALT16 "g0:" HASH16,      /* not hex */
		"pbkdf2-sha256:1000:" SALT16 ":x914cc4f06cc6e8f46d157e3a1b5aa7abceebb17bb0444cd4c4ac16ca2ae9864",
		"pbkdf2-sha256:1000:" SALT16 " " HASH16,
		"pbkdf2-sha256:1000",
		"pbkdf2-sha256",
		"pbkdf2-sha256:",
		"yes",
	};

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char text[512];
		struct loader_config c;

		test_log_reset();
		snprintf(text, sizeof(text), "editor yes\n" GOOD "editor-password %s\n", bad[i]);
		c = parse(text);
		CHECK(c.editor_password.set && c.editor_password.malformed);
		CHECK_EQ(c.n_errors, 1);
		CHECK_LOG("lc:3: editor-password is not pbkdf2-sha256:ITERATIONS:SALT:HASH");
		CHECK(!opens(&c, "correct horse")); /* not even the password of the good line before */
		CHECK(!cfg_editor_allowed(&c, false));
		CHECK(!cfg_editor_allowed(&c, true));
		cfg_free(&c);
		/* and a good line after a bad one does not unlock it */
		snprintf(text, sizeof(text), "editor-password %s\n" GOOD, bad[i]);
		c = parse(text);
		CHECK(c.editor_password.malformed);
		CHECK(!opens(&c, "correct horse"));
		cfg_free(&c);
	}
}

/* Lines the line reader itself rejects, when they set editor-password, lock
 * too; the same faults on other keys do not. */
TEST(editor_password_unreadable_lines_lock)
{
	static const struct {
		const char *text;
		size_t len;
	} bad[] = {
		{ "editor-password\n", 16 },
		{ "  editor-password   \r\n", 22 },
		{ "editor-password pbkdf2\0-sha256\n", 31 },
		{ "editor-password pbkdf2-sha256:\xff\n", 32 },
	};
	char *long_line = malloc(CONF_LINE_MAX + 64);
	struct loader_config c;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		test_log_reset();
		CHECK_EQ(cfg_parse_loader_conf(bad[i].text, bad[i].len, "lc", &c), EFI_SUCCESS);
		CHECK(c.editor_password.set && c.editor_password.malformed);
		CHECK_EQ(c.n_errors, 1);
		CHECK_LOG("lc:1: ");
		CHECK(!cfg_editor_allowed(&c, false));
		cfg_free(&c);
	}
	memset(long_line, 'a', CONF_LINE_MAX + 64);
	memcpy(long_line, "editor-password ", 16);
	CHECK_EQ(cfg_parse_loader_conf(long_line, CONF_LINE_MAX + 64, "lc", &c), EFI_SUCCESS);
	CHECK(c.editor_password.malformed);
	cfg_free(&c);
	c = parse("editor-passwords\neditor\neditor-password-x \xff\n# editor-password\n");
	CHECK(!c.editor_password.set);
	CHECK_EQ(c.n_errors, 3);
	cfg_free(&c);
	free(long_line);
}

TEST(editor_password_given_twice_the_last_counts)
{
	struct loader_config c = parse("editor-password pbkdf2-sha256:1000:0001020304050607:"
				       "db7e3594302e6088e691b2e7e1fe86e52773a261d9d0e59d49ade54f7f94d109\n" GOOD);

	CHECK(opens(&c, "correct horse"));
	CHECK(!opens(&c, "x"));
	CHECK_LOG("lc:2: 'editor-password' given again, the last one counts");
	cfg_free(&c);
}

/* The password adds to the other rules (README "Configuration": editor):
 * editor no is no editor; under Secure Boot the editor needs editor yes. */
TEST(editor_password_and_the_editor_rules)
{
	struct loader_config c = parse("editor no\n" GOOD);

	CHECK(!cfg_editor_allowed(&c, false));
	cfg_free(&c);
	c = parse(GOOD);
	CHECK(cfg_editor_allowed(&c, false));
	CHECK(!cfg_editor_allowed(&c, true));
	cfg_free(&c);
	c = parse("editor yes\n" GOOD);
	CHECK(cfg_editor_allowed(&c, true));
	CHECK(c.editor_password.set);
	cfg_free(&c);
}
