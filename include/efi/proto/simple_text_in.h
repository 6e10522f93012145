/* SPDX-License-Identifier: MIT */
/* EFI_SIMPLE_TEXT_INPUT_PROTOCOL (UEFI 2.10 §12.3). */
#ifndef EFI_PROTO_SIMPLE_TEXT_IN_H
#define EFI_PROTO_SIMPLE_TEXT_IN_H

#include <efi/efi.h>

#define EFI_SIMPLE_TEXT_INPUT_PROTOCOL_GUID \
	{ 0x387477c1, 0x69c7, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

/* One keystroke: a scan code (non-printing keys) or a Unicode character. */
typedef struct EFI_INPUT_KEY {
	UINT16 ScanCode;
	CHAR16 UnicodeChar;
} EFI_INPUT_KEY;
_Static_assert(sizeof(EFI_INPUT_KEY) == 4, "EFI_INPUT_KEY size");

/* Scan codes (UEFI 2.10 §12.3, table "EFI Scan Codes"). */
#define SCAN_NULL 0x0000
#define SCAN_UP 0x0001
#define SCAN_DOWN 0x0002
#define SCAN_RIGHT 0x0003
#define SCAN_LEFT 0x0004
#define SCAN_HOME 0x0005
#define SCAN_END 0x0006
#define SCAN_INSERT 0x0007
#define SCAN_DELETE 0x0008
#define SCAN_PAGE_UP 0x0009
#define SCAN_PAGE_DOWN 0x000a
#define SCAN_F1 0x000b
#define SCAN_F2 0x000c
#define SCAN_F3 0x000d
#define SCAN_F4 0x000e
#define SCAN_F5 0x000f
#define SCAN_F6 0x0010
#define SCAN_F7 0x0011
#define SCAN_F8 0x0012
#define SCAN_F9 0x0013
#define SCAN_F10 0x0014
#define SCAN_F11 0x0015
#define SCAN_F12 0x0016
#define SCAN_ESC 0x0017
#define SCAN_F13 0x0068
#define SCAN_F14 0x0069
#define SCAN_F15 0x006a
#define SCAN_F16 0x006b
#define SCAN_F17 0x006c
#define SCAN_F18 0x006d
#define SCAN_F19 0x006e
#define SCAN_F20 0x006f
#define SCAN_F21 0x0070
#define SCAN_F22 0x0071
#define SCAN_F23 0x0072
#define SCAN_F24 0x0073
#define SCAN_MUTE 0x007f
#define SCAN_VOLUME_UP 0x0080
#define SCAN_VOLUME_DOWN 0x0081
#define SCAN_BRIGHTNESS_UP 0x0100
#define SCAN_BRIGHTNESS_DOWN 0x0101
#define SCAN_SUSPEND 0x0102
#define SCAN_HIBERNATE 0x0103
#define SCAN_TOGGLE_DISPLAY 0x0104
#define SCAN_RECOVERY 0x0105
#define SCAN_EJECT 0x0106

/* Control characters delivered in UnicodeChar. */
#define CHAR_NULL 0x0000
#define CHAR_BACKSPACE 0x0008
#define CHAR_TAB 0x0009
#define CHAR_LINEFEED 0x000a
#define CHAR_CARRIAGE_RETURN 0x000d

typedef EFI_STATUS(EFIAPI *EFI_INPUT_RESET)(IN EFI_SIMPLE_TEXT_INPUT_PROTOCOL *This, IN BOOLEAN ExtendedVerification);
typedef EFI_STATUS(EFIAPI *EFI_INPUT_READ_KEY)(IN EFI_SIMPLE_TEXT_INPUT_PROTOCOL *This, OUT EFI_INPUT_KEY *Key);

struct EFI_SIMPLE_TEXT_INPUT_PROTOCOL {
	EFI_INPUT_RESET Reset;
	EFI_INPUT_READ_KEY ReadKeyStroke;
	EFI_EVENT WaitForKey;
};
_Static_assert(offsetof(EFI_SIMPLE_TEXT_INPUT_PROTOCOL, ReadKeyStroke) == EFI_LAYOUT(0x08, 0x04), "ReadKeyStroke");
_Static_assert(offsetof(EFI_SIMPLE_TEXT_INPUT_PROTOCOL, WaitForKey) == EFI_LAYOUT(0x10, 0x08), "WaitForKey");
_Static_assert(sizeof(EFI_SIMPLE_TEXT_INPUT_PROTOCOL) == EFI_LAYOUT(0x18, 0x0c), "EFI_SIMPLE_TEXT_INPUT_PROTOCOL size");

#endif /* EFI_PROTO_SIMPLE_TEXT_IN_H */
