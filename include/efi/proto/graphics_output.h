/* SPDX-License-Identifier: MIT */
/* EFI_GRAPHICS_OUTPUT_PROTOCOL (UEFI 2.10 §12.9). */
#ifndef EFI_PROTO_GRAPHICS_OUTPUT_H
#define EFI_PROTO_GRAPHICS_OUTPUT_H

#include <efi/efi.h>

#define EFI_GRAPHICS_OUTPUT_PROTOCOL_GUID \
	{ 0x9042a9de, 0x23dc, 0x4a38, { 0x96, 0xfb, 0x7a, 0xde, 0xd0, 0x80, 0x51, 0x6a } }

typedef struct EFI_GRAPHICS_OUTPUT_PROTOCOL EFI_GRAPHICS_OUTPUT_PROTOCOL;

typedef struct EFI_PIXEL_BITMASK {
	UINT32 RedMask;
	UINT32 GreenMask;
	UINT32 BlueMask;
	UINT32 ReservedMask;
} EFI_PIXEL_BITMASK;
_Static_assert(sizeof(EFI_PIXEL_BITMASK) == 16, "EFI_PIXEL_BITMASK size");

typedef enum {
	PixelRedGreenBlueReserved8BitPerColor,
	PixelBlueGreenRedReserved8BitPerColor,
	PixelBitMask,
	PixelBltOnly,
	PixelFormatMax
} EFI_GRAPHICS_PIXEL_FORMAT;

typedef struct EFI_GRAPHICS_OUTPUT_MODE_INFORMATION {
	UINT32 Version;
	UINT32 HorizontalResolution;
	UINT32 VerticalResolution;
	EFI_GRAPHICS_PIXEL_FORMAT PixelFormat;
	EFI_PIXEL_BITMASK PixelInformation; /* valid only for PixelBitMask */
	UINT32 PixelsPerScanLine;
} EFI_GRAPHICS_OUTPUT_MODE_INFORMATION;
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION, PixelFormat) == 12, "PixelFormat");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION, PixelInformation) == 16, "PixelInformation");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION, PixelsPerScanLine) == 32, "PixelsPerScanLine");
_Static_assert(sizeof(EFI_GRAPHICS_OUTPUT_MODE_INFORMATION) == 36, "EFI_GRAPHICS_OUTPUT_MODE_INFORMATION size");

typedef struct EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE {
	UINT32 MaxMode;
	UINT32 Mode;
	EFI_GRAPHICS_OUTPUT_MODE_INFORMATION *Info;
	UINTN SizeOfInfo;
	EFI_PHYSICAL_ADDRESS FrameBufferBase;
	UINTN FrameBufferSize;
} EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE;
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE, Info) == EFI_LAYOUT(8, 8), "Info");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE, SizeOfInfo) == EFI_LAYOUT(16, 12), "SizeOfInfo");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE, FrameBufferBase) == EFI_LAYOUT(24, 16), "FrameBufferBase");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE, FrameBufferSize) == EFI_LAYOUT(32, 24), "FrameBufferSize");
_Static_assert(sizeof(EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE) == EFI_LAYOUT(40, 32),
	       "EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE size");

typedef struct EFI_GRAPHICS_OUTPUT_BLT_PIXEL {
	UINT8 Blue;
	UINT8 Green;
	UINT8 Red;
	UINT8 Reserved;
} EFI_GRAPHICS_OUTPUT_BLT_PIXEL;
_Static_assert(sizeof(EFI_GRAPHICS_OUTPUT_BLT_PIXEL) == 4, "EFI_GRAPHICS_OUTPUT_BLT_PIXEL size");

typedef enum {
	EfiBltVideoFill,
	EfiBltVideoToBltBuffer,
	EfiBltBufferToVideo,
	EfiBltVideoToVideo,
	EfiGraphicsOutputBltOperationMax
} EFI_GRAPHICS_OUTPUT_BLT_OPERATION;

typedef EFI_STATUS(EFIAPI *EFI_GRAPHICS_OUTPUT_PROTOCOL_QUERY_MODE)(IN EFI_GRAPHICS_OUTPUT_PROTOCOL *This,
								    IN UINT32 ModeNumber, OUT UINTN *SizeOfInfo,
								    OUT EFI_GRAPHICS_OUTPUT_MODE_INFORMATION **Info);
typedef EFI_STATUS(EFIAPI *EFI_GRAPHICS_OUTPUT_PROTOCOL_SET_MODE)(IN EFI_GRAPHICS_OUTPUT_PROTOCOL *This,
								  IN UINT32 ModeNumber);
typedef EFI_STATUS(EFIAPI *EFI_GRAPHICS_OUTPUT_PROTOCOL_BLT)(IN EFI_GRAPHICS_OUTPUT_PROTOCOL *This,
							     IN OUT EFI_GRAPHICS_OUTPUT_BLT_PIXEL *BltBuffer OPTIONAL,
							     IN EFI_GRAPHICS_OUTPUT_BLT_OPERATION BltOperation,
							     IN UINTN SourceX, IN UINTN SourceY,
							     IN UINTN DestinationX, IN UINTN DestinationY,
							     IN UINTN Width, IN UINTN Height,
							     IN UINTN Delta OPTIONAL);

struct EFI_GRAPHICS_OUTPUT_PROTOCOL {
	EFI_GRAPHICS_OUTPUT_PROTOCOL_QUERY_MODE QueryMode;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_SET_MODE SetMode;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_BLT Blt;
	EFI_GRAPHICS_OUTPUT_PROTOCOL_MODE *Mode;
};
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL, Blt) == EFI_LAYOUT(0x10, 0x08), "Blt");
_Static_assert(offsetof(EFI_GRAPHICS_OUTPUT_PROTOCOL, Mode) == EFI_LAYOUT(0x18, 0x0c), "Mode");
_Static_assert(sizeof(EFI_GRAPHICS_OUTPUT_PROTOCOL) == EFI_LAYOUT(0x20, 0x10), "EFI_GRAPHICS_OUTPUT_PROTOCOL size");

#endif /* EFI_PROTO_GRAPHICS_OUTPUT_H */
