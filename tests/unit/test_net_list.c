/* loader/entries.list (src/core/net_list.c): paths, pins, comments and the
 * line syntax shared with loader.conf, malformed lines named by file:line and
 * skipped; directory lookups for the network file system. */
#include "test.h"
#include "core/net_list.h"
#include <stdlib.h>

#define NAME "http://srv/loader/entries.list"
#define HEX_A "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

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
	CHECK_LOG(NAME ":1: '../outside.conf' is not a file below the tree's root");
	CHECK_LOG(NAME ":2: sha256 wants 64 hex digits and a path, ignored");
	CHECK_LOG(NAME ":3: '' is not a file below");
	CHECK_LOG(NAME ":4: '../x' is not a file below");
	CHECK_LOG(NAME ":5: sha256 wants 64 hex digits");
	CHECK_LOG(NAME ":6: '/' is not a file below");
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
				  "loader/entries/sub/b.conf\n"
				  "EFI/Linux/u.efi\n"
				  "loader/entries/c.conf\n"
				  "loader/entriesX/d.conf\n");
	size_t cursor = 0;

	CHECK_STR(net_list_next_in(&l, "loader/entries", &cursor), "a.conf");
	CHECK_STR(net_list_next_in(&l, "loader/entries", &cursor), "c.conf");
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	CHECK(net_list_next_in(&l, "loader/entries", &cursor) == NULL);
	cursor = 0;
	CHECK_STR(net_list_next_in(&l, "EFI/Linux", &cursor), "u.efi");
	CHECK(net_list_has_dir(&l, "loader/entries"));
	CHECK(net_list_has_dir(&l, "loader/entries/sub"));
	CHECK(net_list_has_dir(&l, "loader"));
	CHECK(net_list_has_dir(&l, ""));
	CHECK(!net_list_has_dir(&l, "loader/entr"));
	CHECK(!net_list_has_dir(&l, "loader/entries/a.conf"));
	CHECK(!net_list_has_dir(&l, "EFI/linux")); /* paths are exact; only pins ignore case */
	net_list_free(&l);
}
