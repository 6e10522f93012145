/* Boot Loader Specification Type #1 entry parsing (UAPI.1 keys, handoff's
 * "protocol"): every key, line syntax, malformed lines reported as
 * "path:line" with the rest still used. Order, versions, glob and default:
 * test_bls_order.c. */
#include "test.h"
#include "core/bls.h"
#include "core/config.h"
#include <stdlib.h>

#define EPATH "\\loader\\entries\\e.conf"

static EFI_STATUS parse_n(const char *text, size_t len, struct bls_entry *e)
{
	return bls_parse_entry(text, len, "e.conf", EPATH, e);
}

static EFI_STATUS parse(const char *text, struct bls_entry *e)
{
	return parse_n(text, strlen(text), e);
}

/* --- parsing ------------------------------------------------------------ */

TEST(bls_parse_spec_example)
{
	/* The complete drop-in example of UAPI.1 "Type #1 Boot Loader Entry Keys". */
	static const char text[] =
		"# /boot/loader/entries/6a9857a393724b7a981ebb5b8495b9ea-3.8.0-2.fc19.x86_64.conf\n"
		"title        Fedora 19 (Rawhide)\n"
		"sort-key     fedora\n"
		"machine-id   6a9857a393724b7a981ebb5b8495b9ea\n"
		"version      3.8.0-2.fc19.x86_64\n"
		"options      root=UUID=6d3376e4-fc93-4509-95ec-a21d68011da2 quiet\n"
		"architecture x64\n"
		"linux        /6a9857a393724b7a981ebb5b8495b9ea/3.8.0-2.fc19.x86_64/linux\n"
		"initrd       /6a9857a393724b7a981ebb5b8495b9ea/3.8.0-2.fc19.x86_64/initrd\n";
	struct bls_entry e;

	CHECK_EQ(bls_parse_entry(text, strlen(text), "6a9857a393724b7a981ebb5b8495b9ea-3.8.0-2.fc19.x86_64.conf",
				 "\\loader\\entries\\6a98.conf", &e), EFI_SUCCESS);
	CHECK_EQ(e.type, BLS_TYPE1);
	CHECK_STR(e.id, "6a9857a393724b7a981ebb5b8495b9ea-3.8.0-2.fc19.x86_64");
	CHECK_STR(e.path, "\\loader\\entries\\6a98.conf");
	CHECK_STR(e.title, "Fedora 19 (Rawhide)");
	CHECK_STR(e.sort_key, "fedora");
	CHECK_STR(e.machine_id, "6a9857a393724b7a981ebb5b8495b9ea");
	CHECK_STR(e.version, "3.8.0-2.fc19.x86_64");
	CHECK_STR(e.options, "root=UUID=6d3376e4-fc93-4509-95ec-a21d68011da2 quiet");
	CHECK_STR(e.kernel, "/6a9857a393724b7a981ebb5b8495b9ea/3.8.0-2.fc19.x86_64/linux");
	CHECK(e.efi == NULL);
	CHECK_EQ(e.n_initrd, 1);
	CHECK_STR(e.initrd[0], "/6a9857a393724b7a981ebb5b8495b9ea/3.8.0-2.fc19.x86_64/initrd");
	CHECK_EQ(e.protocol, SCHEME_AUTO);
	CHECK_EQ(e.n_errors, 0);
	CHECK(e.volume == NULL);
	CHECK_EQ(test_log_count(), 0);
	bls_entry_free(&e);
	CHECK(e.id == NULL && e.title == NULL && e.initrd == NULL && e.n_initrd == 0);
}

TEST(bls_parse_repeated_initrd_and_options_keep_order)
{
	struct bls_entry e;
	char text[4096];
	size_t len = 0;

	len += (size_t)sprintf(text + len, "linux /vmlinuz\noptions  root=/dev/sda1   ro \ninitrd /ucode.img\n");
	for (int i = 0; i < 10; i++)
		len += (size_t)sprintf(text + len, "initrd /i%d\n", i);
	len += (size_t)sprintf(text + len, "options quiet\n\toptions\tsplash=a  b\n");
	CHECK_EQ(parse_n(text, len, &e), EFI_SUCCESS);
	CHECK_EQ(e.n_initrd, 11);
	CHECK_STR(e.initrd[0], "/ucode.img");
	CHECK_STR(e.initrd[1], "/i0");
	CHECK_STR(e.initrd[10], "/i9");
	/* trimmed values, one space between lines, inner spacing kept */
	CHECK_STR(e.options, "root=/dev/sda1   ro quiet splash=a  b");
	CHECK_EQ(e.n_errors, 0);
	bls_entry_free(&e);
}

TEST(bls_parse_protocol_values)
{
	static const struct {
		const char *value;
		enum boot_scheme want;
	} cases[] = {
		{ "auto", SCHEME_AUTO }, { "stub", SCHEME_STUB }, { "handover", SCHEME_HANDOVER },
		{ "legacy", SCHEME_LEGACY },
	};
	static const char *const bad[] = { "Stub", "efi", "handover64", "legacy legacy",
					   "a-very-long-protocol-name-indeed" };
	struct bls_entry e;
	char text[128];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		snprintf(text, sizeof(text), "protocol legacy\nlinux /k\nprotocol %s\n", cases[i].value);
		CHECK_EQ(parse(text, &e), EFI_SUCCESS);
		CHECK_EQ(e.protocol, cases[i].want);
		CHECK_EQ(e.n_errors, 0);
		bls_entry_free(&e);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		test_log_reset();
		snprintf(text, sizeof(text), "linux /k\nprotocol %s\ntitle T\n", bad[i]);
		CHECK_EQ(parse(text, &e), EFI_SUCCESS);
		CHECK_EQ(e.protocol, SCHEME_AUTO);
		CHECK_EQ(e.n_errors, 1);
		CHECK_LOG(EPATH ":2: protocol '");
		CHECK_LOG("is not auto, stub, handover or legacy, ignored");
		CHECK_STR(e.title, "T"); /* the line after still counts */
		bls_entry_free(&e);
	}
}

TEST(bls_parse_nothing_to_boot)
{
	struct bls_entry e;

	CHECK_EQ(parse("title Only a title\nversion 1\noptions quiet\ninitrd /i\n", &e), EFI_LOAD_ERROR);
	CHECK_LOG(EPATH ": no 'linux', 'efi', 'uki' or 'uki-url': nothing to boot, entry skipped");
	CHECK(e.id == NULL && e.title == NULL && e.options == NULL && e.initrd == NULL);
	bls_entry_free(&e); /* harmless after a failure, as the loader does */
	test_log_reset();
	CHECK_EQ(parse("", &e), EFI_LOAD_ERROR);
	CHECK_LOG("nothing to boot");
	/* a "uki" with no value is a bad line: nothing is left to boot */
	test_log_reset();
	CHECK_EQ(parse("uki\nprofile 1\n", &e), EFI_LOAD_ERROR);
	CHECK_LOG(EPATH ":1: 'uki' has no value, ignored");
	CHECK_LOG("nothing to boot");
}

/* "uki PATH": a UKI in any directory, with the entry's title, sort key,
 * options, profile and extras (systemd-boot 257, UAPI.1). */
TEST(bls_parse_uki_entry)
{
	struct bls_entry e;

	CHECK_EQ(parse("title Fedora\nsort-key fedora\nuki /f/6.9/x.efi\noptions quiet\nprofile 2\n"
		       "extra /f/a.cred\nextra /f/b.sysext.raw\ninitrd /i\n", &e), EFI_SUCCESS);
	CHECK_STR(e.efi, "/f/6.9/x.efi");
	CHECK(e.uki && e.kernel == NULL && e.url == NULL);
	CHECK_STR(e.title, "Fedora");
	CHECK_STR(e.sort_key, "fedora");
	CHECK_STR(e.options, "quiet");
	CHECK_EQ(e.profile, 2);
	CHECK_EQ(e.n_extra, 2);
	CHECK_STR(e.extra[0], "/f/a.cred");
	CHECK_STR(e.extra[1], "/f/b.sysext.raw");
	CHECK_EQ(e.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	bls_entry_free(&e);
	CHECK(e.extra == NULL && e.n_extra == 0 && e.url == NULL);
	/* "efi" and "uki" name the one program: the last counts, said */
	CHECK_EQ(parse("uki /a.efi\nefi /b.efi\n", &e), EFI_SUCCESS);
	CHECK_STR(e.efi, "/b.efi");
	CHECK(!e.uki);
	CHECK_LOG(EPATH ":2: 'efi' given again, the last one counts");
	bls_entry_free(&e);
}

TEST(bls_parse_uki_url_entry)
{
	struct bls_entry e;

	CHECK_EQ(parse("uki-url http://10.0.2.100/x.efi\noptions a\n", &e), EFI_SUCCESS);
	CHECK_STR(e.url, "http://10.0.2.100/x.efi");
	CHECK(e.uki && e.efi == NULL);
	bls_entry_free(&e);
	/* one program: "linux", then "efi"/"uki", then "uki-url" */
	CHECK_EQ(parse("uki-url :x.efi\nuki /u.efi\n", &e), EFI_SUCCESS);
	CHECK_STR(e.efi, "/u.efi");
	CHECK(e.uki && e.url == NULL);
	CHECK_LOG(EPATH ": both 'uki' and 'uki-url' given: 'uki' is used");
	bls_entry_free(&e);
	test_log_reset();
	CHECK_EQ(parse("uki /u.efi\nuki-url :x.efi\nlinux /k\nprofile 1\n", &e), EFI_SUCCESS);
	CHECK_STR(e.kernel, "/k");
	CHECK(!e.uki && e.efi == NULL && e.url == NULL && e.profile == 0);
	CHECK_LOG(EPATH ": both 'linux' and 'uki' given: 'linux' is used");
	CHECK_LOG(EPATH ": both 'linux' and 'uki-url' given: 'linux' is used");
	CHECK_LOG(EPATH ": 'profile' is for a UKI: ignored");
	bls_entry_free(&e);
}

/* "profile N": decimal, up to UINT_MAX as systemd-boot; anything else is a
 * bad line, the rest of the entry still counts. */
TEST(bls_parse_profile_values)
{
	static const char *const bad[] = { "4294967296", "-1", "+1", "1x", "0x10", "99999999999999999999999" };
	struct bls_entry e;
	char text[128];

	CHECK_EQ(parse("uki /u.efi\nprofile 4294967295\n", &e), EFI_SUCCESS);
	CHECK_EQ(e.profile, UINT32_MAX);
	bls_entry_free(&e);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		test_log_reset();
		snprintf(text, sizeof(text), "uki /u.efi\nprofile 3\nprofile %s\ntitle T\n", bad[i]);
		CHECK_EQ(parse(text, &e), EFI_SUCCESS);
		CHECK_EQ(e.profile, 3);
		CHECK_EQ(e.n_errors, 1);
		CHECK_LOG(EPATH ":3: profile '");
		CHECK_LOG("is not a number up to 4294967295, ignored");
		CHECK_STR(e.title, "T");
		bls_entry_free(&e);
	}
}

TEST(bls_parse_extra_only_for_uki_or_kernel)
{
	struct bls_entry e;

	CHECK_EQ(parse("efi /shell.efi\nextra /a.cred\nprofile 1\n", &e), EFI_SUCCESS);
	CHECK(e.extra == NULL && e.n_extra == 0 && e.profile == 0);
	CHECK_LOG(EPATH ": 'extra' is for a UKI or a kernel: ignored");
	CHECK_LOG(EPATH ": 'profile' is for a UKI: ignored");
	bls_entry_free(&e);
	CHECK_EQ(parse("linux /k\nextra /a.cred\n", &e), EFI_SUCCESS);
	CHECK_EQ(e.n_extra, 1);
	bls_entry_free(&e);
}

TEST(bls_extra_kinds)
{
	const struct sidecar_spec *k;
	const char *name = NULL;

	CHECK((k = bls_extra_kind("/loader/x/a.cred", &name)) != NULL);
	CHECK_STR(name, "a.cred");
	CHECK(k && strcmp(k->target, ".extra/credentials") == 0 && k->dir_mode == 0500 && k->file_mode == 0400);
	CHECK((k = bls_extra_kind("\\EFI\\b.sysext.raw", &name)) != NULL);
	CHECK_STR(name, "b.sysext.raw");
	CHECK(k && strcmp(k->target, ".extra/sysext") == 0 && k->file_mode == 0444);
	CHECK((k = bls_extra_kind("c.confext.raw", &name)) != NULL && strcmp(k->target, ".extra/confext") == 0);
	CHECK(bls_extra_kind("/d/.cred", &name) == NULL);      /* nothing but the suffix */
	CHECK(bls_extra_kind("/d/e.raw", &name) == NULL);      /* systemd-boot's three only */
	CHECK(bls_extra_kind("/d/e.cred/", &name) == NULL);
	CHECK(bls_extra_kind("", &name) == NULL);
}

TEST(bls_url_resolve_relative)
{
	char *s;

	CHECK_STR((s = bls_url_resolve("http://a/b/u.efi", NULL)), "http://a/b/u.efi");
	mem_free(s);
	CHECK_STR((s = bls_url_resolve(":u.efi", "http://10.0.2.100/EFI/BOOT/BOOTX64.EFI")),
		  "http://10.0.2.100/EFI/BOOT/u.efi");
	mem_free(s);
	CHECK_STR((s = bls_url_resolve(":k/u.efi", "http://h/l.efi")), "http://h/k/u.efi");
	mem_free(s);
	CHECK(bls_url_resolve(":u.efi", NULL) == NULL); /* a disk boot has no URL to start from */
	CHECK(bls_url_resolve(":u.efi", "nothing") == NULL);
}

/* systemd-boot: "@N" opens the load options for profile N > 0, then a space
 * and the options when there are any. */
TEST(bls_load_options_profile_prefix)
{
	struct bls_entry e = { .profile = 0 };
	char *s;

	CHECK_STR((s = bls_load_options(&e, "quiet")), "quiet");
	mem_free(s);
	e.profile = 1;
	CHECK_STR((s = bls_load_options(&e, "")), "@1");
	mem_free(s);
	e.profile = 4294967295u;
	CHECK_STR((s = bls_load_options(&e, "root=/dev/vda1 quiet")), "@4294967295 root=/dev/vda1 quiet");
	mem_free(s);
}

TEST(bls_parse_efi_entry)
{
	struct bls_entry e;

	CHECK_EQ(parse("title Shell\nefi /EFI/tools/shell.efi\n", &e), EFI_SUCCESS);
	CHECK_STR(e.efi, "/EFI/tools/shell.efi");
	CHECK(e.kernel == NULL);
	bls_entry_free(&e);
}

TEST(bls_parse_linux_wins_over_efi)
{
	struct bls_entry e;

	CHECK_EQ(parse("efi /a.efi\nlinux /vmlinuz\n", &e), EFI_SUCCESS);
	CHECK_STR(e.kernel, "/vmlinuz");
	CHECK(e.efi == NULL);
	CHECK_LOG(EPATH ": both 'linux' and 'efi' given: 'linux' is used");
	bls_entry_free(&e);
}

TEST(bls_parse_duplicate_key_last_wins)
{
	struct bls_entry e;

	CHECK_EQ(parse("title A\nlinux /k1\ntitle B\nlinux /k2\nsort-key x\nsort-key y\n", &e), EFI_SUCCESS);
	CHECK_STR(e.title, "B");
	CHECK_STR(e.kernel, "/k2");
	CHECK_STR(e.sort_key, "y");
	CHECK_LOG(EPATH ":3: 'title' given again, the last one counts");
	CHECK_LOG(EPATH ":4: 'linux' given again, the last one counts");
	CHECK_LOG(EPATH ":6: 'sort-key' given again, the last one counts");
	CHECK_EQ(test_log_count(), 3);
	CHECK_EQ(e.n_errors, 0);
	bls_entry_free(&e);
}

TEST(bls_parse_architecture)
{
	struct bls_entry e;

	CHECK_EQ(parse("architecture x64\nlinux /k\n", &e), EFI_SUCCESS);
	bls_entry_free(&e);
	CHECK_EQ(parse("architecture X64\nlinux /k\n", &e), EFI_SUCCESS); /* case-insensitive (UAPI.1) */
	bls_entry_free(&e);
	CHECK_EQ(parse("architecture aa64\nlinux /k\n", &e), EFI_UNSUPPORTED); /* to be hidden (UAPI.1) */
	CHECK_LOG(EPATH ":1: architecture 'aa64' is not x64: entry not shown");
	CHECK_EQ(test_log_count(), 0); /* an info line, not a warning */
	CHECK(e.id == NULL && e.kernel == NULL);
	/* the last architecture line decides */
	CHECK_EQ(parse("architecture ia32\narchitecture x64\nlinux /k\n", &e), EFI_SUCCESS);
	bls_entry_free(&e);
}

/* The host parses as the AArch64 loader does (FW_NATIVE_DT); the x86
 * loaders leave "devicetree" out of the parser and say "'devicetree'
 * ignored: device trees are not used on x86-64" (a debug line). */
TEST(bls_parse_devicetree_is_kept)
{
	struct bls_entry e;

	CHECK_EQ(parse("linux /k\ndevicetree /a.dtb\ndevicetree-overlay /o1.dtbo /o2.dtbo\n", &e), EFI_SUCCESS);
	CHECK_EQ(test_log_count(), 0);
	CHECK_STR(e.devicetree, "/a.dtb");
	CHECK(!test_log_contains("'devicetree' ignored"));
	CHECK_LOG(EPATH ":3: 'devicetree-overlay' ignored: not applied");
	CHECK_EQ(e.n_errors, 0);
	bls_entry_free(&e);
	CHECK(e.devicetree == NULL);
}

TEST(bls_parse_devicetree_last_one_counts)
{
	struct bls_entry e;

	/* as systemd-boot, which keeps the last value; said, as other single keys */
	CHECK_EQ(parse("devicetree /a.dtb\nlinux /k\ndevicetree  \\dtbs\\b.dtb \n", &e), EFI_SUCCESS);
	CHECK_STR(e.devicetree, "\\dtbs\\b.dtb");
	CHECK_LOG(EPATH ":3: 'devicetree' given again, the last one counts");
	CHECK_EQ(test_log_count(), 1);
	bls_entry_free(&e);
	/* no value: a malformed line, reported, nothing kept */
	CHECK_EQ(parse("linux /k\ndevicetree\n", &e), EFI_SUCCESS);
	CHECK(e.devicetree == NULL);
	CHECK_EQ(e.n_errors, 1);
	bls_entry_free(&e);
	/* an entry that cannot boot frees it */
	CHECK_EQ(parse("devicetree /a.dtb\n", &e), EFI_LOAD_ERROR);
	CHECK(e.devicetree == NULL);
}

TEST(bls_parse_unknown_key_warns)
{
	struct bls_entry e;

	CHECK_EQ(parse("linux /k\nlinuxefi /k2\ntitle T\n", &e), EFI_SUCCESS);
	CHECK_LOG(EPATH ":2: unknown key 'linuxefi', ignored");
	CHECK_EQ(e.n_errors, 0);
	CHECK_STR(e.title, "T");
	bls_entry_free(&e);
}

TEST(bls_parse_malformed_lines_are_skipped)
{
	static const char head[] = "\xef\xbb\xbftitle\r\n"     /* 1: no value */
				   "linux /k\r\n"              /* 2 */
				   "version 1\0 2\r\n"         /* 3: NUL */
				   "protocol fast\r\n"         /* 4: bad protocol */
				   "options a\r\n";            /* 5 */
	static const char tail[] = "\r\noptions b\r\n"     /* 7 */
				   "sort-key s";              /* 8, no line end */
	size_t len = sizeof(head) - 1, n_long = 5000;
	char *text = malloc(len + n_long + sizeof(tail));
	struct bls_entry e;

	memcpy(text, head, len);
	memcpy(text + len, "options ", 8); /* 6: too long */
	memset(text + len + 8, 'x', n_long - 8);
	len += n_long;
	memcpy(text + len, tail, sizeof(tail) - 1);
	len += sizeof(tail) - 1;
	CHECK_EQ(parse_n(text, len, &e), EFI_SUCCESS);
	CHECK_LOG(EPATH ":1: 'title' has no value, ignored");
	CHECK_LOG(EPATH ":3: NUL byte in line, ignored");
	CHECK_LOG(EPATH ":4: protocol 'fast'");
	CHECK_LOG(EPATH ":6: line longer than 4096 bytes (5000), ignored");
	CHECK_EQ(e.n_errors, 4);
	CHECK(e.title == NULL && e.version == NULL);
	CHECK_STR(e.kernel, "/k");
	CHECK_STR(e.options, "a b");
	CHECK_STR(e.sort_key, "s");
	bls_entry_free(&e);
	free(text);
}

TEST(bls_parse_id_from_filename)
{
	static const struct {
		const char *filename, *id;
	} cases[] = {
		{ "debian-6.1.0-13-amd64.conf", "debian-6.1.0-13-amd64" },
		{ "ARCH.CONF", "ARCH" },              /* FAT keeps no case */
		{ "x.conf.conf", "x.conf" },
		{ "noext", "noext" },
		{ "a.confx", "a.confx" },
		{ ".conf", ".conf" },                 /* nothing would be left */
		{ "fedora+3-0.conf", "fedora" },       /* boot counter dropped, as systemd-boot and bootctl */
		{ "fedora+3.conf", "fedora" },
		{ "a+b+0-7.CONF", "a+b" },             /* the last '+' counts */
		{ "fedora+3x.conf", "fedora+3x" },     /* not a counter: the name stays */
	};
	struct bls_entry e;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		CHECK_EQ(bls_parse_entry("linux /k", 8, cases[i].filename, NULL, &e), EFI_SUCCESS);
		CHECK_STR(e.id, cases[i].id);
		CHECK_STR(e.path, cases[i].filename); /* no path given: the file name */
		bls_entry_free(&e);
	}
}

TEST(bls_parse_boot_counter)
{
	struct bls_entry e;

	CHECK_EQ(bls_parse_entry("linux /k", 8, "d-6.1+2-1.conf", NULL, &e), EFI_SUCCESS);
	CHECK(e.counted);
	CHECK_EQ(e.tries_left, 2);
	CHECK_EQ(e.tries_done, 1);
	bls_entry_free(&e);
	CHECK_EQ(bls_parse_entry("linux /k", 8, "d-6.1+0.conf", NULL, &e), EFI_SUCCESS);
	CHECK(e.counted);
	CHECK_EQ(e.tries_left, 0);
	CHECK_EQ(e.tries_done, 0);
	bls_entry_free(&e);
	CHECK_EQ(bls_parse_entry("linux /k", 8, "d-6.1.conf", NULL, &e), EFI_SUCCESS);
	CHECK(!e.counted);
	bls_entry_free(&e);
}

/* Same id, counters differ: an uncounted entry ranks as unlimited tries, so
 * the order is total (the fuzzer found a counted/uncounted/counted cycle). */
TEST(bls_sort_counted_and_uncounted_alike)
{
	struct bls_entry a = { .id = "a", .counted = true, .tries_left = 3, .tries_done = 5 };
	struct bls_entry b = { .id = "a" };
	struct bls_entry c = { .id = "a", .counted = true, .tries_left = 4 };
	struct bls_entry d = { .id = "a", .counted = true, .tries_left = 3, .tries_done = 1 };
	struct bls_entry *v[] = { &a, &b, &c, &d };
	const struct bls_entry *want[] = { &b, &c, &d, &a };

	CHECK(bls_entry_cmp(&a, &c) > 0);
	CHECK(bls_entry_cmp(&b, &a) < 0);
	CHECK(bls_entry_cmp(&b, &c) < 0);
	bls_sort(v, 4);
	for (size_t i = 0; i < 4; i++)
		CHECK(v[i] == want[i]);
}

TEST(bls_display_title_forms)
{
	struct bls_entry e = { .id = "debian-6.1", .title = "Debian", .version = "6.1.0" };
	char *s;

	s = bls_display_title(&e);
	CHECK_STR(s, "Debian (6.1.0)");
	mem_free(s);
	e.version = NULL;
	s = bls_display_title(&e);
	CHECK_STR(s, "Debian");
	mem_free(s);
	e.title = NULL;
	e.version = "6.1.0";
	s = bls_display_title(&e);
	CHECK_STR(s, "debian-6.1");
	mem_free(s);
}

/* --- cases from the first implementation on main, kept ------------------------ */

static EFI_STATUS parse_file(const char *text, const char *file, struct bls_entry *e)
{
	test_log_reset();
	return bls_parse_entry(text, strlen(text), file, file, e);
}

TEST(bls_entry_all_keys)
{
	struct bls_entry e;

	CHECK_EQ(parse_file("title Debian\nversion 6.1.0-13\nmachine-id abc\nsort-key debian\n"
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

	CHECK_EQ(parse_file("title A\r\nprotocol uefi\r\nlinux\r\nlinux /k\r\nbogus key\r\ntitle B\r\n", "x.conf", &e),
		 EFI_SUCCESS);
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

	CHECK_EQ(parse_file("title nothing\noptions quiet\n", "empty.conf", &e), EFI_LOAD_ERROR);
	CHECK_LOG("empty.conf: no 'linux', 'efi', 'uki' or 'uki-url'");
	CHECK_EQ(parse_file("efi /EFI/tools/shell.efi\n", "shell.conf", &e), EFI_SUCCESS);
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
			test_fail(__FILE__, __LINE__, "cmp(\"%s\", \"%s\") = %d / %d, want %d", t[i].a, t[i].b, r, back,
				  t[i].want);
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
	static const char *const want[] = {"arch",    "deb-other-machine", "deb-new",
					   "deb-old", "zz-nokey-5.10",	   "zz-nokey-5.2"};

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
	static const struct { const char *p, *s; bool want;
	} t[] = {
		{"*", "", true},
		{"*", "abc", true},
		{"a*c", "abbbc", true},
		{"a*c", "abcd", false},
		{"?b", "ab", true},
		{"?b", "b", false},
		{"[a-c]x", "bx", true},
		{"[!a-c]x", "bx", false},
		{"[!a-c]x", "dx", true},
		{"debian-*.conf", "debian-6.1.conf", true},
		{"*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false},
		{"abc", "abc", true},
		{"abc", "ab", false},
		{"[]]", "]", true},
		{"a[", "a[", true}, /* unclosed: '[' is literal, as POSIX fnmatch */
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
	mem_free(s);
	e.version = NULL;
	s = bls_display_title(&e);
	CHECK_STR(s, "Debian");
	mem_free(s);
	e.title = NULL;
	s = bls_display_title(&e);
	CHECK_STR(s, "x");
	mem_free(s);
}

TEST(bls_auto_entries_ids_and_order)
{
	struct bls_entry **v = NULL;
	size_t n = 0;

	CHECK_EQ(bls_add_auto_entries(CFG_AUTO_FIRMWARE | CFG_AUTO_REBOOT | CFG_AUTO_POWEROFF, true, &v, &n),
		 EFI_SUCCESS);
	CHECK_EQ(n, 3);
	CHECK_STR(v[0]->id, "auto-reboot-to-firmware-setup");
	CHECK_STR(v[0]->title, "Reboot Into Firmware Interface");
	CHECK_EQ(v[0]->auto_action, BLS_AUTO_FIRMWARE);
	CHECK_STR(v[1]->id, "auto-poweroff");
	CHECK_EQ(v[1]->auto_action, BLS_AUTO_POWEROFF);
	CHECK_STR(v[2]->id, "auto-reboot");
	CHECK_EQ(v[2]->auto_action, BLS_AUTO_REBOOT);
	for (size_t i = 0; i < n; i++) {
		CHECK_EQ(v[i]->type, BLS_AUTO);
		CHECK(!v[i]->kernel && !v[i]->efi);
	}
	/* without firmware support there is no firmware entry */
	CHECK_EQ(bls_add_auto_entries(CFG_AUTO_FIRMWARE | CFG_AUTO_REBOOT, false, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, 4);
	CHECK_STR(v[3]->id, "auto-reboot");
	CHECK_EQ(bls_add_auto_entries(0, true, &v, &n), EFI_SUCCESS);
	CHECK_EQ(n, 4);
	for (size_t i = 0; i < n; i++) {
		bls_entry_free(v[i]);
		free(v[i]);
	}
	free(v);
}

/* One rule for a UKI's menu text and order, shared by the loader and the tool. */
TEST(bls_entry_from_uki_osrel_fields)
{
	static const char osrel[] =
		"NAME=Debian\nPRETTY_NAME=\"Debian 13\"\nID=debian\nVERSION_ID=13\nIMAGE_ID=appliance\n";
	struct bls_entry e = { 0 };

	CHECK_EQ(
		bls_entry_from_uki(&e, "debian-6.12.efi", "/EFI/Linux/debian-6.12.efi", osrel, sizeof(osrel) - 1, true),
		EFI_SUCCESS);
	CHECK_EQ(e.type, BLS_TYPE2);
	CHECK_STR(e.id, "debian-6.12.efi");
	CHECK_STR(e.title, "Debian 13");
	CHECK_STR(e.version, "13");
	CHECK_STR(e.sort_key, "appliance");
	CHECK(e.uki_cmdline);
	bls_entry_free(&e);
	CHECK_EQ(bls_entry_from_uki(&e, "bare+2-1.efi", "/EFI/Linux/bare+2-1.efi", NULL, 0, false), EFI_SUCCESS);
	CHECK_STR(e.id, "bare.efi");        /* the boot counter is not part of the id */
	CHECK(e.title == NULL && e.sort_key == NULL && !e.uki_cmdline);
	bls_entry_free(&e);
}
