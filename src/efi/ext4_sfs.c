/* ext4 as an EFI Simple File System (UEFI 2.10 §13.4, §13.5): handoff's own
 * read-only driver (src/core/ext4_*.c) installed on a partition handle, so the
 * rest of the loader reads ext4 and FAT through one file API. Reads go
 * through EFI_DISK_IO, straight into the caller's buffer. */
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
	EFI_FILE_PROTOCOL proto; /* first: This points here */
	struct ext4_sfs *sfs;
	struct ext4_file *file;
	char *name;              /* last path component, for EFI_FILE_INFO */
	uint64_t pos;            /* byte offset, or the readdir cookie */
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

static EFI_STATUS EFIAPI ext4_file_delete(EFI_FILE_PROTOCOL *this)
{
	ext4_file_close(this);
	return EFI_WARN_DELETE_FAILURE;
}

/* EFI_FILE_INFO for @f named @name into @buf; *size in/out as GetInfo. */
static EFI_STATUS fill_info(struct ext4_file *f, const char *name, UINTN *size, void *buf)
{
	_cleanup_free_ CHAR16 *name16 = str8_to_16(name, /* path= */ false);
	struct ext4_stat st;
	EFI_FILE_INFO *info = buf;
	UINTN need;

	if (!name16)
		return EFI_OUT_OF_RESOURCES;
	need = sizeof(EFI_FILE_INFO) + (strlen16(name16) + 1) * sizeof(CHAR16);
	if (*size < need) {
		*size = need;
		return EFI_BUFFER_TOO_SMALL;
	}
	ext4_stat(f, &st);
	memset(info, 0, sizeof(*info));
	info->Size = need;
	info->FileSize = st.size;
	info->PhysicalSize = st.blocks_size;
	efi_time_from_unix(st.crtime ? st.crtime : st.ctime, 0, &info->CreateTime);
	efi_time_from_unix(st.atime, 0, &info->LastAccessTime);
	efi_time_from_unix(st.mtime, st.mtime_nsec, &info->ModificationTime);
	info->Attribute = EFI_FILE_READ_ONLY | (ext4_file_is_dir(f) ? EFI_FILE_DIRECTORY : 0);
	memcpy(info->FileName, name16, (strlen16(name16) + 1) * sizeof(CHAR16));
	*size = need;
	return EFI_SUCCESS;
}

/* One directory entry per Read, skipping "." and ".."; size 0 at the end. */
static EFI_STATUS read_dir(struct ext4_handle *h, UINTN *size, void *buf)
{
	for (;;) {
		uint64_t cookie = h->pos;
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
			h->pos = cookie;
			continue;
		}
		err = ext4_open_inode(h->sfs->fs, d.ino, &child);
		if (EFI_ERROR(err))
			return err;
		err = fill_info(child, d.name, size, buf);
		ext4_close(child);
		if (err == EFI_SUCCESS)
			h->pos = cookie; /* a too-small buffer leaves the entry for the next call */
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
	err = ext4_read(h->file, h->pos, buf, *size, &n);
	if (EFI_ERROR(err))
		return err;
	h->pos += n;
	*size = n;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ext4_file_write(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buf)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS EFIAPI ext4_file_get_position(EFI_FILE_PROTOCOL *this, UINT64 *pos)
{
	struct ext4_handle *h = (struct ext4_handle *)this;

	if (ext4_file_is_dir(h->file))
		return EFI_UNSUPPORTED;
	*pos = h->pos;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ext4_file_set_position(EFI_FILE_PROTOCOL *this, UINT64 pos)
{
	struct ext4_handle *h = (struct ext4_handle *)this;

	if (ext4_file_is_dir(h->file) && pos != 0)
		return EFI_UNSUPPORTED; /* §13.5: directories can only be rewound */
	h->pos = pos == UINT64_MAX ? ext4_file_size(h->file) : pos;
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

static EFI_STATUS EFIAPI ext4_file_set_info(EFI_FILE_PROTOCOL *this, const EFI_GUID *type, UINTN size, VOID *buf)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS EFIAPI ext4_file_flush(EFI_FILE_PROTOCOL *this)
{
	return EFI_SUCCESS;
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
	h->proto = (EFI_FILE_PROTOCOL){
		.Revision = EFI_FILE_PROTOCOL_REVISION, .Open = ext4_file_open, .Close = ext4_file_close,
		.Delete = ext4_file_delete, .Read = ext4_file_read, .Write = ext4_file_write,
		.GetPosition = ext4_file_get_position, .SetPosition = ext4_file_set_position,
		.GetInfo = ext4_file_get_info, .SetInfo = ext4_file_set_info, .Flush = ext4_file_flush,
	};
	return &h->proto;
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
