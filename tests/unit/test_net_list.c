/* loader/entries.list (src/core/net_list.c): paths, pins, comments and the
 * line syntax shared with loader.conf, malformed lines (near-miss pins among
 * them) named by file:line, skipped and counted; directory lookups for the
 * network file system. */
#include "test.h"
#include "core/net_list.h"
#include <stdlib.h>

#define NAME "http://srv/loader/entries.list"
#define HEX_A "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
#define REFUSED                                                                                      \
	"' is not an entry file (loader/entries/NAME.conf, EFI/Linux/NAME.efi), 'sha256 HEX PATH' nor 'host MAC " \
	"PATH' (a PATH: one word, below the root), ignored"
#define HEX_A_57 "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b" /* a message quotes 64 bytes */

static struct net_list parse(const char *text)
{
	struct net_list l;

	CHECK_EQ(net_list_parse(text, strlen(text), NAME, &l), EFI_SUCCESS);
	return l;
}

TEST(net_list_paths_and_pins)
{
	struct net_list l = parse("\xef\xbb\xbf# the fleet\r\n"
				  "loader/entries/debian.conf\r\n"
				  "  /EFI/Linux/uki.efi  \n"
				  "\n"
				  "sha256 " HEX_A " debian/vmlinuz\n"
				  "sha256\t" HEX_A "\t\\debian\\initrd.img");

	CHECK_EQ(l.n_errors, 0);
	CHECK_EQ(test_log_count(), 0);
	CHECK_EQ(l.n, 4);
	CHECK_STR(l.items[0].path, "loader/entries/debian.conf");
	CHECK_STR(l.items[1].path, "EFI/Linux/uki.efi");
	CHECK(!l.items[0].pinned && !l.items[1].pinned && l.items[2].pinned && l.items[3].pinned);
	CHECK_STR(l.items[2].path, "debian/vmlinuz");
	CHECK_STR(l.items[3].path, "debian/initrd.img");
	CHECK_EQ(l.items[2].sha256[0], 0x9f);
	CHECK_EQ(l.items[2].sha256[31], 0x08);
	CHECK(net_list_pin(&l, "debian/vmlinuz") == l.items[2].sha256);
	CHECK(net_list_pin(&l, "DEBIAN/VMLINUZ") == l.items[2].sha256); /* a case-insensitive server */
	CHECK(net_list_pin(&l, "debian/vmlinuz.old") == NULL);
	CHECK(net_list_pin(&l, "loader/entries/debian.conf") == NULL); /* listed, not pinned */
	CHECK(net_list_vouches(&l, "loader/entries/debian.conf"));       /* listed or pinned: the loader needs it */
	CHECK(net_list_vouches(&l, "EFI/Linux/uki.efi"));
	CHECK(net_list_vouches(&l, "DEBIAN/vmlinuz"));
	CHECK(!net_list_vouches(&l, "debian/vmlinuz.old"));
	CHECK(!net_list_vouches(&l, "loader/entries"));
	net_list_free(&l);
	CHECK(l.items == NULL && l.n == 0);
}

TEST(net_list_bad_lines_are_named_and_skipped)
{
	struct net_list l = parse("../outside.conf\n"
				  "sha256 1234 debian/vmlinuz\n"
				  "sha256 " HEX_A "\n"
				  "sha256 " HEX_A " ../x\n"
				  "sha256 " HEX_A "Z debian/vmlinuz\n"
				  "/\n"
				  "loader/entries/ok.conf\n");

	CHECK_EQ(l.n_errors, 6);
	CHECK_LOG(NAME ":1: '../outside.conf" REFUSED);
	CHECK_LOG(NAME ":2: 'sha256 1234 debian/vmlinuz" REFUSED);
	CHECK_LOG(NAME ":3: 'sha256 " HEX_A_57 REFUSED);
	CHECK_LOG(NAME ":4: 'sha256 " HEX_A_57 REFUSED); /* the line is quoted */
	CHECK_LOG(NAME ":5: 'sha256 " HEX_A_57 REFUSED);
	CHECK_LOG(NAME ":6: '/" REFUSED);
	CHECK_EQ(l.n, 1);
	CHECK_STR(l.items[0].path, "loader/entries/ok.conf");
	CHECK(!l.items[0].pinned);
	net_list_free(&l);
}

TEST(net_list_nul_and_long_lines)
{
	static const char text[] = "a/b.conf\0x\nloader/entries/c.conf\n";
	char *long_line = malloc(5000);
	struct net_list l;

	CHECK_EQ(net_list_parse(text, sizeof(text) - 1, NAME, &l), EFI_SUCCESS);
	CHECK_EQ(l.n_errors, 1);
	CHECK_LOG(NAME ":1: line longer than 4096 bytes or with a NUL byte, ignored");
	CHECK_EQ(l.n, 1);
	net_list_free(&l);
	memset(long_line, 'a', 5000);
	CHECK_EQ(net_list_parse(long_line, 5000, NAME, &l), EFI_SUCCESS);
	CHECK_EQ(l.n_errors, 1);
	CHECK_EQ(l.n, 0);
	net_list_free(&l);
	free(long_line);
	CHECK_EQ(net_list_parse("", 0, NAME, &l), EFI_SUCCESS);
	CHECK_EQ(l.n + l.n_errors, 0);
}

TEST(net_list_directories)
{
	struct net_list l = parse("loader/entries/a.conf\n"
				  "sha256 " HEX_A " loader/entries/pinned-only.conf\n"
				  "sha256 " HEX_A " loader/entries/sub/pinned.conf\n"
				  "EFI/Linux/u.efi\n"
				  "loader/entries/c.conf\n");
	size_t cursor = 0;

	CHECK_STR(net_list_next_in(&l, "loader/entries", &cursor), "a.conf");
	CHECK_STR(net_list_next_in(&l, "loader/entries", &cursor), "c.conf");
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	cursor = 0;
	CHECK_STR(net_list_next_in(&l, "EFI/Linux", &cursor), "u.efi");
	CHECK(net_list_has_dir(&l, "loader/entries"));
	CHECK(!net_list_has_dir(&l, "loader/entries/sub")); /* pins make no directories */
	CHECK(net_list_has_dir(&l, "loader"));
	CHECK(net_list_has_dir(&l, ""));
	CHECK(!net_list_has_dir(&l, "loader/entr"));
	CHECK(!net_list_has_dir(&l, "loader/entries/a.conf"));
	CHECK(!net_list_has_dir(&l, "EFI/linux")); /* paths are exact; only pins ignore case */
	net_list_free(&l);
}

/* The review's near misses (issue 31): each refused by file and line, none
 * taken as a path or as a pin of another path. */
TEST(net_list_near_miss_lines_are_refused)
{
	struct net_list l = parse("SHA256 " HEX_A " debian/vmlinuz\n"
				  "sha256: " HEX_A " debian/vmlinuz\n"
				  "sha256 " HEX_A " debian/vmlinuz # the kernel\n"
				  "sha256 " HEX_A "0 debian/vmlinuz\n"
				  "sha256 0" HEX_A " debian/vmlinuz\n"
				  "sha256 " HEX_A " debian/vmlinuz#x\n"
				  "sha256:" HEX_A "\n"
				  "sha-256 " HEX_A " debian/vmlinuz\n"
				  "debian/vmlinuz\n"
				  "loader/entries/a b.conf\n"
				  "loader/entries/a.conf # a comment\n"
				  "Loader/Entries/x.conf\n"
				  "loader/entries/x.txt\n"
				  "loader/entries/sub/x.conf\n"
				  "loader/entries/.conf\n"
				  "sha256\t" HEX_A "\t debian/initrd.img\n"
				  "EFI/Linux/U.EFI\n");

	CHECK_EQ(l.n_errors, 15);
	CHECK_LOG(NAME ":1: 'SHA256 " HEX_A_57 REFUSED);
	CHECK_LOG(NAME ":2: 'sha256: ");
	CHECK_LOG(NAME ":3: 'sha256 ");
	CHECK_LOG(NAME ":4: 'sha256 ");
	CHECK_LOG(NAME ":5: 'sha256 0");
	CHECK_LOG(NAME ":6: 'sha256 " HEX_A_57 REFUSED);
	CHECK_LOG(NAME ":7: 'sha256:" HEX_A_57 REFUSED);
	CHECK_LOG(NAME ":8: 'sha-256 ");
	CHECK_LOG(NAME ":9: 'debian/vmlinuz" REFUSED);
	CHECK_LOG(NAME ":10: 'loader/entries/a b.conf" REFUSED);
	CHECK_LOG(NAME ":11: 'loader/entries/a.conf # a comment" REFUSED);
	CHECK_LOG(NAME ":12: 'Loader/Entries/x.conf" REFUSED);
	CHECK_LOG(NAME ":13: 'loader/entries/x.txt" REFUSED);
	CHECK_LOG(NAME ":14: 'loader/entries/sub/x.conf" REFUSED);
	CHECK_LOG(NAME ":15: 'loader/entries/.conf" REFUSED);
	CHECK_EQ(l.n, 2);
	CHECK_STR(l.items[0].path, "debian/initrd.img");
	CHECK(l.items[0].pinned);
	CHECK_STR(l.items[1].path, "EFI/Linux/U.EFI");
	CHECK(!l.items[1].pinned);
	CHECK(!net_list_vouches(&l, "debian/vmlinuz"));
	net_list_free(&l);
}

TEST(net_list_words_and_entry_files)
{
	CHECK(net_list_word_ok("loader/entries/a.conf", 21));
	CHECK(net_list_word_ok("\xc3\xa9.conf", 7));   /* UTF-8 is a word */
	CHECK(!net_list_word_ok("", 0));
	CHECK(!net_list_word_ok("a b", 3));
	CHECK(!net_list_word_ok("a\tb", 3));
	CHECK(!net_list_word_ok("a#b", 3));
	CHECK(!net_list_word_ok("a\x7f", 2));
	CHECK(!net_list_word_ok("a\nb", 3));
	CHECK(net_list_entry_file("loader/entries/a.conf"));
	CHECK(net_list_entry_file("loader/entries/A.CONF"));
	CHECK(net_list_entry_file("EFI/Linux/u.efi"));
	CHECK(!net_list_entry_file("loader/entries/.conf"));
	CHECK(!net_list_entry_file("loader/entries/a.conf.old"));
	CHECK(!net_list_entry_file("loader/entries/d/a.conf"));
	CHECK(!net_list_entry_file("EFI/linux/u.efi")); /* the loader lists EFI/Linux, exactly */
	CHECK(!net_list_entry_file("EFI/Linux/u.conf"));
	CHECK(!net_list_entry_file("loader/entries.conf"));
}

static const uint8_t mac_a[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static const uint8_t mac_b[6] = { 0x52, 0x54, 0x00, 0xab, 0xcd, 0xef };

TEST(net_list_host_lines_name_a_machine_s_list)
{
	static const uint8_t mac_c[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x57 };
	struct net_list l = parse("host 52:54:00:12:34:56 loader/hosts/web.list\n"
				  "host\t52-54-00-AB-CD-EF\t/loader/hosts/db.list\n"
				  "host 52:54:00:12:34:56 loader/hosts/second.list\n"
				  "loader/entries/a.conf\n");

	CHECK_EQ(l.n_errors, 0);
	CHECK_EQ(l.n, 4);
	CHECK_EQ(l.items[0].host_len, 6);
	CHECK_MEM(l.items[0].host, mac_a, 6);
	CHECK_EQ(l.items[1].host_len, 6);
	CHECK_MEM(l.items[1].host, mac_b, 6);
	CHECK_STR(l.items[1].path, "loader/hosts/db.list");
	CHECK(!l.items[0].pinned && !l.items[1].pinned && l.items[3].host_len == 0);
	CHECK_STR(net_list_host(&l, mac_a), "loader/hosts/web.list"); /* the first line that names it */
	CHECK_STR(net_list_host(&l, mac_b), "loader/hosts/db.list");
	CHECK(net_list_host(&l, mac_c) == NULL);
	CHECK(net_list_host(&l, NULL) == NULL);
	CHECK(net_list_vouches(&l, "loader/hosts/web.list"));
	CHECK(net_list_pin(&l, "loader/hosts/web.list") == NULL);
	CHECK(!net_list_has_dir(&l, "loader/hosts")); /* host lines are not entries */
	net_list_free(&l);
}

TEST(net_list_bad_host_lines_are_refused)
{
	struct net_list l = parse("host 52:54:00:12:34 loader/hosts/a.list\n"
				  "host 52:54:00:12:34:56:78 loader/hosts/a.list\n"
				  "host 52.54.00.12.34.56 loader/hosts/a.list\n"
				  "host 52:54:00:12:34:5g loader/hosts/a.list\n"
				  "host 4c4c4544-0035-3410-8053-b4c04f4e4d32 loader/hosts/a.list\n"
				  "host 5254:0012:3456 loader/hosts/a.list\n"
				  "host 52:54:00:12:34:56\n"
				  "host 52:54:00:12:34:56 ../a.list\n"
				  "host 52:54:00:12:34:56 loader/hosts/a.list x\n"
				  "HOST 52:54:00:12:34:56 loader/hosts/a.list\n"
				  "hosts 52:54:00:12:34:56 loader/hosts/a.list\n");

	CHECK_EQ(l.n_errors, 11);
	CHECK_EQ(l.n, 0);
	CHECK_LOG(NAME ":1: 'host 52:54:00:12:34 loader/hosts/a.list" REFUSED);
	CHECK_LOG(NAME ":2: 'host 52:54:00:12:34:56:78 loader/hosts/a.list" REFUSED);
	CHECK_LOG(NAME ":3: ");
	CHECK_LOG(NAME ":4: ");
	CHECK_LOG(NAME ":5: ");
	CHECK_LOG(NAME ":6: ");
	CHECK_LOG(NAME ":7: 'host 52:54:00:12:34:56" REFUSED);
	CHECK_LOG(NAME ":8: ");
	CHECK_LOG(NAME ":9: ");
	CHECK_LOG(NAME ":10: 'HOST ");
	CHECK_LOG(NAME ":11: 'hosts ");
	CHECK(net_list_host(&l, mac_a) == NULL);
	net_list_free(&l);
}

/* The machine's list replaces entries.list's entries; pins of both hold;
 * a host line in it is refused (one level). */
TEST(net_list_host_list_replaces_the_entries)
{
	static const char host[] = "loader/entries/db.conf\n"
				   "sha256 " HEX_A " db/vmlinuz\n"
				   "host 52:54:00:ab:cd:ef loader/hosts/other.list\n"
				   "EFI/Linux/db.efi\n";
	struct net_list l = parse("loader/entries/a.conf\n"
				  "sha256 " HEX_A " loader/hosts/db.list\n"
				  "host 52:54:00:12:34:56 loader/hosts/db.list\n"
				  "EFI/Linux/a.efi\n");
	size_t cursor = 0;

	CHECK_EQ(net_list_parse_host(host, sizeof(host) - 1, "loader/hosts/db.list", &l), EFI_SUCCESS);
	CHECK_EQ(l.n_errors, 1);
	CHECK_LOG("loader/hosts/db.list:3: 'host 52:54:00:ab:cd:ef loader/hosts/other.list" REFUSED);
	CHECK_EQ(l.n, 5);
	CHECK_STR(net_list_next_in(&l, "loader/entries", &cursor), "db.conf");
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	cursor = 0;
	CHECK_STR(net_list_next_in(&l, "EFI/Linux", &cursor), "db.efi");
	CHECK(net_list_next_in(&l, "EFI/Linux", &cursor) == NULL);
	CHECK(!net_list_vouches(&l, "loader/entries/a.conf"));
	CHECK(!net_list_vouches(&l, "EFI/Linux/a.efi"));
	CHECK(net_list_pin(&l, "loader/hosts/db.list") != NULL);
	CHECK(net_list_pin(&l, "db/vmlinuz") != NULL);
	CHECK_STR(net_list_host(&l, mac_a), "loader/hosts/db.list");
	CHECK(net_list_host(&l, mac_b) == NULL);
	CHECK_EQ(net_list_parse_host("", 0, "loader/hosts/db.list", &l), EFI_SUCCESS); /* could not be had */
	cursor = 0;
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	CHECK_EQ(l.n, 3);
	net_list_free(&l);
}
