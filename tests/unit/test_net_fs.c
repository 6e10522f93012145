/* The network boot volume (src/efi/net_fs.c) on the host: its file protocol
 * over a fake server (net_http_get() and net_tftp_get() below serve a table
 * and count the requests), run under ASan. A pinned file whose bytes differ
 * is refused every time it is opened, fetched again each time, never handed
 * out from memory. */
#include "test.h"
#include "core/netboot.h"
#include "core/sha256.h"
#include "efi/net.h"
#include <stdlib.h>

#define LOC_HTTP "http://srv/EFI/BOOT/BOOTX64.EFI"
#define LOC_TFTP "EFI/BOOT/BOOTX64.EFI"
#define MAX_FILES 8
#define MAX_ROOTS 16

struct served {
	const char *path;   /* below the tree's root */
	const char *data;   /* NULL: missing (404) */
	int requests;
};

static struct served *served;
static size_t n_served;

/* The mounted volumes stay reachable: net_fs.c has no unmount (the loader
 * never gives its boot volume back), and LeakSanitizer would count them. */
static EFI_FILE_PROTOCOL *roots[MAX_ROOTS];
static size_t n_roots;

static EFI_STATUS serve(const char *path, bool quiet_missing, uint8_t **ret, uint64_t *ret_size)
{
	for (size_t i = 0; i < n_served; i++) {
		size_t n;

		if (strcmp(served[i].path, path) != 0)
			continue;
		served[i].requests++;
		if (!served[i].data)
			break;
		n = strlen(served[i].data);
		*ret = malloc(n ? n : 1);
		memcpy(*ret, served[i].data, n);
		*ret_size = n;
		return EFI_SUCCESS;
	}
	return quiet_missing ? EFI_NOT_FOUND : log_error_status(EFI_NOT_FOUND, "%s: HTTP status 404", path);
}

EFI_STATUS net_http_get(const struct net_source *src, const char *url, bool quiet_missing, uint8_t **ret,
			uint64_t *ret_size)
{
	CHECK(strncmp(url, "http://srv/", 11) == 0);
	return serve(url + 11, quiet_missing, ret, ret_size);
}

EFI_STATUS net_tftp_get(const struct net_source *src, const char *path, const char *name, bool quiet_missing,
			uint8_t **ret, uint64_t *ret_size)
{
	CHECK(strncmp(name, "tftp://10.0.2.2/", 16) == 0);
	CHECK_STR(name + 16, path);
	return serve(path, quiet_missing, ret, ret_size);
}

static EFI_FILE_PROTOCOL *mount(struct served *files, size_t n, bool tftp)
{
	struct net_source src = { .loc = strdup(tftp ? LOC_TFTP : LOC_HTTP) };
	EFI_FILE_PROTOCOL *root = NULL;

	served = files;
	n_served = n;
	if (tftp) {
		src.pxe = (EFI_PXE_BASE_CODE_PROTOCOL *)(uintptr_t)1; /* only its presence counts here */
		strcpy(src.show, "tftp://10.0.2.2/");
	}
	src.root_len = net_root_len(src.loc);
	CHECK_EQ(net_fs_mount(&src, &root), EFI_SUCCESS);
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

/* entries.list pinning k/pinned to "the kernel", and an entry. */
static const char *pinned_list(void)
{
	uint8_t digest[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	sha256("the kernel", 10, digest);
	sha256_hex(digest, hex);
	snprintf(list_text, sizeof(list_text), "sha256 %s k/pinned\nloader/entries/a.conf\n", hex);
	return list_text;
}

static void refused_twice(bool tftp)
{
	struct served files[] = {
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
	struct served files[] = {
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
