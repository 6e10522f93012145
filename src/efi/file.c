/* Files on a Simple File System volume (UEFI 2.10 §13.4, §13.5). Paths are
 * UTF-8 with '/' or '\' and are converted at the firmware boundary. */
#include "firmware.h"
#include "core/array.h"
#include "core/str16.h"

#define READ_CHUNK (64u << 20) /* some firmware mishandles huge single reads */
#define DIR_INFO_SIZE (sizeof(EFI_FILE_INFO) + 512 * sizeof(CHAR16))

static EFI_GUID sfs_guid = EFI_SIMPLE_FILE_SYSTEM_PROTOCOL_GUID;
const struct file_fast_ops *file_fast;
static EFI_GUID file_info_guid = EFI_FILE_INFO_ID;

EFI_STATUS file_open_root(EFI_HANDLE device, EFI_FILE_PROTOCOL **ret)
{
	EFI_SIMPLE_FILE_SYSTEM_PROTOCOL *fs;
	EFI_STATUS err;

	err = BS->HandleProtocol(device, &sfs_guid, (void **)&fs);
	if (EFI_ERROR(err))
		return log_error_status(err, "boot volume has no file system: %m");
	err = fs->OpenVolume(fs, ret);
	if (EFI_ERROR(err))
		return log_error_status(err, "cannot open boot volume: %m");
	return EFI_SUCCESS;
}

EFI_STATUS file_open(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL **ret)
{
	_cleanup_free_ CHAR16 *p16 = str8_to_16(path, /* path= */ true);
	EFI_STATUS err;

	if (!p16)
		return EFI_OUT_OF_RESOURCES;
	err = root->Open(root, ret, p16, EFI_FILE_MODE_READ, 0);
	if (err == EFI_SUCCESS && file_fast)
		file_fast->opened(root, path, *ret);
	return err;
}

EFI_STATUS file_stat(EFI_FILE_PROTOCOL *root, const char *path, uint64_t *ret_size)
{
	EFI_FILE_PROTOCOL *f;
	uint64_t size;
	EFI_STATUS err = file_open(root, path, &f);

	if (EFI_ERROR(err))
		return err;
	err = file_size(f, &size);
	file_close(f);
	if (!EFI_ERROR(err) && ret_size)
		*ret_size = size;
	return err;
}

void file_close(EFI_FILE_PROTOCOL *f)
{
	if (!f)
		return;
	if (file_fast)
		file_fast->closed(f);
	f->Close(f);
}

EFI_STATUS file_open_rw(EFI_FILE_PROTOCOL *root, const char *path, EFI_FILE_PROTOCOL **ret)
{
	_cleanup_free_ CHAR16 *p16 = str8_to_16(path, /* path= */ true);

	if (!p16)
		return EFI_OUT_OF_RESOURCES;
	return root->Open(root, ret, p16, EFI_FILE_MODE_READ | EFI_FILE_MODE_WRITE, 0);
}

EFI_STATUS file_info(EFI_FILE_PROTOCOL *f, EFI_FILE_INFO **ret)
{
	UINTN size = DIR_INFO_SIZE;
	EFI_FILE_INFO *info = mem_alloc(size);
	EFI_STATUS err;

	if (!info)
		return EFI_OUT_OF_RESOURCES;
	err = f->GetInfo(f, &file_info_guid, &size, info);
	if (err == EFI_BUFFER_TOO_SMALL) {
		mem_free(info);
		info = mem_alloc(size);
		if (!info)
			return EFI_OUT_OF_RESOURCES;
		err = f->GetInfo(f, &file_info_guid, &size, info);
	}
	if (EFI_ERROR(err)) {
		mem_free(info);
		return err;
	}
	*ret = info;
	return EFI_SUCCESS;
}

EFI_STATUS file_size(EFI_FILE_PROTOCOL *f, uint64_t *ret)
{
	EFI_FILE_INFO *info;
	EFI_STATUS err = file_info(f, &info);

	if (EFI_ERROR(err))
		return err;
	*ret = info->FileSize;
	mem_free(info);
	return EFI_SUCCESS;
}

EFI_STATUS file_read_exact(EFI_FILE_PROTOCOL *f, void *buf, uint64_t size, const char *path)
{
	uint8_t *p = buf;

	if (size >= FILE_FAST_MIN && file_fast && file_fast->read(f, buf, size) == EFI_SUCCESS)
		return EFI_SUCCESS;
	while (size) {
		UINTN n = MIN(size, (uint64_t)READ_CHUNK);
		EFI_STATUS err = f->Read(f, &n, p);

		if (EFI_ERROR(err))
			return log_error_status(err, "%s: read error: %m", path);
		if (n == 0)
			return log_error_status(EFI_END_OF_FILE, "%s: file ended early (%llu bytes missing)",
						path, (unsigned long long)size);
		if (n > MIN(size, (uint64_t)READ_CHUNK))
			return log_error_status(EFI_DEVICE_ERROR, "%s: the file system returned more bytes than asked",
						path);
		p += n;
		size -= n;
	}
	return EFI_SUCCESS;
}

EFI_STATUS file_read_all(EFI_FILE_PROTOCOL *root, const char *path, uint64_t max, uint8_t **ret, size_t *ret_size)
{
	EFI_FILE_PROTOCOL *f;
	uint64_t size;
	uint8_t *buf;
	EFI_STATUS err;

	err = file_open(root, path, &f);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot open: %m", path);
	err = file_size(f, &size);
	if (EFI_ERROR(err)) {
		file_close(f);
		return log_error_status(err, "%s: cannot get size: %m", path);
	}
	/* The caller's limit, at most FILE_READ_ALL_MAX: size + 1 cannot wrap. */
	if (size >= MIN(max, FILE_READ_ALL_MAX)) {
		file_close(f);
		return log_error_status(EFI_BAD_BUFFER_SIZE, "%s: %llu bytes, too large to load", path,
					(unsigned long long)size);
	}
	buf = mem_alloc(size + 1);
	if (!buf) {
		file_close(f);
		return log_error_status(EFI_OUT_OF_RESOURCES, "%s: no memory for %llu bytes", path,
					(unsigned long long)size);
	}
	err = file_read_exact(f, buf, size, path);
	file_close(f);
	if (EFI_ERROR(err)) {
		mem_free(buf);
		return err;
	}
	buf[size] = 0;
	*ret = buf;
	*ret_size = size;
	return EFI_SUCCESS;
}


EFI_STATUS file_list_dir(EFI_FILE_PROTOCOL *root, const char *dir_path, const char *suffix,
			 char ***ret_names, size_t *ret_n)
{
	EFI_FILE_PROTOCOL *dir;
	_cleanup_free_ EFI_FILE_INFO *info = mem_alloc(DIR_INFO_SIZE);
	char **names = NULL;
	size_t n = 0;
	EFI_STATUS err;

	*ret_names = NULL;
	*ret_n = 0;
	if (!info)
		return EFI_OUT_OF_RESOURCES;
	err = file_open(root, dir_path, &dir);
	if (EFI_ERROR(err))
		return err; /* a missing directory is normal: the caller decides */
	for (;;) {
		UINTN size = DIR_INFO_SIZE;
		char *name;

		err = dir->Read(dir, &size, info);
		if (EFI_ERROR(err) || size == 0)
			break;
		if (!(info->Attribute & EFI_FILE_DIRECTORY) != !!suffix)
			continue;
		name = str16_to_8(info->FileName, 512);
		if (!name || (suffix ? !str8_has_suffix_ci(name, suffix) : name[0] == '.')) {
			mem_free(name);
			continue;
		}
		err = array_append(&names, &n, sizeof(name), &name);
		if (EFI_ERROR(err)) {
			mem_free(name);
			break;
		}
	}
	file_close(dir);
	*ret_names = names;
	*ret_n = n;
	return EFI_ERROR(err) ? err : EFI_SUCCESS;
}
