/* initrds: opened and sized up front (so a missing one stops the boot before
 * anything is loaded), then read once, straight into the final buffer. The
 * LoadFile2 provider on the Linux initrd media device path (x86 boot.rst
 * "EFI stub"; LINUX_EFI_INITRD_MEDIA_GUID) serves the same set to a kernel's
 * own EFI stub, reading into the buffer the kernel allocated. */
#include "boot.h"
#include "core/initrd_layout.h"
#include <efi/linux.h>

static EFI_GUID lf2_guid = EFI_LOAD_FILE2_PROTOCOL_GUID;
static EFI_GUID dp_guid = EFI_DEVICE_PATH_PROTOCOL_GUID;

/* Lays the file out after the others (checked: initrd_layout.c) and keeps it. */
static EFI_STATUS initrd_set_append(struct initrd_set *set, struct initrd_file *f)
{
	uint64_t total = set->total_size;
	EFI_STATUS err;

	err = initrd_layout_append(&total, f->size, f->path, &f->offset);
	if (EFI_ERROR(err))
		return err;
	err = array_append(&set->files, &set->n, sizeof(*f), f);
	if (EFI_ERROR(err))
		return log_error_status(err, "initrd %s: out of memory", f->path);
	set->total_size = total;
	return EFI_SUCCESS;
}

EFI_STATUS initrd_set_add_files(struct initrd_set *set, EFI_FILE_PROTOCOL *root, char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct initrd_file f = { .path = paths[i] };
		EFI_STATUS err;

		err = file_open(root, paths[i], &f.file);
		if (EFI_ERROR(err))
			return log_error_status(err, "initrd %s: cannot open: %m", paths[i]);
		err = file_size(f.file, &f.size);
		if (EFI_ERROR(err))
			log_error_status(err, "initrd %s: cannot get size: %m", paths[i]);
		else
			err = initrd_set_append(set, &f);
		if (EFI_ERROR(err)) {
			file_close(f.file);
			return err;
		}
	}
	return EFI_SUCCESS;
}

EFI_STATUS initrd_set_add_data(struct initrd_set *set, const char *what, const uint8_t *data, uint64_t size)
{
	return initrd_set_append(set, &(struct initrd_file){ .path = (char *)what, .data = data, .size = size });
}

static EFI_STATUS foreign_read(struct initrd_file *f, uint8_t *buf);

EFI_STATUS initrd_set_read(struct initrd_set *set, uint8_t *buf, uint64_t buf_size)
{
	uint64_t end = 0;

	if (set->total_size > buf_size)
		return log_error_status(EFI_BUFFER_TOO_SMALL, "initrd: %llu bytes do not fit the %llu byte buffer",
					(unsigned long long)set->total_size, (unsigned long long)buf_size);
	for (size_t i = 0; i < set->n; i++) {
		struct initrd_file *f = &set->files[i];
		EFI_STATUS err;

		/* Offsets come from initrd_layout_append(); checked again, as the copy is what matters. */
		if (f->offset < end || !range_ok(f->offset, f->size, buf_size))
			return log_error_status(EFI_BAD_BUFFER_SIZE, "initrd %s: does not fit its place in the buffer",
						f->path);
		memset(buf + end, 0, f->offset - end);
		if (f->data) {
			memcpy(buf + f->offset, f->data, f->size);
		} else if (f->lf2) {
			err = foreign_read(f, buf + f->offset);
			if (EFI_ERROR(err))
				return err;
		} else {
			f->file->SetPosition(f->file, 0);
			err = file_read_exact(f->file, buf + f->offset, f->size, f->path);
			if (EFI_ERROR(err))
				return err;
		}
		end = f->offset + f->size;
	}
	return EFI_SUCCESS;
}

void initrd_set_close(struct initrd_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		file_close(set->files[i].file);
	mem_free(set->files);
	*set = (struct initrd_set){ 0 };
}

/* The protocol instance carries the set it serves; This points at .proto. */
struct initrd_lf2 {
	EFI_LOAD_FILE2_PROTOCOL proto;
	struct initrd_set *set;
};

static const LINUX_INITRD_MEDIA_DEVICE_PATH initrd_devpath = {
	.vendor = {
		.Header = { MEDIA_DEVICE_PATH, MEDIA_VENDOR_DP, { sizeof(VENDOR_DEVICE_PATH), 0 } },
		.Guid = LINUX_INITRD_MEDIA_GUID,
	},
	.end = { END_DEVICE_PATH_TYPE, END_ENTIRE_DEVICE_PATH_SUBTYPE, { END_DEVICE_PATH_LENGTH, 0 } },
};

/* UEFI 2.10 §13.2: BootPolicy must be FALSE for LoadFile2; a missing or short
 * buffer gets EFI_BUFFER_TOO_SMALL and the size. */
static EFI_STATUS EFIAPI initrd_lf2_load(EFI_LOAD_FILE2_PROTOCOL *this, EFI_DEVICE_PATH_PROTOCOL *path,
					 BOOLEAN boot_policy, UINTN *size, VOID *buf)
{
	struct initrd_lf2 *lf = (struct initrd_lf2 *)this;

	if (!this || !size || !path)
		return EFI_INVALID_PARAMETER;
	if (boot_policy)
		return EFI_UNSUPPORTED;
	if (lf->set->n == 0)
		return EFI_NOT_FOUND;
	if (!buf || *size < lf->set->total_size) {
		*size = lf->set->total_size;
		return EFI_BUFFER_TOO_SMALL;
	}
	*size = lf->set->total_size;
	return initrd_set_read(lf->set, buf, lf->set->total_size);
}

EFI_STATUS initrd_lf2_install(struct initrd_set *set, EFI_HANDLE *ret_handle)
{
	struct initrd_lf2 *lf = mem_zalloc(sizeof(*lf));
	EFI_HANDLE handle = NULL;
	EFI_STATUS err;

	if (!lf)
		return EFI_OUT_OF_RESOURCES;
	lf->proto.LoadFile = initrd_lf2_load;
	lf->set = set;
	err = BS->InstallMultipleProtocolInterfaces(&handle, &dp_guid, (void *)&initrd_devpath, &lf2_guid, lf, NULL);
	if (EFI_ERROR(err)) {
		mem_free(lf);
		/* EFI_ALREADY_STARTED: another loader's initrd is still registered. */
		return log_error_status(err, "cannot register the initrd (LoadFile2): %m");
	}
	*ret_handle = handle;
	return EFI_SUCCESS;
}

void initrd_lf2_uninstall(EFI_HANDLE handle)
{
	void *lf = NULL;

	if (!handle)
		return;
	if (BS->HandleProtocol(handle, &lf2_guid, &lf) != EFI_SUCCESS)
		lf = NULL;
	if (BS->UninstallMultipleProtocolInterfaces(handle, &dp_guid, (void *)&initrd_devpath, &lf2_guid, lf, NULL) ==
	    EFI_SUCCESS)
		mem_free(lf);
}

/* The LoadFile2 another loader registered on the initrd media path, if any. */
static bool foreign_find(struct lf2_foreign *ret)
{
	EFI_DEVICE_PATH_PROTOCOL *dp = (EFI_DEVICE_PATH_PROTOCOL *)&initrd_devpath;

	*ret = (struct lf2_foreign){ 0 };
	return BS->LocateDevicePath(&lf2_guid, &dp, &ret->handle) == EFI_SUCCESS &&
	       BS->HandleProtocol(ret->handle, &lf2_guid, &ret->lf2) == EFI_SUCCESS;
}

/* Moves it out of the way (ours takes the path, or none is offered at all);
 * initrd_lf2_restore_foreign() puts it back. */
static EFI_STATUS foreign_unregister(struct lf2_foreign *saved)
{
	EFI_STATUS err = BS->HandleProtocol(saved->handle, &dp_guid, &saved->devpath);

	if (!EFI_ERROR(err))
		err = BS->UninstallMultipleProtocolInterfaces(saved->handle, &dp_guid, saved->devpath, &lf2_guid,
							      saved->lf2, NULL);
	if (EFI_ERROR(err))
		saved->handle = NULL; /* still registered */
	return err;
}

/* The size comes from another program: capped before it is laid out. */
static EFI_STATUS foreign_size(EFI_LOAD_FILE2_PROTOCOL *lf2, uint64_t *ret)
{
	EFI_DEVICE_PATH_PROTOCOL *dp = (EFI_DEVICE_PATH_PROTOCOL *)&initrd_devpath;
	UINTN size = 0;
	EFI_STATUS err;

	err = lf2->LoadFile(lf2, dp, FALSE, &size, NULL);
	if (err != EFI_BUFFER_TOO_SMALL || size == 0)
		return err == EFI_SUCCESS || err == EFI_NOT_FOUND ? EFI_NOT_FOUND
			: log_error_status(err, "loader's initrd (LoadFile2): %m");
	if ((uint64_t)size > INITRD_MAX_TOTAL) /* never on IA-32, where UINTN is 32 bits */
		return log_error_status(EFI_BAD_BUFFER_SIZE,
					"loader's initrd (LoadFile2): %llu bytes, more than the %llu MiB limit",
					(unsigned long long)size, (unsigned long long)(INITRD_MAX_TOTAL >> 20));
	*ret = size;
	return EFI_SUCCESS;
}

/* Read when the buffer it belongs in exists: straight into the kernel's
 * initrd, no copy of it in between. It must be the size it said. */
static EFI_STATUS foreign_read(struct initrd_file *f, uint8_t *buf)
{
	EFI_DEVICE_PATH_PROTOCOL *dp = (EFI_DEVICE_PATH_PROTOCOL *)&initrd_devpath;
	UINTN size = (UINTN)f->size;
	EFI_STATUS err;

	err = f->lf2->LoadFile(f->lf2, dp, FALSE, &size, buf);
	if (EFI_ERROR(err))
		return log_error_status(err, "reading the loader's initrd (LoadFile2): %m");
	if (size != f->size)
		return log_error_status(EFI_BAD_BUFFER_SIZE, "loader's initrd (LoadFile2): %llu bytes, it said %llu",
					(unsigned long long)size, (unsigned long long)f->size);
	return EFI_SUCCESS;
}

EFI_STATUS initrd_set_add_foreign(struct initrd_set *set, struct lf2_foreign *saved)
{
	struct lf2_foreign found;
	struct initrd_file f = { .path = (char *)"loader's initrd" };
	EFI_STATUS err;

	*saved = (struct lf2_foreign){ 0 };
	if (!foreign_find(&found))
		return EFI_NOT_FOUND;
	f.lf2 = found.lf2;
	err = foreign_size(f.lf2, &f.size);
	if (!EFI_ERROR(err))
		err = initrd_set_append(set, &f);
	if (EFI_ERROR(err))
		return err;
	*saved = found;
	foreign_unregister(saved); /* if it stays, ours cannot be installed: said then */
	return EFI_SUCCESS;
}

EFI_STATUS initrd_lf2_hide_foreign(struct lf2_foreign *saved)
{
	EFI_STATUS err;

	if (!foreign_find(saved))
		return EFI_NOT_FOUND;
	err = foreign_unregister(saved);
	if (EFI_ERROR(err))
		return log_error_status(err, "the loader's initrd (LoadFile2) cannot be unregistered: %m");
	return EFI_SUCCESS;
}

void initrd_lf2_restore_foreign(struct lf2_foreign *saved)
{
	if (saved->handle)
		BS->InstallMultipleProtocolInterfaces(&saved->handle, &dp_guid, saved->devpath, &lf2_guid, saved->lf2,
						      NULL);
	*saved = (struct lf2_foreign){ 0 };
}
