/* The server's tree as a read-only EFI_FILE_PROTOCOL (UEFI 2.10 §13.5), so
 * the loader reads entries, kernels and initrds over the network exactly as
 * from a disk (README "Network boot"). A file is fetched whole when it is
 * opened, its entries.list pin checked, and then read from memory; directories
 * are what loader/entries.list names. The file closed last is kept, so that
 * opening it again (loader.conf, a UKI listed and then booted) fetches nothing;
 * a failed boot drops it (net_fs_forget()): a retry fetches anew.
 * A file entries.list names that cannot be had, or a line of it that cannot
 * be read, marks the volume lost: the loader then boots nothing by itself. */
#include "net.h"
#include "ro_file.h"
#include "core/fmt.h"
#include "core/net_list.h"
#include "core/netboot.h"
#include "core/sha256.h"

#define LIST_PATH "loader/entries.list"
#define CONF_PATH "loader/loader.conf"

struct net_fs {
	struct net_source src;
	struct net_list list;
	char *kept_path;              /* the file closed last (or known missing: kept_data NULL) */
	uint8_t *kept_data;
	uint64_t kept_size;
	bool lost;                    /* net_fs_mount(): a file entries.list vouches for could not be had */
};

struct net_file {
	struct ro_file ro;            /* first: This points here; for a directory, pos is the listing's cursor */
	struct net_fs *fs;
	char *path;                   /* normalized; "" is the root */
	uint8_t *data;                /* NULL: a directory */
};

static const EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

/* What @path is called in messages and where it is fetched from: a URL, or
 * for TFTP the file name on the server (*@ret_tftp) after "tftp://SERVER/". */
static char *fs_url(const struct net_fs *fs, const char *path, char **ret_tftp)
{
	char *file = net_url_join(fs->src.loc, fs->src.root_len, path, /* encode= */ !fs->src.pxe);

	if (!fs->src.pxe || !file)
		return file;
	*ret_tftp = file;
	return fmt_asprintf("%s%s", fs->src.show, file);
}

/* A pinned file (entries.list "sha256 HEX PATH") is refused unless its bytes match. */
static EFI_STATUS check_pin(const struct net_fs *fs, const char *path, const char *url, const uint8_t *data,
			    uint64_t size)
{
	const uint8_t *want = net_list_pin(&fs->list, path);
	uint8_t got[SHA256_DIGEST_SIZE];
	char hex[SHA256_HEX_SIZE];

	if (!want)
		return EFI_SUCCESS;
	sha256(data, (size_t)size, got);
	if (!memcmp(got, want, sizeof(got)))
		return EFI_SUCCESS;
	sha256_hex(got, hex);
	return log_error_status(EFI_SECURITY_VIOLATION, "%s: SHA-256 %s is not the one entries.list pins: refused",
				url, hex);
}

/* @path's bytes, pin checked; a file entries.list vouches for is never quietly missing. */
static EFI_STATUS fetch(struct net_fs *fs, const char *path, bool quiet_missing, uint8_t **ret, uint64_t *ret_size)
{
	_cleanup_free_ char *tftp_file = NULL;
	_cleanup_free_ char *url = fs_url(fs, path, &tftp_file);
	bool vouched = net_list_vouches(&fs->list, path);
	EFI_STATUS err = EFI_OUT_OF_RESOURCES;

	quiet_missing &= !vouched;
	if (!url)
		log_error("%s: out of memory, or too long a URL", path);
	else
		err = fs->src.pxe ? net_tftp_get(&fs->src, tftp_file, url, quiet_missing, ret, ret_size)
				  : net_http_get(&fs->src, url, quiet_missing, ret, ret_size);
	/* refused: nothing of it may stay where the caller (and then keep()) would find it */
	if (!EFI_ERROR(err) && EFI_ERROR(err = check_pin(fs, path, url, *ret, *ret_size)))
		mem_free(TAKE_PTR(*ret)), *ret_size = 0;
	fs->lost |= EFI_ERROR(err) && vouched;
	return err;
}

/* Keep the closed file's bytes (or the fact that it is missing), dropping the previous one. */
static void keep(struct net_fs *fs, char *path, uint8_t *data, uint64_t size)
{
	mem_free(TAKE_PTR(fs->kept_path));
	mem_free(TAKE_PTR(fs->kept_data));
	fs->kept_path = path;
	fs->kept_data = data;
	fs->kept_size = size;
}

static EFI_STATUS open_data(struct net_fs *fs, struct net_file *f)
{
	if (fs->kept_path && !strcmp(fs->kept_path, f->path)) {
		if (!fs->kept_data)
			return EFI_NOT_FOUND;
		f->data = TAKE_PTR(fs->kept_data);
		f->ro.size = fs->kept_size;
		mem_free(TAKE_PTR(fs->kept_path));
		return EFI_SUCCESS;
	}
	return fetch(fs, f->path, /* quiet_missing= */ false, &f->data, &f->ro.size);
}

static EFI_FILE_PROTOCOL *new_file(struct net_fs *fs, char *path);
static bool is_dir(const struct net_fs *fs, const char *path);

static EFI_STATUS EFIAPI nf_open(EFI_FILE_PROTOCOL *this, EFI_FILE_PROTOCOL **ret, CHAR16 *name, UINT64 mode,
				 UINT64 attr)
{
	struct net_file *dir = (struct net_file *)this, *f;
	_cleanup_free_ char *name8 = str16_to_8(name, NET_URL_MAX);
	_cleanup_free_ char *full = NULL;
	char *path = NULL;
	EFI_STATUS err;

	if (mode != EFI_FILE_MODE_READ)
		return EFI_WRITE_PROTECTED;
	if (!name8)
		return EFI_OUT_OF_RESOURCES;
	full = fmt_asprintf("%s/%s", name8[0] == '\\' || name8[0] == '/' ? "" : dir->path, name8);
	if (!full)
		return EFI_OUT_OF_RESOURCES;
	err = net_path_normalize(full, &path);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: not a path below the network boot tree's root", name8);
	if (!(*ret = new_file(dir->fs, path)))
		return EFI_OUT_OF_RESOURCES;
	f = (struct net_file *)*ret;
	if ((f->ro.dir = is_dir(f->fs, f->path)))
		return EFI_SUCCESS;
	err = open_data(f->fs, f);
	if (EFI_ERROR(err)) {
		f->ro.proto.Close(&f->ro.proto);
		*ret = NULL;
	}
	return err;
}

static struct net_fs mem_fs; /* of net_mem_file()s: nothing to fetch, nothing kept */

static EFI_STATUS EFIAPI nf_close(EFI_FILE_PROTOCOL *this)
{
	struct net_file *f = (struct net_file *)this;

	if (f->data && f->fs != &mem_fs)
		keep(f->fs, f->path, f->data, f->ro.size);
	else {
		mem_free(f->data);
		mem_free(f->path);
	}
	mem_free(f);
	return EFI_SUCCESS;
}

/* EFI_FILE_INFO for @name into @buf; *@size in/out as GetInfo and a directory Read. */
static EFI_STATUS fill_info(const char *name, uint64_t file_size, bool dir, UINTN *size, void *buf)
{
	EFI_STATUS err;
	EFI_FILE_INFO *info = ro_file_info(name, dir, size, buf, &err);

	if (info)
		info->FileSize = info->PhysicalSize = file_size;
	return err;
}

static EFI_STATUS EFIAPI nf_read(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buf)
{
	struct net_file *f = (struct net_file *)this;
	size_t cursor = (size_t)f->ro.pos;
	const char *name;
	EFI_STATUS err;

	if (f->data) {
		UINTN n = (UINTN)MIN((uint64_t)*size, f->ro.pos < f->ro.size ? f->ro.size - f->ro.pos : 0);

		if (n)
			memcpy(buf, f->data + f->ro.pos, n);
		f->ro.pos += n;
		*size = n;
		return EFI_SUCCESS;
	}
	name = net_list_next_in(&f->fs->list, f->path, &cursor);
	if (!name) {
		*size = 0;
		return EFI_SUCCESS;
	}
	err = fill_info(name, 0, /* dir= */ false, size, buf);
	if (!EFI_ERROR(err))
		f->ro.pos = cursor; /* a too-small buffer leaves the entry for the next call */
	return err;
}

static EFI_STATUS EFIAPI nf_get_info(EFI_FILE_PROTOCOL *this, const EFI_GUID *type, UINTN *size, VOID *buf)
{
	struct net_file *f = (struct net_file *)this;
	const char *name = f->path;

	if (memcmp(type, &file_info_guid, sizeof(EFI_GUID)) != 0)
		return EFI_UNSUPPORTED;
	for (const char *p = f->path; *p; p++)
		if (*p == '/')
			name = p + 1;
	return fill_info(name, f->ro.size, f->ro.dir, size, buf);
}

/* The Boot Loader Specification's entry directories are directories on the
 * server even when entries.list names nothing in them (then empty). */
static bool is_dir(const struct net_fs *fs, const char *path)
{
	return ascii_strcaseeq(path, "loader/entries") || ascii_strcaseeq(path, "EFI/Linux") ||
	       net_list_has_dir(&fs->list, path);
}

/* A handle on @path (taken); its data, for a file, is set by the caller. */
static EFI_FILE_PROTOCOL *new_file(struct net_fs *fs, char *path)
{
	struct net_file *f = mem_zalloc(sizeof(*f));

	if (!f) {
		mem_free(path);
		return NULL;
	}
	f->fs = fs;
	f->path = path;
	ro_file_init(&f->ro, nf_open, nf_close, nf_read, nf_get_info);
	return &f->ro.proto;
}

void net_fs_forget(EFI_FILE_PROTOCOL *root)
{
	if (root && root->Close == nf_close)
		keep(((struct net_file *)root)->fs, NULL, NULL, 0);
}

EFI_FILE_PROTOCOL *net_mem_file(char *path, uint8_t *data, uint64_t size)
{
	EFI_FILE_PROTOCOL *f = path ? new_file(&mem_fs, path) : NULL; /* a file has a name (get_info) */

	if (!f) {
		mem_free(data);
		return NULL;
	}
	((struct net_file *)f)->data = data;
	((struct net_file *)f)->ro.size = size;
	return f;
}

/* The list a "host" line of entries.list names for this machine, read in
 * place of entries.list's entry lines; when it cannot be had, no entries. */
static void read_host_list(struct net_fs *fs)
{
	const char *path = net_list_host(&fs->list, fs->src.mac_known ? fs->src.mac : NULL);
	_cleanup_free_ uint8_t *text = NULL;
	uint64_t size = 0;

	if (!path)
		return;
	log_info("this machine's entries: %s", path);
	if (fetch(fs, path, /* quiet_missing= */ false, &text, &size) != EFI_SUCCESS)
		size = 0;
	net_list_parse_host((const char *)text, (size_t)size, path, &fs->list);
}

/* entries.list (bad lines named by its path, and the volume lost); without it no entries, said once. */
static void read_list(struct net_fs *fs)
{
	_cleanup_free_ uint8_t *text = NULL;
	uint64_t size;

	if (fetch(fs, LIST_PATH, /* quiet_missing= */ false, &text, &size) == EFI_SUCCESS &&
	    net_list_parse((const char *)text, (size_t)size, LIST_PATH, &fs->list) == EFI_SUCCESS)
		read_host_list(fs);
	fs->lost |= fs->list.n_errors > 0;
}

EFI_STATUS net_fs_mount(struct net_source *src, EFI_FILE_PROTOCOL **ret_root, const bool **ret_lost)
{
	struct net_fs *fs = mem_zalloc(sizeof(*fs));
	char *conf_path = fmt_asprintf("%s", CONF_PATH), *root = fmt_asprintf("%s", "");
	uint8_t *conf = NULL;
	uint64_t conf_size = 0;

	if (!fs || !conf_path || !root) {
		mem_free(fs);
		mem_free(conf_path);
		mem_free(root);
		return EFI_OUT_OF_RESOURCES;
	}
	fs->src = *src;
	read_list(fs);
	/* loader.conf is optional, as on a disk (unless entries.list pins it) */
	if (fetch(fs, CONF_PATH, /* quiet_missing= */ true, &conf, &conf_size) != EFI_SUCCESS)
		conf = NULL;
	keep(fs, conf_path, conf, conf_size);
	*ret_lost = &fs->lost;
	*ret_root = new_file(fs, root);
	return *ret_root ? EFI_SUCCESS : EFI_OUT_OF_RESOURCES;
}
