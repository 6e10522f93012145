/* UAPI.10 version order, UAPI.1 menu order, glob and default selection.
 * Expected values come from the specifications' own examples, from
 * systemd's documented order, or are worked out by hand in comments. */
#include "test.h"
#include "core/bls.h"
#include <stdlib.h>

/* --- version order (UAPI.10) ---------------------------------------------- */

static int sign(int v)
{
	return v < 0 ? -1 : v > 0;
}

static void check_vercmp(const char *file, int line, const char *a, const char *b, int want)
{
	int r = bls_version_cmp(a, b), back = bls_version_cmp(b, a);

	if (r != want || back != -want)
		test_fail(file, line, "version_cmp(\"%s\", \"%s\") = %d (reverse %d), want %d", a, b, r, back, want);
}
#define CHECK_VERCMP(a, b, want) check_vercmp(__FILE__, __LINE__, a, b, want)

TEST(bls_version_cmp_spec_examples)
{
	/* UAPI.10 "Examples", in order. */
	CHECK_VERCMP("11", "11", 0);
	CHECK_VERCMP("systemd-123", "systemd-123", 0);
	CHECK_VERCMP("bar-123", "foo-123", -1);
	CHECK_VERCMP("123a", "123", 1);
	CHECK_VERCMP("123.a", "123", 1);
	CHECK_VERCMP("123.a", "123.b", -1);
	CHECK_VERCMP("123a", "123.a", 1);
	CHECK_VERCMP("11\xce\xb1", "11\xce\xb2", 0); /* 11α == 11β */
	CHECK_VERCMP("B", "a", -1);
	CHECK_VERCMP("A", "a", -1);
	CHECK_VERCMP("", "0", -1);
	CHECK_VERCMP("0.", "0", 1);
	CHECK_VERCMP("0.0", "0", 1);
	CHECK_VERCMP("0", "~", 1);
	CHECK_VERCMP("", "~", 1);
	CHECK_VERCMP("1_", "1", 0);
	CHECK_VERCMP("_1", "1", 0);
	CHECK_VERCMP("1_", "1.2", -1);
	CHECK_VERCMP("1_2_3", "1.3.3", 1);
	CHECK_VERCMP("1+", "1", 0);
	CHECK_VERCMP("+1", "1", 0);
	CHECK_VERCMP("1+", "1.2", -1);
	CHECK_VERCMP("1+2+3", "1.3.3", 1);
}

static void check_ascending(const char *file, int line, const char *const *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int want = i < j ? -1 : i > j ? 1 : 0;

			if (sign(bls_version_cmp(v[i], v[j])) != want)
				test_fail(file, line, "version_cmp(\"%s\", \"%s\") != %d", v[i], v[j], want);
		}
}

TEST(bls_version_cmp_spec_ordered_list)
{
	/* UAPI.10: "each entry compares smaller than every entry to its right". */
	static const char *const v[] = { "122.1", "123~rc1-1", "123", "123-a", "123-a.1", "123-1", "123-1.1",
					 "123^post1", "123.a-1", "123.1-1", "123a-1", "124-1" };

	check_ascending(__FILE__, __LINE__, v, sizeof(v) / sizeof(v[0]));
}

TEST(bls_version_cmp_systemd_ordered_list)
{
	/* The order systemd's strverscmp_improved() documents in its tests. */
	static const char *const v[] = { "~1", "", "ab", "abb", "abc", "0001", "002", "12", "122", "122.9",
					 "123~rc1", "123", "123-a", "123-a.1", "123-a1", "123-a1.1", "123-3",
					 "123-3.1", "123^patch1", "123^1", "123.a-1", "123.1-1", "123a-1", "124" };

	check_ascending(__FILE__, __LINE__, v, sizeof(v) / sizeof(v[0]));
}

TEST(bls_version_cmp_separators_and_numbers)
{
	/* '~' pre-release, '-' release, '^' patch, '.' point release */
	CHECK_VERCMP("123~rc1-99.99", "123.45-67.89", -1);
	CHECK_VERCMP("123~rc1-99.99", "123~rc2-67.89", -1);
	CHECK_VERCMP("123-99.99", "123.45-67.89", -1);
	CHECK_VERCMP("123^45-67.89", "123.45-67.89", -1);
	CHECK_VERCMP("123^aa2-67.89", "123aa2-67.89", -1);
	CHECK_VERCMP("123.aa2-67.89", "123aa2-67.89", -1);
	CHECK_VERCMP("1.0^", "1.0", 1);     /* a caret after the end is newer */
	CHECK_VERCMP("1.0~rc1", "1.0", -1);
	CHECK_VERCMP("1.0~rc1~git123", "1.0~rc1", -1);
	CHECK_VERCMP("1.0^git1", "1.01", -1);
	CHECK_VERCMP("1.0^20160101^git1", "1.0^20160102", -1);
	/* numbers: value, not length of the text; any size */
	CHECK_VERCMP("10.0001", "10.1", 0);
	CHECK_VERCMP("4.999.9", "5.0", -1);
	CHECK_VERCMP("6.1.0-9-amd64", "6.1.0-10-amd64", -1);
	CHECK_VERCMP("99999999999999999999999999999", "99999999999999999999999999998", 1);
	CHECK_VERCMP("000000000000000000000000000001", "1", 0);
	CHECK_VERCMP("123..0", "123.0", -1);
	CHECK_VERCMP("12_3", "12.3", 1);
	CHECK_VERCMP("2_0", "2.0", 1);
	CHECK_VERCMP("5.5p1", "5.5p10", -1);
	CHECK_VERCMP("a", "0", -1); /* letters sort before numbers */
	CHECK_VERCMP(NULL, "", 0);
	CHECK_VERCMP(NULL, "1", -1);
}

TEST(bls_version_cmp_n_bounds)
{
	/* Only the given bytes count, and a NUL inside is just skipped. */
	CHECK_EQ(bls_version_cmp_n("6.10xyz", 4, "6.10", 4), 0);
	CHECK_EQ(bls_version_cmp_n("6.1", 3, "6.10", 4), -1);
	CHECK_EQ(bls_version_cmp_n("1\0" "2", 3, "1_2", 3), 0);
	CHECK_EQ(bls_version_cmp_n("", 0, "~", 1), 1);
}

/* --- menu order (UAPI.1 "Sorting") ------------------------------------------ */

struct fake_entry {
	const char *id, *sort_key, *machine_id, *version; /* id: the file name (Type #1 without .conf) */
	enum bls_type type;
};

#define T1(i, k, m, v) { .id = i, .sort_key = k, .machine_id = m, .version = v, .type = BLS_TYPE1 }
#define T2(i, k, m, v) { .id = i, .sort_key = k, .machine_id = m, .version = v, .type = BLS_TYPE2 }

static struct bls_entry *make_entries(const struct fake_entry *f, size_t n)
{
	struct bls_entry *e = calloc(n, sizeof(*e));

	for (size_t i = 0; i < n; i++) {
		bool t2 = f[i].type == BLS_TYPE2;
		char *name = malloc(strlen(f[i].id) + 6);

		strcpy(name, f[i].id);
		if (!t2)
			strcat(name, ".conf");
		e[i] = (struct bls_entry){ .path = (char *)f[i].id, .sort_key = (char *)f[i].sort_key,
					   .machine_id = (char *)f[i].machine_id, .version = (char *)f[i].version,
					   .type = f[i].type };
		/* the id and the boot counter come from the file name, as the loader has them */
		if (bls_entry_set_name(&e[i], name, t2 ? ".efi" : ".conf", t2) != EFI_SUCCESS)
			test_fail(__FILE__, __LINE__, "%s: out of memory", name);
		free(name);
	}
	return e;
}

static void free_entries(struct bls_entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(e[i].id);
	free(e);
}

/* Sort the table given in the expected order, after shuffling it with
 * @stride (coprime with n), and check the order of the ids. */
static void check_sorted(const char *file, int line, const struct fake_entry *f, size_t n, size_t stride)
{
	struct bls_entry *e = make_entries(f, n);
	struct bls_entry **p = calloc(n, sizeof(*p));

	for (size_t i = 0; i < n; i++)
		p[i] = &e[(i * stride + 3) % n];
	bls_sort(p, n);
	for (size_t i = 0; i < n; i++)
		if (strcmp(p[i]->path, f[i].id) != 0)
			test_fail(file, line, "stride %zu: position %zu is %s, want %s", stride, i, p[i]->path,
				  f[i].id);
	free(p);
	free_entries(e, n);
}

TEST(bls_sort_every_tie_break)
{
	/* Listed in the expected menu order; the comment says which rule puts
	 * each entry after the one before it. */
	static const struct fake_entry f[] = {
		T1("a-1", "arch", NULL, "6.2"),                    /* sort-key "arch" < "debian" */
		T1("d-new", "debian", NULL, "6.1.0-13"),           /* machine-id unset sorts lowest */
		T1("d-m1-10", "debian", "1111", "6.1.0-10"),       /* machine-id 1111 < 2222 */
		T1("d-m2-b", "debian", "2222", "6.10"),            /* same key and machine: 6.10 newest */
		T1("d-m2-a", "debian", "2222", "6.9"),
		T1("d-m2-rc", "debian", "2222", "6.9~rc1"),        /* ~rc1 older than 6.9 */
		T1("zz-10", "debian", "2222", ""),                 /* no version: oldest; "" == unset, */
		T1("zz-9", "debian", "2222", NULL),                /* then by id, newest first: 10 > 9 */
		T1("fedora-6.10", NULL, NULL, "1"),                /* no sort-key: after all with one, */
		T2("fedora-6.9.efi", NULL, NULL, "9"),             /* by id only (version 9 > 1 unused) */
		T1("fedora-6.9", NULL, NULL, NULL),                /* same id: stable (input order) */
		T1("fedora", NULL, NULL, NULL),                    /* shorter: older */
		T1("alpha", NULL, NULL, NULL),                     /* "alpha" < "fedora" */
		T1("debian-6.1+0-3", "debian", NULL, "99"),        /* boot counting, 0 tries left: last */
		T2("arch+0.efi", NULL, NULL, NULL),                /* bad too, and without sort-key */
	};
	check_sorted(__FILE__, __LINE__, f, sizeof(f) / sizeof(f[0]), 1);
}

TEST(bls_sort_counted_twins)
{
	/* The same entry in several counting states (ids equal): more tries
	 * left first, then fewer done, then the uncounted one stays in place;
	 * LEFT 0 last whatever its name (systemd-boot's order). */
	static const struct fake_entry f[] = {
		T1("d-6.1+3", "debian", NULL, "6.1"),
		T1("d-6.1+2", "debian", NULL, "6.1"),
		T1("d-6.1+2-1", "debian", NULL, "6.1"),
		T1("d-6.1+2-4", "debian", NULL, "6.1"),
		T1("d-6.0+1-2", "debian", NULL, "6.0"),
		T1("d-6.2+0-3", "debian", NULL, "6.2"),
	};
	check_sorted(__FILE__, __LINE__, f, sizeof(f) / sizeof(f[0]), 1);
	check_sorted(__FILE__, __LINE__, f, sizeof(f) / sizeof(f[0]), 5);
}

TEST(bls_sort_every_tie_break_in_any_input_order)
{
	static const struct fake_entry f[] = {
		T1("a-1", "arch", NULL, "6.2"),
		T1("d-new", "debian", NULL, "6.1.0-13"),
		T1("d-m1-10", "debian", "1111", "6.1.0-10"),
		T1("d-m2-b", "debian", "2222", "6.10"),
		T1("d-m2-a", "debian", "2222", "6.9"),
		T1("d-m2-rc", "debian", "2222", "6.9~rc1"),
		T1("fedora-6.10", NULL, NULL, "1"),
		T2("fedora-6.9.efi", NULL, NULL, "9"),
		T1("fedora-6.2", NULL, NULL, NULL),
		T1("fedora", NULL, NULL, NULL),
		T1("debian-6.1+0-3", "debian", NULL, "99"),
	};
	size_t n = sizeof(f) / sizeof(f[0]);

	/* n = 11 is prime: every stride gives another permutation */
	for (size_t stride = 1; stride < n; stride++)
		check_sorted(__FILE__, __LINE__, f, n, stride);
}

TEST(bls_sort_is_stable_and_handles_small_inputs)
{
	struct bls_entry e[4] = {
		{ .id = "same" }, { .id = "same" }, { .id = "same" }, { .id = "other-2" },
	};
	struct bls_entry *p[4] = { &e[0], &e[1], &e[2], &e[3] };

	bls_sort(p, 0);
	bls_sort(p, 1);
	CHECK(p[0] == &e[0]);
	bls_sort(p, 4);
	/* "same" > "other-2" ('s' > 'o'): the three equal ones first, in input order */
	CHECK(p[0] == &e[0] && p[1] == &e[1] && p[2] == &e[2] && p[3] == &e[3]);
	CHECK_EQ(bls_entry_cmp(&e[0], &e[1]), 0);
	CHECK_EQ(bls_entry_cmp(&e[0], &e[3]), -1);
	CHECK_EQ(bls_entry_cmp(&e[3], &e[0]), 1);
}

TEST(bls_entry_cmp_boot_counting)
{
	/* UAPI.1 "Boot counting": +LEFT[-DONE] before the suffix; LEFT 0 is bad. */
	static const struct {
		const char *name;
		bool bad;
	} cases[] = {
		{ "e+0.conf", true }, { "e+0-3.conf", true }, { "e+00-12.conf", true }, { "e+0.efi", true },
		{ "e+0-1.EFI", true }, { "e+0-1.CONF", true },
		{ "e+1.conf", false }, { "e+3-0.conf", false }, { "e+10.conf", false }, { "e.conf", false },
		{ "e+.conf", false }, { "e+0-.conf", false }, { "e-0.conf", false }, { "e+0x.conf", false },
		{ "+0.conf", false },        /* no NAME left: an ordinary file name */
		{ "e+0.conf.conf", false },  /* the counter must end where the suffix starts */
		{ "e+99999999999.conf", false }, /* above INT_MAX: not a counter */
	};
	struct bls_entry good = { .id = "a" };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		bool efi = strstr(cases[i].name, ".efi") || strstr(cases[i].name, ".EFI");
		struct bls_entry e = { .sort_key = "k" };
		int want = cases[i].bad ? 1 : -1; /* a sort-key beats none, unless bad */

		CHECK_EQ(bls_entry_set_name(&e, cases[i].name, efi ? ".efi" : ".conf", efi), EFI_SUCCESS);
		if (bls_entry_cmp(&e, &good) != want)
			test_fail(__FILE__, __LINE__, "%s: bad should be %d", cases[i].name, cases[i].bad);
		free(e.id);
	}
}

/* --- glob and default ------------------------------------------------------- */

TEST(glob_match_table)
{
	static const struct {
		const char *pattern, *s;
		bool match;
	} cases[] = {
		{ "", "", true },
		{ "", "a", false },
		{ "*", "", true },
		{ "*", "anything", true },
		{ "debian-*", "debian-6.1.0-13-amd64", true },
		{ "debian-*", "debia", false },
		{ "*-amd64", "debian-6.1.0-13-amd64", true },
		{ "*-amd64", "debian-6.1.0-13-arm64", false },
		{ "d*n*6*", "debian-6.1", true },
		{ "a*b*c", "abc", true },
		{ "a*b*c", "aXbYc", true },
		{ "a*b*c", "acb", false },
		{ "a**b", "ab", true },
		{ "?", "a", true },
		{ "?", "", false },
		{ "??", "a", false },
		{ "a?c", "abc", true },
		{ "[abc]x", "bx", true },
		{ "[abc]x", "dx", false },
		{ "[a-z]1", "q1", true },
		{ "[a-z]1", "Q1", false },
		{ "[!x]", "y", true },
		{ "[!x]", "x", false },
		{ "[^x]", "x", false },
		{ "[]]", "]", true },            /* ']' first in a class is literal */
		{ "[!]]", "a", true },
		{ "[a-]", "-", true },           /* '-' last is literal */
		{ "[0-9][0-9]", "42", true },
		{ "[", "[", true },              /* unclosed: literal '[' */
		{ "[ab", "[ab", true },
		{ "[ab", "a", false },
		{ "exact", "exact", true },
		{ "exact", "exactly", false },
		{ "Debian*", "debian-6", false }, /* case-sensitive */
		{ "*.conf", "x.conf", true },
		{ "*\xff*", "a\xff" "b", true },  /* bytes, not characters */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (glob_match(cases[i].pattern, cases[i].s) != cases[i].match)
			test_fail(__FILE__, __LINE__, "glob_match(\"%s\", \"%s\") != %d", cases[i].pattern, cases[i].s,
				  cases[i].match);
	CHECK(glob_match_suffixed("deb*.conf", "debian-6", ".conf"));
	CHECK(glob_match_suffixed("debian-6.c?nf", "debian-6", ".conf"));
	CHECK(!glob_match_suffixed("debian-6", "debian-6", ".conf"));
	CHECK(glob_match_suffixed("x", "x", NULL));
}

TEST(glob_match_no_backtracking_explosion)
{
	/* A recursive matcher takes exponential time here; this one is linear
	 * in pattern * string (a few hundred thousand steps). */
	char pattern[200], s[4001];
	size_t n = 0;

	for (int i = 0; i < 60; i++) {
		pattern[n++] = '*';
		pattern[n++] = 'a';
	}
	pattern[n++] = 'b';
	pattern[n] = '\0';
	memset(s, 'a', 4000);
	s[4000] = '\0';
	CHECK(!glob_match(pattern, s));
	s[3999] = 'b';
	CHECK(glob_match(pattern, s));
}

TEST(bls_find_default_rules)
{
	static const struct fake_entry f[] = {
		T1("debian-6.1.0-13-amd64", NULL, NULL, NULL),
		T1("debian-6.1.0-10-amd64", NULL, NULL, NULL),
		T1("fedora-39", NULL, NULL, NULL),
		T2("arch.efi", NULL, NULL, NULL),
		T2("arch-lts.efi", NULL, NULL, NULL),
	};
	size_t n = sizeof(f) / sizeof(f[0]);
	struct bls_entry *e = make_entries(f, n);
	struct bls_entry *p[5];

	for (size_t i = 0; i < n; i++)
		p[i] = &e[i];
	CHECK_EQ(bls_find_default(p, 0, "x"), SIZE_MAX);
	CHECK_EQ(bls_find_default(p, n, NULL), 0);
	CHECK_EQ(bls_find_default(p, n, ""), 0);
	CHECK_EQ(bls_find_default(p, n, "nothing-*"), 0);             /* no match: the first */
	CHECK_EQ(bls_find_default(p, n, "debian-*"), 0);              /* first match in order */
	CHECK_EQ(bls_find_default(p, n, "debian-6.1.0-10-amd64"), 1); /* the id */
	CHECK_EQ(bls_find_default(p, n, "debian-6.1.0-10-amd64.conf"), 1); /* systemd-boot's id */
	CHECK_EQ(bls_find_default(p, n, "*-10-*.conf"), 1);
	CHECK_EQ(bls_find_default(p, n, "fedora*"), 2);
	CHECK_EQ(bls_find_default(p, n, "arch.efi"), 3);              /* Type #2: as is */
	CHECK_EQ(bls_find_default(p, n, "arch-*"), 4);
	CHECK_EQ(bls_find_default(p, n, "arch-lts.efi.conf"), 0);     /* no ".conf" for Type #2 */
	CHECK_EQ(bls_find_default(p, n, "*.efi"), 3);
	free_entries(e, n);
}

TEST(bls_find_default_after_parse_and_sort)
{
	static const char *const files[] = { "debian-6.1.0-9-amd64.conf", "debian-6.1.0-13-amd64.conf",
					     "debian-6.1.0-10-amd64.conf" };
	struct bls_entry e[3], *p[3];

	for (size_t i = 0; i < 3; i++) {
		CHECK_EQ(bls_parse_entry("title Debian\nlinux /vmlinuz\n", 26, files[i], files[i], &e[i]), EFI_SUCCESS);
		p[i] = &e[i];
	}
	bls_sort(p, 3);
	CHECK_STR(p[0]->id, "debian-6.1.0-13-amd64"); /* newest first */
	CHECK_STR(p[1]->id, "debian-6.1.0-10-amd64");
	CHECK_STR(p[2]->id, "debian-6.1.0-9-amd64");
	/* loader.conf(5): "if more than one entry matches, the one with the
	 * highest priority" -- the newest */
	CHECK_EQ(bls_find_default(p, 3, "debian-*"), 0);
	for (size_t i = 0; i < 3; i++)
		bls_entry_free(&e[i]);
}
