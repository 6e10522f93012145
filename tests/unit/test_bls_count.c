/* Boot counting in file names (UAPI.1 "Boot counting"): parsing the counter
 * and the name the loader renames to. Expected names follow the series the
 * specification gives ("+3" -> "+2-1" -> "+1-2" -> "+0-3"). */
#include "test.h"
#include "core/bls_count.h"
#include <stdlib.h>

struct count_case {
	const char *name, *suffix;
	bool counted;
	size_t base_len;
	uint32_t left, done;
	const char *next; /* NULL: not counted */
};

static const struct count_case count_cases[] = {
	{ "debian-6.1+3.conf", ".conf", true, 10, 3, 0, "debian-6.1+2-1.conf" },
	{ "debian-6.1+2-1.conf", ".conf", true, 10, 2, 1, "debian-6.1+1-2.conf" },
	{ "debian-6.1+1-2.conf", ".conf", true, 10, 1, 2, "debian-6.1+0-3.conf" },
	{ "debian-6.1+0-3.conf", ".conf", true, 10, 0, 3, "debian-6.1+0-4.conf" }, /* LEFT stays 0 */
	{ "x+4-0.efi", ".efi", true, 1, 4, 0, "x+3-1.efi" },
	{ "x+007-02.EFI", ".efi", true, 1, 7, 2, "x+6-3.EFI" },        /* suffix kept as spelt */
	{ "a+b+1.conf", ".conf", true, 3, 1, 0, "a+b+0-1.conf" },      /* the last '+' */
	{ "x+1-2147483647.conf", ".conf", true, 1, 1, 2147483647u, "x+0-2147483647.conf" }, /* DONE saturates */
	{ "x+2147483647.conf", ".conf", true, 1, 2147483647u, 0, "x+2147483646-1.conf" },
	{ "x+2147483648.conf", ".conf", false, 12, 0, 0, NULL },      /* above INT_MAX */
	{ "x+1-2147483648.conf", ".conf", false, 14, 0, 0, NULL },
	{ "x+99999999999999999999.conf", ".conf", false, 22, 0, 0, NULL },
	{ "plain.conf", ".conf", false, 5, 0, 0, NULL },
	{ "x+.conf", ".conf", false, 2, 0, 0, NULL },
	{ "x+-1.conf", ".conf", false, 4, 0, 0, NULL },
	{ "x+1-.conf", ".conf", false, 4, 0, 0, NULL },
	{ "x+1x.conf", ".conf", false, 4, 0, 0, NULL },
	{ "x+1-2-3.conf", ".conf", false, 7, 0, 0, NULL },
	{ "+1.conf", ".conf", false, 2, 0, 0, NULL },                  /* no NAME */
	{ "x+1", ".conf", false, 3, 0, 0, NULL },                      /* no suffix */
	{ ".conf", ".conf", false, 5, 0, 0, NULL },
	{ "", ".conf", false, 0, 0, 0, NULL },
	{ "x+1.conf", "", false, 8, 0, 0, NULL },                      /* "+1.conf" is not digits */
	{ "x+1", "", true, 1, 1, 0, "x+0-1" },
};

TEST(bls_count_parse_table)
{
	for (size_t i = 0; i < sizeof(count_cases) / sizeof(count_cases[0]); i++) {
		const struct count_case *t = &count_cases[i];
		struct bls_counter c;
		char *next;

		bls_count_parse(t->name, t->suffix, &c);
		if (c.counted != t->counted || c.base_len != t->base_len || c.left != t->left || c.done != t->done)
			test_fail(__FILE__, __LINE__, "%s: counted %d base %zu left %u done %u, want %d %zu %u %u",
				  t->name, c.counted, c.base_len, c.left, c.done, t->counted, t->base_len, t->left,
				  t->done);
		next = bls_count_next_name(t->name, &c);
		if (t->next ? !next || strcmp(next, t->next) != 0 : next != NULL)
			test_fail(__FILE__, __LINE__, "%s: next \"%s\", want \"%s\"", t->name, next ? next : "(null)",
				  t->next ? t->next : "(null)");
		free(next);
	}
}

TEST(bls_count_series_reaches_bad)
{
	/* The specification's series: three boots and the entry is bad. */
	char *name = strdup("foobar+3.efi");
	const char *want[] = { "foobar+2-1.efi", "foobar+1-2.efi", "foobar+0-3.efi" };

	for (size_t i = 0; i < 3; i++) {
		struct bls_counter c;
		char *next;

		bls_count_parse(name, ".efi", &c);
		CHECK(c.counted);
		next = bls_count_next_name(name, &c);
		CHECK_STR(next, want[i]);
		free(name);
		name = next;
	}
	free(name);
}

TEST(bls_count_same_entry_table)
{
	CHECK(bls_count_same_entry("d-6.1.conf", ".conf", "d-6.1"));
	CHECK(bls_count_same_entry("d-6.1+3.conf", ".conf", "d-6.1"));
	CHECK(bls_count_same_entry("d-6.1+0-7.CONF", ".conf", "d-6.1"));
	CHECK(!bls_count_same_entry("d-6.1.1.conf", ".conf", "d-6.1"));
	CHECK(!bls_count_same_entry("d-6.1+3.conf", ".conf", "d-6"));
	CHECK(!bls_count_same_entry("d-6.1", ".conf", "d-6.1"));       /* not an entry file */
	CHECK(!bls_count_same_entry("d-6.1+x.conf", ".conf", "d-6.1"));
	CHECK(bls_count_same_entry("d-6.1+x.conf", ".conf", "d-6.1+x"));
}

/* What `handoff bless` renames to (systemd-bless-boot's names): good drops the
 * counter, bad is +0-DONE with DONE as it was; the suffix as spelt. */
TEST(bls_count_good_and_bad_names)
{
	static const struct {
		const char *name, *suffix, *good, *bad;
	} cases[] = {
		{ "debian-6.1+2-1.conf", ".conf", "debian-6.1.conf", "debian-6.1+0-1.conf" },
		{ "debian-6.1+3.conf", ".conf", "debian-6.1.conf", "debian-6.1+0-0.conf" },
		{ "x+0-3.EFI", ".efi", "x.EFI", "x+0-3.EFI" },
		{ "a+b+1-2147483647.efi", ".efi", "a+b.efi", "a+b+0-2147483647.efi" },
		{ "plain.conf", ".conf", NULL, NULL },
		{ "x+1x.conf", ".conf", NULL, NULL },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bls_counter c;
		char *good, *bad;

		bls_count_parse(cases[i].name, cases[i].suffix, &c);
		good = bls_count_good_name(cases[i].name, &c);
		bad = bls_count_bad_name(cases[i].name, &c);
		if (cases[i].good) {
			CHECK_STR(good, cases[i].good);
			CHECK_STR(bad, cases[i].bad);
		} else {
			CHECK(!good && !bad);
		}
		free(good);
		free(bad);
	}
}

TEST(bls_count_names_refuse_a_foreign_counter)
{
	struct bls_counter c;

	bls_count_parse("a-long-name+3.conf", ".conf", &c);
	CHECK(!bls_count_good_name("x+3.conf", &c)); /* the counter lies past the end of this name */
	CHECK(!bls_count_bad_name("x+3.conf", &c));
	CHECK(!bls_count_next_name("x+3.conf", &c));
}
