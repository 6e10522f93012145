/* The read-only half of EFI_FILE_PROTOCOL for handoff's own volumes (ro_file.h). */
#include "ro_file.h"
#include "core/str16.h"

static EFI_STATUS EFIAPI ro_delete(EFI_FILE_PROTOCOL *this)
{
	this->Close(this);
	return EFI_WARN_DELETE_FAILURE; /* §13.5: the handle is closed, the file is not deleted */
}

static EFI_STATUS EFIAPI ro_write(EFI_FILE_PROTOCOL *this, UINTN *size, VOID *buf)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS EFIAPI ro_get_position(EFI_FILE_PROTOCOL *this, UINT64 *pos)
{
	struct ro_file *f = (struct ro_file *)this;

	if (f->dir)
		return EFI_UNSUPPORTED;
	*pos = f->pos;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ro_set_position(EFI_FILE_PROTOCOL *this, UINT64 pos)
{
	struct ro_file *f = (struct ro_file *)this;

	if (f->dir && pos != 0)
		return EFI_UNSUPPORTED; /* directories can only be rewound */
	f->pos = pos == UINT64_MAX ? f->size : pos;
	return EFI_SUCCESS;
}

static EFI_STATUS EFIAPI ro_set_info(EFI_FILE_PROTOCOL *this, const EFI_GUID *type, UINTN size, VOID *buf)
{
	return EFI_WRITE_PROTECTED;
}

static EFI_STATUS EFIAPI ro_flush(EFI_FILE_PROTOCOL *this)
{
	return EFI_SUCCESS;
}

void ro_file_init(struct ro_file *f, EFI_FILE_OPEN open, EFI_FILE_CLOSE close, EFI_FILE_READ read,
		  EFI_FILE_GET_INFO get_info)
{
	f->proto = (EFI_FILE_PROTOCOL){
		.Revision = EFI_FILE_PROTOCOL_REVISION, .Open = open, .Close = close, .Delete = ro_delete,
		.Read = read, .Write = ro_write, .GetPosition = ro_get_position, .SetPosition = ro_set_position,
		.GetInfo = get_info, .SetInfo = ro_set_info, .Flush = ro_flush,
	};
}

EFI_FILE_INFO *ro_file_info(const char *name, bool dir, UINTN *size, void *buf, EFI_STATUS *err)
{
	_cleanup_free_ CHAR16 *name16 = str8_to_16(name, /* path= */ false);
	EFI_FILE_INFO *info = buf;
	UINTN need;

	*err = EFI_OUT_OF_RESOURCES;
	if (!name16)
		return NULL;
	need = sizeof(EFI_FILE_INFO) + (strlen16(name16) + 1) * sizeof(CHAR16);
	*err = EFI_BUFFER_TOO_SMALL;
	if (*size < need) {
		*size = need;
		return NULL;
	}
	*info = (EFI_FILE_INFO){ .Size = need, .Attribute = EFI_FILE_READ_ONLY | (dir ? EFI_FILE_DIRECTORY : 0) };
	memcpy(info->FileName, name16, need - sizeof(EFI_FILE_INFO));
	*size = need;
	*err = EFI_SUCCESS;
	return info;
}
