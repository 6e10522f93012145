/* BLS entries: parsing with malformed lines, version comparison, sort order,
 * globs and default selection. */
#include "test.h"
#include "core/bls.h"
#include <stdlib.h>

static EFI_STATUS parse(const char *text, const char *file, struct bls_entry *e)
{
	test_log_reset();
	return bls_parse_entry(text, strlen(text), file, file, e);
}

TEST(bls_entry_all_keys)
{
	struct bls_entry e;

	CHECK_EQ(parse("title Debian\nversion 6.1.0-13\nmachine-id abc\nsort-key debian\n"
		       "linux /debian/vmlinuz\ninitrd /debian/ucode.img\ninitrd /debian/initrd.img\n"
		       "options root=/dev/vda1\noptions  quiet  splash\nprotocol legacy\narchitecture x64\n",
		       "debian-6.1.0-13.conf", &e), EFI_SUCCESS);
	CHECK_STR(e.id, "debian-6.1.0-13");
	CHECK_STR(e.title, "Debian");
	CHECK_STR(e.version, "6.1.0-13");
	CHECK_STR(e.machine_id, "abc");
	CHECK_STR(e.sort_key, "debian");
	CHECK_STR(e.kernel, "/debian/vmlinuz");
	CHECK_EQ(e.n_initrd, 2);
	CHECK_STR(e.initrd[0], "/debian/ucode.img");
	CHECK_STR(e.initrd[1], "/debian/initrd.img");
	CHECK_STR(e.options, "root=/dev/vda1 quiet  splash");
	CHECK_EQ(e.protocol, SCHEME_LEGACY);
	CHECK_EQ(e.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	bls_entry_free(&e);
}

TEST(bls_entry_malformed_lines)
{
	struct bls_entry e;

	CHECK_EQ(parse("title A\r\nprotocol uefi\r\nlinux\r\nlinux /k\r\nbogus key\r\ntitle B\r\n", "x.conf", &e), EFI_SUCCESS);
	CHECK_EQ(e.n_errors, 2);
	CHECK_LOG("x.conf:2: protocol 'uefi'");
	CHECK_LOG("x.conf:3: 'linux' has no value");
	CHECK_LOG("x.conf:5: unknown key 'bogus'");
	CHECK_LOG("x.conf:6: 'title' given again");
	CHECK_STR(e.title, "B");
	CHECK_STR(e.kernel, "/k");
	CHECK_EQ(e.protocol, SCHEME_AUTO);
	bls_entry_free(&e);
}

TEST(bls_entry_without_kernel_is_rejected)
{
	struct bls_entry e;

	CHECK_EQ(parse("title nothing\noptions quiet\n", "empty.conf", &e), EFI_LOAD_ERROR);
	CHECK_LOG("empty.conf: neither 'linux' nor 'efi'");
	CHECK_EQ(parse("efi /EFI/tools/shell.efi\n", "shell.conf", &e), EFI_SUCCESS);
	CHECK_STR(e.efi, "/EFI/tools/shell.efi");
	bls_entry_free(&e);
}

TEST(bls_version_cmp_rules)
{
	static const struct { const char *a, *b; int want; } t[] = {
		{ "1", "1", 0 }, { "01", "1", 0 }, { "5.2", "5.10", -1 }, { "6.1.0-13", "6.1.0-9", 1 },
		{ "123", "123a", -1 }, { "123a", "123b", -1 }, { "abc", "abcd", -1 }, { "a", "1", -1 },
		{ "123~rc1", "123", -1 }, { "123~rc1", "123~rc2", -1 }, { "123", "123.1", -1 },
		{ "123^post1", "123", 1 }, { "123^post1", "123.1", -1 }, { "1.0-1", "1.0.1", -1 },
		{ "systemd-123", "systemd-124", -1 }, { "bar-123", "foo-123", -1 }, { "1_2", "1.2", 1 },
		{ "6.1.0-13-amd64", "6.1.0-13-amd64", 0 }, { "", "1", -1 }, { "2", "10", -1 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		int r = bls_version_cmp(t[i].a, t[i].b), back = bls_version_cmp(t[i].b, t[i].a);
		if (r != t[i].want || back != -t[i].want)
			test_fail(__FILE__, __LINE__, "cmp(\"%s\", \"%s\") = %d / %d, want %d", t[i].a, t[i].b, r, back, t[i].want);
	}
}

static struct bls_entry *mk(const char *id, const char *sort_key, const char *machine_id, const char *version)
{
	struct bls_entry *e = calloc(1, sizeof(*e));
	e->id = (char *)id;
	e->sort_key = (char *)sort_key;
	e->machine_id = (char *)machine_id;
	e->version = (char *)version;
	return e;
}

TEST(bls_sort_order)
{
	struct bls_entry *v[] = {
		mk("zz-nokey-5.2", NULL, NULL, NULL),
		mk("arch", "arch", NULL, "1"),
		mk("deb-old", "debian", "m1", "6.1.0-9"),
		mk("zz-nokey-5.10", NULL, NULL, NULL),
		mk("deb-new", "debian", "m1", "6.1.0-13"),
		mk("deb-other-machine", "debian", "m0", "1"),
	};
	static const char *const want[] = { "arch", "deb-other-machine", "deb-new", "deb-old", "zz-nokey-5.10", "zz-nokey-5.2" };

	bls_sort(v, 6);
	for (size_t i = 0; i < 6; i++)
		CHECK_STR(v[i]->id, want[i]);
	CHECK_EQ(bls_find_default(v, 6, "deb-*"), 1);  /* the first match in sorted order */
	CHECK_EQ(bls_find_default(v, 6, "deb-n*"), 2);
	CHECK_EQ(bls_find_default(v, 6, "zz-nokey-5.2.conf"), 5);
	CHECK_EQ(bls_find_default(v, 6, "nothing"), 0);
	CHECK_EQ(bls_find_default(v, 6, NULL), 0);
	CHECK_EQ(bls_find_default(v, 0, "x"), SIZE_MAX);
	for (size_t i = 0; i < 6; i++)
		free(v[i]);
}

TEST(bls_glob)
{
	static const struct { const char *p, *s; bool want; } t[] = {
		{ "*", "", true }, { "*", "abc", true }, { "a*c", "abbbc", true }, { "a*c", "abcd", false },
		{ "?b", "ab", true }, { "?b", "b", false }, { "[a-c]x", "bx", true }, { "[!a-c]x", "bx", false },
		{ "[!a-c]x", "dx", true }, { "debian-*.conf", "debian-6.1.conf", true }, { "*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		{ "abc", "abc", true }, { "abc", "ab", false }, { "[]]", "]", true }, { "a[", "a[", false },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		if (glob_match(t[i].p, t[i].s) != t[i].want)
			test_fail(__FILE__, __LINE__, "glob(\"%s\", \"%s\") != %d", t[i].p, t[i].s, t[i].want);
}

TEST(bls_display_title)
{
	struct bls_entry e = { .id = (char *)"x", .title = (char *)"Debian", .version = (char *)"6.1" };
	char *s = bls_display_title(&e);

	CHECK_STR(s, "Debian (6.1)");
	free(s);
	e.version = NULL;
	s = bls_display_title(&e);
	CHECK_STR(s, "Debian");
	free(s);
	e.title = NULL;
	s = bls_display_title(&e);
	CHECK_STR(s, "x");
	free(s);
}
