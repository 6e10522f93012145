/* ext4 as an EFI Simple File System (UEFI 2.10 §13.4, §13.5): handoff's own
 * read-only driver (src/core/ext4_*.c) installed on a partition handle, so the
 * rest of the loader reads ext4 and FAT through one file API. Reads go
 * through EFI_DISK_IO, straight into the caller's buffer. */
#include "ro_file.h"
#include "volumes.h"
#include "core/efitime.h"
#include "core/ext4.h"
#include "core/fmt.h"
#include <efi/proto/block_io.h>
#include <efi/proto/disk_io.h>

static EFI_GUID disk_io_guid = EFI_DISK_IO_PROTOCOL_GUID;
static EFI_GUID block_io_guid = EFI_BLOCK_IO_PROTOCOL_GUID;
static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;

struct ext4_sfs {
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL proto; /* first: This points here */
	struct ext4_fs *fs;
	EFI_DISK_IO_PROTOCOL *disk;
	uint32_t media_id;
};

struct ext4_handle {
	struct ro_file ro;       /* first: This points here; pos: byte offset, or the readdir cookie */
	struct ext4_sfs *sfs;
	struct ext4_file *file;
	char *name;              /* last path component, for EFI_FILE_INFO */
};

static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;
static EFI_GUID fs_info_guid = EFI_FILE_SYSTEM_INFO_ID;

static EFI_STATUS disk_read(void *ctx, uint64_t offset, void *buf, size_t len)
{
	struct ext4_sfs *s = ctx;

	return s->disk->ReadDisk(s->disk, s->media_id, offset, len, buf);
}

static EFI_FILE_PROTOCOL *new_handle(struct ext4_sfs *sfs, struct ext4_file *f, const char *name);

static const char *last_component(const char *path)
{
	const char *slash = NULL;

	for (const char *p = path; *p; p++)
		if (*p == '/' && p[1])
			slash = p;
	return slash ? slash + 1 : path;
}

static EFI_STATUS EFIAPI ext4_file_open(EFI_FILE_PROTOCOL *this, EFI_FILE_PROTOCOL **ret, CHAR16 *name,
					UINT64 mode, UINT64 attr)
{
	struct ext4_handle *h = (struct ext4_handle *)this;
	_cleanup_free_ char *path = str16_to_8(name, 4096);
	struct ext4_file *f;
	EFI_STATUS err;

	if (mode != EFI_FILE_MODE_READ)
		return EFI_WRITE_PROTECTED;
	if (!path)
		return EFI_OUT_OF_RESOURCES;
	for (char *p = path; *p; p++)
		if (*p == '\\')
			*p = '/';
	err = ext4_open_at(h->sfs->fs, h->file, path, 0, &f);
	if (EFI_ERROR(err))
		return err;
	*ret = new_handle(h->sfs, f, last_component(path));
	if (!*ret) {
		ext4_close(f);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ext4_file_close(EFI_FILE_PROTOCOL *this)
{
	struct ext4_handle *h = (struct ext4_handle *)this;

	ext4_close(h->file);
	mem_free(h->name);
	mem_free(h);
	return EFI_SUCCESS;
}

/* EFI_FILE_INFO for @f named @name into @buf; *size in/out as GetInfo. */
static EFI_STATUS fill_info(struct ext4_file *f, const char *name, UINTN *size, void *buf)
{
	struct ext4_stat st;
	EFI_STATUS err;
	EFI_FILE_INFO *info = ro_file_info(name, ext4_file_is_dir(f), size, buf, &err);

	if (!info)
		return err;
	ext4_stat(f, &st);
	info->FileSize = st.size;
	info->PhysicalSize = st.blocks_size;
	efi_time_from_unix(st.crtime ? st.crtime : st.ctime, 0, &info->CreateTime);
	efi_time_from_unix(st.atime, 0, &info->LastAccessTime);
	efi_time_from_unix(st.mtime, st.mtime_nsec, &info->ModificationTime);
	return EFI_SUCCESS;
}

/* One directory entry per Read, skipping "." and ".."; size 0 at the end. */
static EFI_STATUS read_dir(struct ext4_handle *h, UINTN *size, void *buf)
{
	for (;;) {
		uint64_t cookie = h->ro.pos;
		struct ext4_dirent d;
		struct ext4_file *child;
		EFI_STATUS err = ext4_readdir(h->file, &cookie, &d);

		if (err == EFI_NOT_FOUND) {
			*size = 0;
			return EFI_SUCCESS;
		}
		if (EFI_ERROR(err))
			return err;
		if (strcmp(d.name, ".") == 0 || strcmp(d.name, "..") == 0) {
			h->ro.pos = cookie;
			continue;
		}
		err = ext4_open_inode(h->sfs->fs, d.ino, &child);
		if (EFI_ERROR(err))
			return err;
		err = fill_info(child, d.name, size, buf);
		ext4_close(child);
		if (err == EFI_SUCCESS)
			h->ro.pos = cookie; /* a too-small buffer leaves the entry for the next call */
		return err;
	}
}

static EFI_STATUS EFIAPI ext4_file_read(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buf)
{
	struct ext4_handle *h = (struct ext4_handle *)this;
	size_t n = 0;
	EFI_STATUS err;

	if (ext4_file_is_dir(h->file))
		return read_dir(h, size, buf);
	err = ext4_read(h->file, h->ro.pos, buf, *size, &n);
	if (EFI_ERROR(err))
		return err;
	h->ro.pos += n;
	*size = n;
	return EFI_SUCCESS;
}

static EFI_STATUS fill_fs_info(struct ext4_sfs *s, UINTN *size, void *buf)
{
	struct ext4_volume_info v;
	_cleanup_free_ CHAR16 *label = NULL;
	EFI_FILE_SYSTEM_INFO *info = buf;
	UINTN need;

	ext4_volume_info(s->fs, &v);
	label = str8_to_16(v.label, /* path= */ false);
	if (!label)
		return EFI_OUT_OF_RESOURCES;
	need = sizeof(EFI_FILE_SYSTEM_INFO) + (strlen16(label) + 1) * sizeof(CHAR16);
	if (*size < need) {
		*size = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	*info = (EFI_FILE_SYSTEM_INFO){ .Size = need, .ReadOnly = TRUE, .VolumeSize = v.size,
					.FreeSpace = v.free, .BlockSize = v.block_size };
	memcpy(info->VolumeLabel, label, (strlen16(label) + 1) * sizeof(CHAR16));
	*size = need;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ext4_file_get_info(EFI_FILE_PROTOCOL *this, const EFI_GUID *type, UINTN *size, VOID *buf)
{
	struct ext4_handle *h = (struct ext4_handle *)this;

	if (memcmp(type, &file_info_guid, sizeof(EFI_GUID)) == 0)
		return fill_info(h->file, h->name, size, buf);
	if (memcmp(type, &fs_info_guid, sizeof(EFI_GUID)) == 0)
		return fill_fs_info(h->sfs, size, buf);
	return EFI_UNSUPPORTED;
}

static EFI_FILE_PROTOCOL *new_handle(struct ext4_sfs *sfs, struct ext4_file *f, const char *name)
{
	struct ext4_handle *h = mem_zalloc(sizeof(*h));

	if (!h)
		return NULL;
	h->name = fmt_asprintf("%s", name);
	if (!h->name) {
		mem_free(h);
		return NULL;
	}
	h->sfs = sfs;
	h->file = f;
	h->ro.dir = ext4_file_is_dir(f);
	h->ro.size = ext4_file_size(f);
	ro_file_init(&h->ro, ext4_file_open, ext4_file_close, ext4_file_read, ext4_file_get_info);
	return &h->ro.proto;
}

static EFI_STATUS EFIAPI ext4_open_volume(EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *this, EFI_FILE_PROTOCOL **ret)
{
	struct ext4_sfs *s = (struct ext4_sfs *)this;
	struct ext4_file *root;
	EFI_STATUS err = ext4_open(s->fs, "/", &root);

	if (EFI_ERROR(err))
		return err;
	*ret = new_handle(s, root, "");
	if (!*ret) {
		ext4_close(root);
		return EFI_OUT_OF_RESOURCES;
	}
	return EFI_SUCCESS;
}

EFI_STATUS ext4_sfs_install(EFI_HANDLE partition, const char *name)
{
	EFI_BLOCK_IO_PROTOCOL *bio;
	struct ext4_sfs *s;
	EFI_STATUS err;

	if (BS->HandleProtocol(partition, &block_io_guid, (void **)&bio) != EFI_SUCCESS || !bio->Media)
		return EFI_UNSUPPORTED;
	s = mem_zalloc(sizeof(*s));
	if (!s)
		return EFI_OUT_OF_RESOURCES;
	err = BS->HandleProtocol(partition, &disk_io_guid, (void **)&s->disk);
	if (!EFI_ERROR(err)) {
		s->media_id = bio->Media->MediaId;
		err = ext4_mount(disk_read, s, (bio->Media->LastBlock + 1) * bio->Media->BlockSize, name, &s->fs);
	}
	if (!EFI_ERROR(err)) {
		s->proto = (EFI_SIMPLE_FILE_SYSTEM_PROTOCOL){ .Revision = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_REVISION,
							      .OpenVolume = ext4_open_volume };
		err = BS->InstallMultipleProtocolInterfaces(&partition, &sfs_guid, &s->proto, NULL);
		if (EFI_ERROR(err))
			ext4_unmount(s->fs);
	}
	if (EFI_ERROR(err))
		mem_free(s);
	return err;
}
