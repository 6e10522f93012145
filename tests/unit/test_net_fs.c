/* The network boot volume (src/efi/net_fs.c) on the host: its file protocol
 * over a fake server (net_http_get() below and fake_net.c's PXE base code,
 * under src/efi/net_tftp.c, serve a table and count the requests), under ASan. A pinned file whose bytes differ
 * is refused every time it is opened, fetched again each time, never handed
 * out from memory. A file entries.list lists or pins that cannot be had, or
 * a line of it that cannot be read, marks the volume lost (no automatic
 * boot); a file it does not name may be missing. */
#include "test.h"
#include "fake_net.h"
#include "core/netboot.h"
#include "core/sha256.h"
#include "efi/net.h"
#include <stdlib.h>

#define LOC_HTTP "http://srv/EFI/BOOT/BOOTX64.EFI"
#define LOC_TFTP "EFI/BOOT/BOOTX64.EFI"
#define MAX_FILES 8
#define MAX_ROOTS 16

static struct fake_net net;

/* The mounted volumes stay reachable: net_fs.c has no unmount (the loader
 * never gives its boot volume back), and LeakSanitizer would count them. */
static EFI_FILE_PROTOCOL *roots[MAX_ROOTS];
static size_t n_roots;

EFI_STATUS net_http_get(const struct net_source *src, const char *url, bool quiet_missing, uint8_t **ret,
			uint64_t *ret_size)
{
	const char *path = url + 11;

	CHECK(strncmp(url, "http://srv/", 11) == 0);
	for (size_t i = 0; i < net.n_files; i++) {
		struct fake_file *f = &net.files[i];

		if (strcmp(f->path, path) != 0)
			continue;
		f->requests++;
		if (!f->data)
			break;
		*ret_size = strlen(f->data);
		*ret = malloc(*ret_size ? *ret_size : 1);
		memcpy(*ret, f->data, *ret_size);
		return EFI_SUCCESS;
	}
	return quiet_missing ? EFI_NOT_FOUND : log_error_status(EFI_NOT_FOUND, "%s: HTTP status 404", url);
}

static const bool *lost;
static const uint8_t machine_mac[6] = { 0x52, 0x54, 0x00, 0x12, 0x34, 0x56 };
static bool mac_known; /* mount() gives the volume machine_mac */

static EFI_FILE_PROTOCOL *mount(struct fake_file *files, size_t n, bool tftp)
{
	struct net_source src = { .loc = strdup(tftp ? LOC_TFTP : LOC_HTTP), .mac_known = mac_known };
	EFI_FILE_PROTOCOL *root = NULL;

	fake_net_init(&net, files, n);
	net.block_size = 512;
	if (tftp) {
		src.pxe = &net.pxe;
		strcpy(src.show, "tftp://10.0.2.2/");
	}
	src.root_len = net_root_len(src.loc);
	memcpy(src.mac, machine_mac, sizeof(src.mac));
	lost = NULL;
	CHECK_EQ(net_fs_mount(&src, &root, &lost), EFI_SUCCESS);
	CHECK(lost != NULL);
	if (root && n_roots < MAX_ROOTS)
		roots[n_roots++] = root;
	return root;
}

static EFI_STATUS open_file(EFI_FILE_PROTOCOL *root, const CHAR16 *name, EFI_FILE_PROTOCOL **ret)
{
	*ret = (EFI_FILE_PROTOCOL *)(uintptr_t)0xbad;
	return root->Open(root, ret, (CHAR16 *)name, EFI_FILE_MODE_READ, 0);
}

static char list_text[512];

/* entries.list pinning @path to "the kernel", and an entry. */
static const char *pin_list(const char *path)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	sha256("the kernel", 10, digest);
	sha256_hex(digest, hex);
	snprintf(list_text, sizeof(list_text), "sha256 %s %s\nloader/entries/a.conf\n", hex, path);
	return list_text;
}

static const char *pinned_list(void)
{
	return pin_list("k/pinned");
}

static void refused_twice(bool tftp)
{
	struct fake_file files[] = {
		{ "loader/entries.list", pinned_list(), 0 },
		{ "loader/loader.conf", "timeout 0\n", 0 },
		{ "loader/entries/a.conf", "title A\nlinux /k/pinned\n", 0 },
		{ "k/pinned", "not the kernel", 0 },
	};
	EFI_FILE_PROTOCOL *root = mount(files, ARRAY_SIZE(files), tftp), *f;
	char buf[32];
	UINTN size = sizeof(buf);

	CHECK_EQ(open_file(root, u"\\k\\pinned", &f), EFI_SECURITY_VIOLATION);
	CHECK(f == NULL);
	CHECK_EQ(files[3].requests, 1);
	CHECK_LOG("k/pinned: SHA-256 ");
	CHECK_LOG("is not the one entries.list pins: refused");
	/* The entry chosen again (Enter after the refusal): fetched again, refused again. */
	test_log_reset();
	if (open_file(root, u"\\k\\pinned", &f) == EFI_SUCCESS) {
		test_fail(__FILE__, __LINE__, "the refused file was handed out");
		f->Read(f, &size, buf); /* what the loader would do with it: ASan names the freed buffer */
		f->Close(f);
	}
	CHECK(f == NULL);
	CHECK_EQ(files[3].requests, 2);
	CHECK_LOG("is not the one entries.list pins: refused");
	/* The volume still works: another file is read from its own bytes. */
	CHECK_EQ(open_file(root, u"\\loader\\entries\\a.conf", &f), EFI_SUCCESS);
	CHECK_EQ(f->Read(f, &size, buf), EFI_SUCCESS);
	CHECK_EQ(size, strlen(files[2].data));
	CHECK_MEM(buf, files[2].data, size);
	CHECK_EQ(f->Close(f), EFI_SUCCESS);
	CHECK_EQ(open_file(root, u"\\k\\pinned", &f), EFI_SECURITY_VIOLATION);
	CHECK_EQ(files[3].requests, 3);
	CHECK(*lost); /* a pinned file refused */
}

TEST(net_fs_refused_pin_is_fetched_and_refused_again_http)
{
	refused_twice(/* tftp= */ false);
}

TEST(net_fs_refused_pin_is_fetched_and_refused_again_tftp)
{
	refused_twice(/* tftp= */ true);
}

TEST(net_fs_matching_pin_is_kept_after_close)
{
	struct fake_file files[] = {
		{ "loader/entries.list", pinned_list(), 0 },
		{ "k/pinned", "the kernel", 0 },
	};
	EFI_FILE_PROTOCOL *root = mount(files, ARRAY_SIZE(files), /* tftp= */ false), *f;
	char buf[32];
	UINTN size = sizeof(buf);

	CHECK_EQ(open_file(root, u"k/pinned", &f), EFI_SUCCESS);
	CHECK_EQ(f->Close(f), EFI_SUCCESS);
	CHECK_EQ(open_file(root, u"k/pinned", &f), EFI_SUCCESS);
	CHECK_EQ(files[1].requests, 1); /* the file closed last is kept */
	CHECK_EQ(f->Read(f, &size, buf), EFI_SUCCESS);
	CHECK_EQ(size, 10);
	CHECK_MEM(buf, "the kernel", 10);
	CHECK_EQ(f->Close(f), EFI_SUCCESS);
}

/* A boot that failed on the file kept from its last close (an unpinned kernel
 * the server sent broken): after net_fs_forget(), what the loader does after
 * a failed boot, the next open fetches it anew and gets the server's fixed
 * bytes; before it, the kept copy would be handed out again. */
TEST(net_fs_forget_fetches_the_kept_file_anew)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\n", 0 },
		{ "debian/vmlinuz", "broken", 0 },
	};
	EFI_FILE_PROTOCOL *root = mount(files, ARRAY_SIZE(files), /* tftp= */ false), *f;
	EFI_FILE_PROTOCOL other = { 0 };
	char buf[32];
	UINTN size = sizeof(buf);

	CHECK_EQ(open_file(root, u"debian/vmlinuz", &f), EFI_SUCCESS);
	CHECK_EQ(f->Close(f), EFI_SUCCESS); /* kept */
	files[1].data = "the kernel";       /* the server put right */
	net_fs_forget(&other);              /* not a network root: nothing */
	net_fs_forget(NULL);
	net_fs_forget(root);
	CHECK_EQ(open_file(root, u"debian/vmlinuz", &f), EFI_SUCCESS);
	CHECK_EQ(files[1].requests, 2);
	CHECK_EQ(f->Read(f, &size, buf), EFI_SUCCESS);
	CHECK_EQ(size, 10);
	CHECK_MEM(buf, "the kernel", 10);
	CHECK_EQ(f->Close(f), EFI_SUCCESS);
	net_fs_forget(root);                /* twice in a row: nothing kept, nothing to drop */
	net_fs_forget(root);
	CHECK_EQ(open_file(root, u"debian/vmlinuz", &f), EFI_SUCCESS);
	CHECK_EQ(files[1].requests, 3);
	CHECK_EQ(f->Close(f), EFI_SUCCESS);
	CHECK_EQ(test_log_count(), 0);
}

/* What the loader reads while it loads its entries, and whether that loses the volume. */
static bool lost_after(struct fake_file *files, size_t n, const CHAR16 *open, EFI_STATUS want)
{
	EFI_FILE_PROTOCOL *root = mount(files, n, /* tftp= */ false), *f;

	if (open) {
		CHECK_EQ(open_file(root, open, &f), want);
		if (want == EFI_SUCCESS)
			f->Close(f);
	}
	return *lost;
}

TEST(net_fs_pinned_loader_conf_that_differs_loses_the_volume)
{
	struct fake_file files[] = {
		{ "loader/entries.list", pin_list("loader/loader.conf"), 0 },
		{ "loader/loader.conf", "default old*\n", 0 },
	};

	CHECK(lost_after(files, ARRAY_SIZE(files), u"\\loader\\loader.conf", EFI_NOT_FOUND));
	CHECK_LOG("loader/loader.conf: SHA-256 ");
	CHECK_EQ(files[1].requests, 1); /* known refused: not fetched again by the loader */
}

TEST(net_fs_pinned_loader_conf_missing_loses_the_volume_and_says_so)
{
	struct fake_file files[] = {
		{ "loader/entries.list", pin_list("loader/loader.conf"), 0 },
	};

	CHECK(lost_after(files, ARRAY_SIZE(files), NULL, EFI_SUCCESS));
	CHECK_LOG("loader/loader.conf: HTTP status 404");
}

TEST(net_fs_loader_conf_missing_unpinned_is_quiet)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\n", 0 },
		{ "loader/entries/a.conf", "title A\n", 0 },
	};

	CHECK(!lost_after(files, ARRAY_SIZE(files), u"loader/entries/a.conf", EFI_SUCCESS));
	CHECK_EQ(test_log_count(), 0);
}

TEST(net_fs_listed_entry_missing_loses_the_volume)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\nloader/entries/b.conf\n", 0 },
		{ "loader/entries/a.conf", "title A\n", 0 },
	};

	CHECK(lost_after(files, ARRAY_SIZE(files), u"\\loader\\entries\\b.conf", EFI_NOT_FOUND));
	CHECK_LOG("loader/entries/b.conf: HTTP status 404");
}

TEST(net_fs_pinned_entry_refused_loses_the_volume)
{
	struct fake_file files[] = {
		{ "loader/entries.list", pin_list("EFI/Linux/u.efi"), 0 },
		{ "EFI/Linux/u.efi", "MZ another", 0 },
	};

	CHECK(lost_after(files, ARRAY_SIZE(files), u"EFI/Linux/u.efi", EFI_SECURITY_VIOLATION));
}

TEST(net_fs_unnamed_file_missing_keeps_the_volume)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\n", 0 },
	};

	/* a kernel entries.list neither lists nor pins: the boot of its entry fails, no more */
	CHECK(!lost_after(files, ARRAY_SIZE(files), u"debian/vmlinuz", EFI_NOT_FOUND));
	CHECK_LOG("debian/vmlinuz: HTTP status 404");
}

TEST(net_fs_unreadable_list_line_loses_the_volume)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "sha256 1234 debian/vmlinuz\nloader/entries/a.conf\n", 0 },
	};

	CHECK(lost_after(files, ARRAY_SIZE(files), NULL, EFI_SUCCESS));
	CHECK_LOG("loader/entries.list:1: ");
}

/* The names loader/entries lists, ASCII, blank-separated, into @out. */
static void entries_listed(EFI_FILE_PROTOCOL *root, char *out, size_t size)
{
	EFI_FILE_PROTOCOL *dir;
	uint8_t buf[256];
	size_t len = 0;

	out[0] = 0;
	CHECK_EQ(open_file(root, u"\\loader\\entries", &dir), EFI_SUCCESS);
	for (;;) {
		UINTN n = sizeof(buf);
		const CHAR16 *name = ((EFI_FILE_INFO *)buf)->FileName;

		CHECK_EQ(dir->Read(dir, &n, buf), EFI_SUCCESS);
		if (n == 0)
			break;
		for (; *name && len + 2 < size; name++)
			out[len++] = (char)*name;
		out[len++] = ' ';
		out[len] = 0;
	}
	dir->Close(dir);
}

/* A host line naming this machine's MAC: its list's entries in place of entries.list's. */
TEST(net_fs_host_list_gives_the_machine_its_entries)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\nhost 52-54-00-12-34-57 loader/hosts/x.list\n"
					 "host 52:54:00:12:34:56 loader/hosts/db.list\n", 0 },
		{ "loader/hosts/db.list", "loader/entries/db.conf\n", 0 },
		{ "loader/hosts/x.list", "loader/entries/x.conf\n", 0 },
	};
	char names[64];
	EFI_FILE_PROTOCOL *root;

	mac_known = true;
	root = mount(files, ARRAY_SIZE(files), /* tftp= */ false);
	mac_known = false;
	CHECK_EQ(files[1].requests, 1);
	CHECK_EQ(files[2].requests, 0);
	CHECK(!*lost);
	CHECK_LOG("this machine's entries: loader/hosts/db.list");
	entries_listed(root, names, sizeof(names));
	CHECK_STR(names, "db.conf ");
	/* a machine no line names: entries.list's entries, no request more */
	root = mount(files, ARRAY_SIZE(files), /* tftp= */ false);
	CHECK_EQ(files[1].requests, 1);
	CHECK_EQ(files[2].requests, 0);
	entries_listed(root, names, sizeof(names));
	CHECK_STR(names, "a.conf ");
}

TEST(net_fs_host_list_missing_loses_the_volume_and_its_entries)
{
	struct fake_file files[] = {
		{ "loader/entries.list", "loader/entries/a.conf\nhost 52:54:00:12:34:56 loader/hosts/db.list\n", 0 },
	};
	char names[64];
	EFI_FILE_PROTOCOL *root;

	mac_known = true;
	root = mount(files, ARRAY_SIZE(files), /* tftp= */ false);
	mac_known = false;
	CHECK(*lost);
	CHECK_LOG("loader/hosts/db.list: HTTP status 404");
	entries_listed(root, names, sizeof(names));
	CHECK_STR(names, "");
}
