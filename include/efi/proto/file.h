/* SPDX-License-Identifier: MIT */
/* EFI_FILE_PROTOCOL and its information types (UEFI 2.10 §13.5). */
#ifndef EFI_PROTO_FILE_H
#define EFI_PROTO_FILE_H

#include <efi/efi.h>

typedef struct EFI_FILE_PROTOCOL EFI_FILE_PROTOCOL;

#define EFI_FILE_PROTOCOL_REVISION 0x00010000
#define EFI_FILE_PROTOCOL_REVISION2 0x00020000
#define EFI_FILE_PROTOCOL_LATEST_REVISION EFI_FILE_PROTOCOL_REVISION2

/* Open modes; the only valid combinations are R, R|W and R|W|C. */
#define EFI_FILE_MODE_READ 0x0000000000000001ULL
#define EFI_FILE_MODE_WRITE 0x0000000000000002ULL
#define EFI_FILE_MODE_CREATE 0x8000000000000000ULL

/* File attribute bits. */
#define EFI_FILE_READ_ONLY 0x0000000000000001ULL
#define EFI_FILE_HIDDEN 0x0000000000000002ULL
#define EFI_FILE_SYSTEM 0x0000000000000004ULL
#define EFI_FILE_RESERVED 0x0000000000000008ULL
#define EFI_FILE_DIRECTORY 0x0000000000000010ULL
#define EFI_FILE_ARCHIVE 0x0000000000000020ULL
#define EFI_FILE_VALID_ATTR 0x0000000000000037ULL

/* Token for the asynchronous revision-2 functions. */
typedef struct EFI_FILE_IO_TOKEN {
	EFI_EVENT Event;
	EFI_STATUS Status;
	UINTN BufferSize;
	VOID *Buffer;
} EFI_FILE_IO_TOKEN;
_Static_assert(sizeof(EFI_FILE_IO_TOKEN) == EFI_LAYOUT(32, 16), "EFI_FILE_IO_TOKEN size");

typedef EFI_STATUS(EFIAPI *EFI_FILE_OPEN)(IN EFI_FILE_PROTOCOL *This, OUT EFI_FILE_PROTOCOL **NewHandle,
					  IN CHAR16 *FileName, IN UINT64 OpenMode, IN UINT64 Attributes);
typedef EFI_STATUS(EFIAPI *EFI_FILE_CLOSE)(IN EFI_FILE_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_FILE_DELETE)(IN EFI_FILE_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_FILE_READ)(IN EFI_FILE_PROTOCOL *This, IN OUT UINTN *BufferSize, OUT VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_FILE_WRITE)(IN EFI_FILE_PROTOCOL *This, IN OUT UINTN *BufferSize, IN VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_FILE_GET_POSITION)(IN EFI_FILE_PROTOCOL *This, OUT UINT64 *Position);
typedef EFI_STATUS(EFIAPI *EFI_FILE_SET_POSITION)(IN EFI_FILE_PROTOCOL *This, IN UINT64 Position);
typedef EFI_STATUS(EFIAPI *EFI_FILE_GET_INFO)(IN EFI_FILE_PROTOCOL *This, IN const EFI_GUID *InformationType,
					      IN OUT UINTN *BufferSize, OUT VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_FILE_SET_INFO)(IN EFI_FILE_PROTOCOL *This, IN const EFI_GUID *InformationType,
					      IN UINTN BufferSize, IN VOID *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_FILE_FLUSH)(IN EFI_FILE_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_FILE_OPEN_EX)(IN EFI_FILE_PROTOCOL *This, OUT EFI_FILE_PROTOCOL **NewHandle,
					     IN CHAR16 *FileName, IN UINT64 OpenMode, IN UINT64 Attributes,
					     IN OUT EFI_FILE_IO_TOKEN *Token);
typedef EFI_STATUS(EFIAPI *EFI_FILE_READ_EX)(IN EFI_FILE_PROTOCOL *This, IN OUT EFI_FILE_IO_TOKEN *Token);
typedef EFI_STATUS(EFIAPI *EFI_FILE_WRITE_EX)(IN EFI_FILE_PROTOCOL *This, IN OUT EFI_FILE_IO_TOKEN *Token);
typedef EFI_STATUS(EFIAPI *EFI_FILE_FLUSH_EX)(IN EFI_FILE_PROTOCOL *This, IN OUT EFI_FILE_IO_TOKEN *Token);

struct EFI_FILE_PROTOCOL {
	UINT64 Revision;
	EFI_FILE_OPEN Open;
	EFI_FILE_CLOSE Close;
	EFI_FILE_DELETE Delete;
	EFI_FILE_READ Read;
	EFI_FILE_WRITE Write;
	EFI_FILE_GET_POSITION GetPosition;
	EFI_FILE_SET_POSITION SetPosition;
	EFI_FILE_GET_INFO GetInfo;
	EFI_FILE_SET_INFO SetInfo;
	EFI_FILE_FLUSH Flush;
	/* Revision 2 only; check Revision before using these. */
	EFI_FILE_OPEN_EX OpenEx;
	EFI_FILE_READ_EX ReadEx;
	EFI_FILE_WRITE_EX WriteEx;
	EFI_FILE_FLUSH_EX FlushEx;
};
_Static_assert(offsetof(EFI_FILE_PROTOCOL, Open) == EFI_LAYOUT(0x08, 0x08), "EFI_FILE_PROTOCOL.Open");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, Read) == EFI_LAYOUT(0x20, 0x14), "EFI_FILE_PROTOCOL.Read");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, SetPosition) == EFI_LAYOUT(0x38, 0x20), "EFI_FILE_PROTOCOL.SetPosition");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, GetInfo) == EFI_LAYOUT(0x40, 0x24), "EFI_FILE_PROTOCOL.GetInfo");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, Flush) == EFI_LAYOUT(0x50, 0x2c), "EFI_FILE_PROTOCOL.Flush");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, OpenEx) == EFI_LAYOUT(0x58, 0x30), "EFI_FILE_PROTOCOL.OpenEx");
_Static_assert(offsetof(EFI_FILE_PROTOCOL, FlushEx) == EFI_LAYOUT(0x70, 0x3c), "EFI_FILE_PROTOCOL.FlushEx");
_Static_assert(sizeof(EFI_FILE_PROTOCOL) == EFI_LAYOUT(0x78, 0x40), "EFI_FILE_PROTOCOL size");

/* ---- EFI_FILE_INFO (UEFI 2.10 §13.5.16) ---- */

#define EFI_FILE_INFO_ID \
	{ 0x09576e92, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

/* Size covers the whole structure including the NUL-terminated FileName. */
typedef struct EFI_FILE_INFO {
	UINT64 Size;
	UINT64 FileSize;
	UINT64 PhysicalSize;
	EFI_TIME CreateTime;
	EFI_TIME LastAccessTime;
	EFI_TIME ModificationTime;
	UINT64 Attribute;
	CHAR16 FileName[];
} EFI_FILE_INFO;
_Static_assert(offsetof(EFI_FILE_INFO, FileSize) == 8, "EFI_FILE_INFO.FileSize");
_Static_assert(offsetof(EFI_FILE_INFO, PhysicalSize) == 16, "EFI_FILE_INFO.PhysicalSize");
_Static_assert(offsetof(EFI_FILE_INFO, CreateTime) == 24, "EFI_FILE_INFO.CreateTime");
_Static_assert(offsetof(EFI_FILE_INFO, ModificationTime) == 56, "EFI_FILE_INFO.ModificationTime");
_Static_assert(offsetof(EFI_FILE_INFO, Attribute) == 72, "EFI_FILE_INFO.Attribute");
_Static_assert(offsetof(EFI_FILE_INFO, FileName) == 80, "EFI_FILE_INFO.FileName");
_Static_assert(sizeof(EFI_FILE_INFO) == 80, "EFI_FILE_INFO size");

/* ---- EFI_FILE_SYSTEM_INFO (UEFI 2.10 §13.5.17) ---- */

#define EFI_FILE_SYSTEM_INFO_ID \
	{ 0x09576e93, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

typedef struct EFI_FILE_SYSTEM_INFO {
	UINT64 Size;
	BOOLEAN ReadOnly;
	UINT64 VolumeSize;
	UINT64 FreeSpace;
	UINT32 BlockSize;
	CHAR16 VolumeLabel[];
} EFI_FILE_SYSTEM_INFO;
_Static_assert(offsetof(EFI_FILE_SYSTEM_INFO, ReadOnly) == 8, "EFI_FILE_SYSTEM_INFO.ReadOnly");
_Static_assert(offsetof(EFI_FILE_SYSTEM_INFO, VolumeSize) == 16, "EFI_FILE_SYSTEM_INFO.VolumeSize");
_Static_assert(offsetof(EFI_FILE_SYSTEM_INFO, FreeSpace) == 24, "EFI_FILE_SYSTEM_INFO.FreeSpace");
_Static_assert(offsetof(EFI_FILE_SYSTEM_INFO, BlockSize) == 32, "EFI_FILE_SYSTEM_INFO.BlockSize");
_Static_assert(offsetof(EFI_FILE_SYSTEM_INFO, VolumeLabel) == 36, "EFI_FILE_SYSTEM_INFO.VolumeLabel");

/* EFI_FILE_SYSTEM_VOLUME_LABEL (§13.5.18): the buffer is just a CHAR16 string. */
#define EFI_FILE_SYSTEM_VOLUME_LABEL_ID \
	{ 0xdb47d7d3, 0xfe81, 0x11d3, { 0x9a, 0x35, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }

#endif /* EFI_PROTO_FILE_H */
