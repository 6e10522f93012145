/* SPDX-License-Identifier: MIT */
/*
 * efi.h - UEFI base types, status codes and the system, boot-services and
 * runtime-services tables (UEFI 2.10 §2.3, §4, §7, §8, Appendix D).
 *
 * Written for handoff from the UEFI 2.10 specification, for x86-64, IA-32
 * and AArch64.
 *
 * Build modes: the same header is used by the firmware builds (clang,
 * x86_64-unknown-windows, i686-unknown-windows or aarch64-unknown-windows,
 * freestanding) and by host unit tests on Linux (x86-64) that implement fake
 * firmware tables.  On x86-64, EFIAPI is therefore always the Microsoft x64
 * calling convention, so host fakes are called exactly as real firmware.  On
 * IA-32 (UEFI 2.10 §2.3.2) it is the C convention, UINTN and pointers are 32
 * bits, and every layout that depends on them is asserted with both offsets:
 * EFI_LAYOUT(x64, ia32).  AArch64 (§2.3.6) has the 64-bit layouts of x64
 * (UINTN and pointers 64 bits, natural alignment) and the platform's own
 * calling convention, AAPCS64, for services: EFIAPI adds nothing there.
 *
 * GUID convention: every *_GUID / *_ID macro expands to a brace initializer
 * for EFI_GUID in the spec's notation, { Data1, Data2, Data3, { Data4[0..7] } }.
 * Use it to initialise an object or as a compound literal:
 *
 *     static const EFI_GUID guid = EFI_LOADED_IMAGE_PROTOCOL_GUID;
 *     bs->HandleProtocol(h, &(EFI_GUID)EFI_LOADED_IMAGE_PROTOCOL_GUID, &p);
 *
 * Deliberate deviation from the spec prototypes: input-only EFI_GUID pointers
 * are "const EFI_GUID *" (same ABI; lets callers pass static const GUIDs).
 */
#ifndef EFI_EFI_H
#define EFI_EFI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Calling convention and base types (UEFI 2.10 §2.3.1, §2.3.4) ---- */

#if defined(__x86_64__)
#define EFIAPI __attribute__((ms_abi))
typedef int64_t INTN;
typedef uint64_t UINTN;
#define EFI_LAYOUT(x64, ia32) (x64)
#elif defined(__i386__)
/* UEFI 2.10 §2.3.2: IA-32 services use the C calling convention (cdecl). */
#define EFIAPI __attribute__((cdecl))
typedef int32_t INTN;
typedef uint32_t UINTN;
#define EFI_LAYOUT(x64, ia32) (ia32)
#elif defined(__aarch64__)
/* UEFI 2.10 §2.3.6: AArch64 services use the standard AAPCS64 convention,
 * the compiler's default; UINTN is 64 bits, as are pointers. */
#define EFIAPI
typedef int64_t INTN;
typedef uint64_t UINTN;
#define EFI_LAYOUT(x64, ia32) (x64)
#else
#error "handoff's UEFI headers are for x86-64, IA-32 and AArch64"
#endif

#ifndef IN
#define IN
#endif
#ifndef OUT
#define OUT
#endif
#ifndef OPTIONAL
#define OPTIONAL
#endif

typedef uint8_t BOOLEAN;
typedef int8_t INT8;
typedef uint8_t UINT8;
typedef int16_t INT16;
typedef uint16_t UINT16;
typedef int32_t INT32;
typedef uint32_t UINT32;
typedef int64_t INT64;
typedef uint64_t UINT64;
typedef uint8_t CHAR8;
typedef uint16_t CHAR16;
typedef void VOID;

typedef UINTN EFI_STATUS;
typedef VOID *EFI_HANDLE;
typedef VOID *EFI_EVENT;
typedef UINT64 EFI_LBA;
typedef UINTN EFI_TPL;
typedef UINT64 EFI_PHYSICAL_ADDRESS;
typedef UINT64 EFI_VIRTUAL_ADDRESS;

#ifndef TRUE
#define TRUE ((BOOLEAN)1)
#endif
#ifndef FALSE
#define FALSE ((BOOLEAN)0)
#endif

_Static_assert(sizeof(void *) == EFI_LAYOUT(8, 4), "pointers: 64 bits on x86-64 and AArch64, 32 on IA-32");
_Static_assert(sizeof(CHAR16) == 2, "CHAR16 must be UCS-2 (16 bits)");
_Static_assert(sizeof(BOOLEAN) == 1, "BOOLEAN is one byte");
_Static_assert(sizeof(UINTN) == sizeof(void *), "UINTN is the native word (UEFI 2.10 §2.3.1)");
_Static_assert(sizeof(UINT64) == 8 && _Alignof(UINT64) == 8, "UINT64 is naturally aligned in both ABIs");

/* 128-bit GUID, 64-bit aligned in the spec's words but laid out as below
 * (UEFI 2.10 §2.3.1, Appendix A). */
typedef struct EFI_GUID {
	UINT32 Data1;
	UINT16 Data2;
	UINT16 Data3;
	UINT8 Data4[8];
} EFI_GUID;
_Static_assert(sizeof(EFI_GUID) == 16, "EFI_GUID size");

/* Network addresses (UEFI 2.10 §2.3.1, "Common UEFI Data Types"): byte arrays
 * in network order; EFI_IP_ADDRESS is 4-byte aligned (its UINT32 view). */
typedef struct EFI_IPv4_ADDRESS {
	UINT8 Addr[4];
} EFI_IPv4_ADDRESS;
typedef struct EFI_IPv6_ADDRESS {
	UINT8 Addr[16];
} EFI_IPv6_ADDRESS;
typedef union EFI_IP_ADDRESS {
	UINT32 Addr[4];
	EFI_IPv4_ADDRESS v4;
	EFI_IPv6_ADDRESS v6;
} EFI_IP_ADDRESS;
_Static_assert(sizeof(EFI_IPv4_ADDRESS) == 4 && _Alignof(EFI_IPv4_ADDRESS) == 1, "EFI_IPv4_ADDRESS");
_Static_assert(sizeof(EFI_IP_ADDRESS) == 16 && _Alignof(EFI_IP_ADDRESS) == 4, "EFI_IP_ADDRESS");

/* ---- Status codes (UEFI 2.10 Appendix D) ---- */

/* The high bit of UINTN: bit 63 on x86-64, bit 31 on IA-32 (Appendix D). */
#define EFI_ERROR_BIT ((EFI_STATUS)1 << (sizeof(EFI_STATUS) * 8 - 1))
#define EFIERR(n) ((EFI_STATUS)(EFI_ERROR_BIT | (EFI_STATUS)(n)))
#define EFIWARN(n) ((EFI_STATUS)(n))
#define EFI_ERROR(s) ((((EFI_STATUS)(s)) & EFI_ERROR_BIT) != 0)

#define EFI_SUCCESS ((EFI_STATUS)0)

#define EFI_LOAD_ERROR EFIERR(1)
#define EFI_INVALID_PARAMETER EFIERR(2)
#define EFI_UNSUPPORTED EFIERR(3)
#define EFI_BAD_BUFFER_SIZE EFIERR(4)
#define EFI_BUFFER_TOO_SMALL EFIERR(5)
#define EFI_NOT_READY EFIERR(6)
#define EFI_DEVICE_ERROR EFIERR(7)
#define EFI_WRITE_PROTECTED EFIERR(8)
#define EFI_OUT_OF_RESOURCES EFIERR(9)
#define EFI_VOLUME_CORRUPTED EFIERR(10)
#define EFI_VOLUME_FULL EFIERR(11)
#define EFI_NO_MEDIA EFIERR(12)
#define EFI_MEDIA_CHANGED EFIERR(13)
#define EFI_NOT_FOUND EFIERR(14)
#define EFI_ACCESS_DENIED EFIERR(15)
#define EFI_NO_RESPONSE EFIERR(16)
#define EFI_NO_MAPPING EFIERR(17)
#define EFI_TIMEOUT EFIERR(18)
#define EFI_NOT_STARTED EFIERR(19)
#define EFI_ALREADY_STARTED EFIERR(20)
#define EFI_ABORTED EFIERR(21)
#define EFI_ICMP_ERROR EFIERR(22)
#define EFI_TFTP_ERROR EFIERR(23)
#define EFI_PROTOCOL_ERROR EFIERR(24)
#define EFI_INCOMPATIBLE_VERSION EFIERR(25)
#define EFI_SECURITY_VIOLATION EFIERR(26)
#define EFI_CRC_ERROR EFIERR(27)
#define EFI_END_OF_MEDIA EFIERR(28)
/* 29 and 30 are unassigned. */
#define EFI_END_OF_FILE EFIERR(31)
#define EFI_INVALID_LANGUAGE EFIERR(32)
#define EFI_COMPROMISED_DATA EFIERR(33)
#define EFI_IP_ADDRESS_CONFLICT EFIERR(34)
#define EFI_HTTP_ERROR EFIERR(35)
/* The network protocols' own (UEFI 2.10 §28.1.2, EFI_TCP4_PROTOCOL): what a
 * firmware's HTTP client returns for a connection that cannot be made. */
#define EFI_NETWORK_UNREACHABLE EFIERR(100)
#define EFI_HOST_UNREACHABLE EFIERR(101)
#define EFI_PROTOCOL_UNREACHABLE EFIERR(102)
#define EFI_PORT_UNREACHABLE EFIERR(103)
#define EFI_CONNECTION_FIN EFIERR(104)
#define EFI_CONNECTION_RESET EFIERR(105)
#define EFI_CONNECTION_REFUSED EFIERR(106)

#define EFI_WARN_UNKNOWN_GLYPH EFIWARN(1)
#define EFI_WARN_DELETE_FAILURE EFIWARN(2)
#define EFI_WARN_WRITE_FAILURE EFIWARN(3)
#define EFI_WARN_BUFFER_TOO_SMALL EFIWARN(4)
#define EFI_WARN_STALE_DATA EFIWARN(5)
#define EFI_WARN_FILE_SYSTEM EFIWARN(6)
#define EFI_WARN_RESET_REQUIRED EFIWARN(7)

/* ---- Forward declarations of protocols referenced by the tables ---- */

typedef struct EFI_SIMPLE_TEXT_INPUT_PROTOCOL EFI_SIMPLE_TEXT_INPUT_PROTOCOL;   /* proto/simple_text_in.h */
typedef struct EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL; /* proto/simple_text_out.h */
typedef struct EFI_DEVICE_PATH_PROTOCOL EFI_DEVICE_PATH_PROTOCOL;               /* proto/device_path.h */

/* ---- Table header (UEFI 2.10 §4.2) ---- */

typedef struct EFI_TABLE_HEADER {
	UINT64 Signature;
	UINT32 Revision;
	UINT32 HeaderSize;
	UINT32 CRC32;
	UINT32 Reserved;
} EFI_TABLE_HEADER;
_Static_assert(sizeof(EFI_TABLE_HEADER) == 24, "EFI_TABLE_HEADER size");

#define EFI_SPECIFICATION_REVISION_MAJORMINOR(major, minor) (((UINT32)(major) << 16) | (UINT32)(minor))
#define EFI_2_100_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(2, 100)
#define EFI_2_90_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(2, 90)
#define EFI_2_80_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(2, 80)
#define EFI_2_70_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(2, 70)
#define EFI_2_00_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(2, 0)
#define EFI_1_10_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_REVISION_MAJORMINOR(1, 10)
#define EFI_SPECIFICATION_VERSION EFI_2_100_SYSTEM_TABLE_REVISION
#define EFI_SYSTEM_TABLE_REVISION EFI_SPECIFICATION_VERSION
#define EFI_BOOT_SERVICES_REVISION EFI_SPECIFICATION_VERSION
#define EFI_RUNTIME_SERVICES_REVISION EFI_SPECIFICATION_VERSION

#define EFI_SYSTEM_TABLE_SIGNATURE 0x5453595320494249ULL   /* "IBI SYST" */
#define EFI_BOOT_SERVICES_SIGNATURE 0x56524553544f4f42ULL  /* "BOOTSERV" */
#define EFI_RUNTIME_SERVICES_SIGNATURE 0x56524553544e5552ULL /* "RUNTSERV" */

/* ---- Memory (UEFI 2.10 §7.2) ---- */

#define EFI_PAGE_SIZE 4096u
#define EFI_PAGE_SHIFT 12
#define EFI_PAGE_MASK 0xfffu
/* Number of 4 KiB pages needed to hold @size bytes (rounds up). */
#define EFI_SIZE_TO_PAGES(size) (((UINTN)(size) >> EFI_PAGE_SHIFT) + (((UINTN)(size) & EFI_PAGE_MASK) ? 1u : 0u))
#define EFI_PAGES_TO_SIZE(pages) ((UINTN)(pages) << EFI_PAGE_SHIFT)

typedef enum {
	AllocateAnyPages,
	AllocateMaxAddress,
	AllocateAddress,
	MaxAllocateType
} EFI_ALLOCATE_TYPE;

typedef enum {
	EfiReservedMemoryType,      /* 0 */
	EfiLoaderCode,              /* 1 */
	EfiLoaderData,              /* 2 */
	EfiBootServicesCode,        /* 3 */
	EfiBootServicesData,        /* 4 */
	EfiRuntimeServicesCode,     /* 5 */
	EfiRuntimeServicesData,     /* 6 */
	EfiConventionalMemory,      /* 7 */
	EfiUnusableMemory,          /* 8 */
	EfiACPIReclaimMemory,       /* 9 */
	EfiACPIMemoryNVS,           /* 10 */
	EfiMemoryMappedIO,          /* 11 */
	EfiMemoryMappedIOPortSpace, /* 12 */
	EfiPalCode,                 /* 13 */
	EfiPersistentMemory,        /* 14 */
	EfiUnacceptedMemoryType,    /* 15 */
	EfiMaxMemoryType            /* 16 */
} EFI_MEMORY_TYPE;
_Static_assert(sizeof(EFI_MEMORY_TYPE) == 4, "EFI_MEMORY_TYPE is 32 bits");
_Static_assert(sizeof(EFI_ALLOCATE_TYPE) == 4, "EFI_ALLOCATE_TYPE is 32 bits");

/* Memory attribute bits (UEFI 2.10 §7.2, GetMemoryMap()). */
#define EFI_MEMORY_UC 0x0000000000000001ULL
#define EFI_MEMORY_WC 0x0000000000000002ULL
#define EFI_MEMORY_WT 0x0000000000000004ULL
#define EFI_MEMORY_WB 0x0000000000000008ULL
#define EFI_MEMORY_UCE 0x0000000000000010ULL
#define EFI_MEMORY_WP 0x0000000000001000ULL
#define EFI_MEMORY_RP 0x0000000000002000ULL
#define EFI_MEMORY_XP 0x0000000000004000ULL
#define EFI_MEMORY_NV 0x0000000000008000ULL
#define EFI_MEMORY_MORE_RELIABLE 0x0000000000010000ULL
#define EFI_MEMORY_RO 0x0000000000020000ULL
#define EFI_MEMORY_SP 0x0000000000040000ULL
#define EFI_MEMORY_CPU_CRYPTO 0x0000000000080000ULL
#define EFI_MEMORY_ISA_MASK 0x0ffff00000000000ULL
#define EFI_MEMORY_ISA_VALID 0x4000000000000000ULL
#define EFI_MEMORY_RUNTIME 0x8000000000000000ULL

#define EFI_MEMORY_DESCRIPTOR_VERSION 1

/*
 * One memory map entry (UEFI 2.10 §7.2).  Natural alignment leaves four bytes
 * of padding after Type.  Firmware may return entries larger than this
 * struct: always step through a map by the DescriptorSize it reports.
 */
typedef struct EFI_MEMORY_DESCRIPTOR {
	UINT32 Type; /* EFI_MEMORY_TYPE */
	/* 4 bytes implicit padding */
	EFI_PHYSICAL_ADDRESS PhysicalStart;
	EFI_VIRTUAL_ADDRESS VirtualStart;
	UINT64 NumberOfPages;
	UINT64 Attribute;
} EFI_MEMORY_DESCRIPTOR;
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, Type) == 0, "EFI_MEMORY_DESCRIPTOR.Type");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, PhysicalStart) == 8, "EFI_MEMORY_DESCRIPTOR.PhysicalStart");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, VirtualStart) == 16, "EFI_MEMORY_DESCRIPTOR.VirtualStart");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, NumberOfPages) == 24, "EFI_MEMORY_DESCRIPTOR.NumberOfPages");
_Static_assert(offsetof(EFI_MEMORY_DESCRIPTOR, Attribute) == 32, "EFI_MEMORY_DESCRIPTOR.Attribute");
_Static_assert(sizeof(EFI_MEMORY_DESCRIPTOR) == 40, "EFI_MEMORY_DESCRIPTOR size");

/* ---- Events, timers and task priority (UEFI 2.10 §7.1) ---- */

#define EVT_TIMER 0x80000000u
#define EVT_RUNTIME 0x40000000u
#define EVT_NOTIFY_WAIT 0x00000100u
#define EVT_NOTIFY_SIGNAL 0x00000200u
#define EVT_SIGNAL_EXIT_BOOT_SERVICES 0x00000201u
#define EVT_SIGNAL_VIRTUAL_ADDRESS_CHANGE 0x60000202u

#define TPL_APPLICATION ((EFI_TPL)4)
#define TPL_CALLBACK ((EFI_TPL)8)
#define TPL_NOTIFY ((EFI_TPL)16)
#define TPL_HIGH_LEVEL ((EFI_TPL)31)

typedef enum {
	TimerCancel,
	TimerPeriodic,
	TimerRelative
} EFI_TIMER_DELAY;

typedef VOID(EFIAPI *EFI_EVENT_NOTIFY)(IN EFI_EVENT Event, IN VOID *Context);

/* Event groups for CreateEventEx() (UEFI 2.10 §7.1). */
#define EFI_EVENT_GROUP_EXIT_BOOT_SERVICES \
	{ 0x27abf055, 0xb1b8, 0x4c26, { 0x80, 0x48, 0x74, 0x8f, 0x37, 0xba, 0xa2, 0xdf } }
#define EFI_EVENT_GROUP_BEFORE_EXIT_BOOT_SERVICES \
	{ 0x8be0e274, 0x3970, 0x4b44, { 0x80, 0xc5, 0x1a, 0xb9, 0x50, 0x2f, 0x3b, 0xfc } }
#define EFI_EVENT_GROUP_VIRTUAL_ADDRESS_CHANGE \
	{ 0x13fa7698, 0xc831, 0x49c7, { 0x87, 0xea, 0x8f, 0x43, 0xfc, 0xc2, 0x51, 0x96 } }
#define EFI_EVENT_GROUP_READY_TO_BOOT \
	{ 0x7ce88fb3, 0x4bd7, 0x4679, { 0x87, 0xa8, 0xa8, 0xd8, 0xde, 0xe5, 0x0d, 0x2b } }

/* ---- Protocol handler services (UEFI 2.10 §7.3) ---- */

typedef enum {
	EFI_NATIVE_INTERFACE
} EFI_INTERFACE_TYPE;

typedef enum {
	AllHandles,
	ByRegisterNotify,
	ByProtocol
} EFI_LOCATE_SEARCH_TYPE;

#define EFI_OPEN_PROTOCOL_BY_HANDLE_PROTOCOL 0x00000001u
#define EFI_OPEN_PROTOCOL_GET_PROTOCOL 0x00000002u
#define EFI_OPEN_PROTOCOL_TEST_PROTOCOL 0x00000004u
#define EFI_OPEN_PROTOCOL_BY_CHILD_CONTROLLER 0x00000008u
#define EFI_OPEN_PROTOCOL_BY_DRIVER 0x00000010u
#define EFI_OPEN_PROTOCOL_EXCLUSIVE 0x00000020u

typedef struct EFI_OPEN_PROTOCOL_INFORMATION_ENTRY {
	EFI_HANDLE AgentHandle;
	EFI_HANDLE ControllerHandle;
	UINT32 Attributes;
	UINT32 OpenCount;
} EFI_OPEN_PROTOCOL_INFORMATION_ENTRY;
_Static_assert(sizeof(EFI_OPEN_PROTOCOL_INFORMATION_ENTRY) == EFI_LAYOUT(24, 16),
	       "EFI_OPEN_PROTOCOL_INFORMATION_ENTRY size");

/* ---- Time (UEFI 2.10 §8.3) ---- */

typedef struct EFI_TIME {
	UINT16 Year;  /* 1900 - 9999 */
	UINT8 Month;  /* 1 - 12 */
	UINT8 Day;    /* 1 - 31 */
	UINT8 Hour;   /* 0 - 23 */
	UINT8 Minute; /* 0 - 59 */
	UINT8 Second; /* 0 - 59 */
	UINT8 Pad1;
	UINT32 Nanosecond; /* 0 - 999,999,999 */
	INT16 TimeZone;    /* -1440 .. 1440 or EFI_UNSPECIFIED_TIMEZONE */
	UINT8 Daylight;
	UINT8 Pad2;
} EFI_TIME;
_Static_assert(offsetof(EFI_TIME, Nanosecond) == 8, "EFI_TIME.Nanosecond");
_Static_assert(offsetof(EFI_TIME, TimeZone) == 12, "EFI_TIME.TimeZone");
_Static_assert(sizeof(EFI_TIME) == 16, "EFI_TIME size");

#define EFI_TIME_ADJUST_DAYLIGHT 0x01
#define EFI_TIME_IN_DAYLIGHT 0x02
#define EFI_UNSPECIFIED_TIMEZONE 0x07ff

typedef struct EFI_TIME_CAPABILITIES {
	UINT32 Resolution;
	UINT32 Accuracy;
	BOOLEAN SetsToZero;
} EFI_TIME_CAPABILITIES;

/* ---- Reset and capsules (UEFI 2.10 §8.5) ---- */

typedef enum {
	EfiResetCold,
	EfiResetWarm,
	EfiResetShutdown,
	EfiResetPlatformSpecific
} EFI_RESET_TYPE;

typedef struct EFI_CAPSULE_HEADER {
	EFI_GUID CapsuleGuid;
	UINT32 HeaderSize;
	UINT32 Flags;
	UINT32 CapsuleImageSize;
} EFI_CAPSULE_HEADER;
_Static_assert(sizeof(EFI_CAPSULE_HEADER) == 28, "EFI_CAPSULE_HEADER size");

#define CAPSULE_FLAGS_PERSIST_ACROSS_RESET 0x00010000u
#define CAPSULE_FLAGS_POPULATE_SYSTEM_TABLE 0x00020000u
#define CAPSULE_FLAGS_INITIATE_RESET 0x00040000u

/* ---- Variables (UEFI 2.10 §8.2, §3.3) ---- */

#define EFI_VARIABLE_NON_VOLATILE 0x00000001u
#define EFI_VARIABLE_BOOTSERVICE_ACCESS 0x00000002u
#define EFI_VARIABLE_RUNTIME_ACCESS 0x00000004u
#define EFI_VARIABLE_HARDWARE_ERROR_RECORD 0x00000008u
#define EFI_VARIABLE_AUTHENTICATED_WRITE_ACCESS 0x00000010u /* deprecated */
#define EFI_VARIABLE_TIME_BASED_AUTHENTICATED_WRITE_ACCESS 0x00000020u
#define EFI_VARIABLE_APPEND_WRITE 0x00000040u
#define EFI_VARIABLE_ENHANCED_AUTHENTICATED_ACCESS 0x00000080u

#define EFI_GLOBAL_VARIABLE_GUID \
	{ 0x8be4df61, 0x93ca, 0x11d2, { 0xaa, 0x0d, 0x00, 0xe0, 0x98, 0x03, 0x2b, 0x8c } }

/* ---- EFI_SYSTEM_TABLE (UEFI 2.10 §4.3) and config tables (§4.6) ---- */

typedef struct EFI_CONFIGURATION_TABLE {
	EFI_GUID VendorGuid;
	VOID *VendorTable;
} EFI_CONFIGURATION_TABLE;
_Static_assert(offsetof(EFI_CONFIGURATION_TABLE, VendorTable) == 16, "EFI_CONFIGURATION_TABLE.VendorTable");
/* §4.6.1: the SMBIOS entry points (DMTF DSP0134 §5.2.1, §5.2.2) */
#define SMBIOS_TABLE_GUID \
	{ 0xeb9d2d31, 0x2d88, 0x11d3, { 0x9a, 0x16, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }
#define SMBIOS3_TABLE_GUID \
	{ 0xf2fd1544, 0x9794, 0x4a2c, { 0x99, 0x2e, 0xe5, 0xbb, 0xcf, 0x20, 0xe3, 0x94 } }
/* §4.6.1.3 "Devicetree Tables": a flattened devicetree blob, in
 * EfiACPIReclaimMemory (also EBBR's requirement), that the OS reads */
#define EFI_DTB_TABLE_GUID \
	{ 0xb1b621d5, 0xf19c, 0x41a5, { 0x83, 0x0b, 0xd9, 0x15, 0x2c, 0x69, 0xaa, 0xe0 } }
_Static_assert(sizeof(EFI_CONFIGURATION_TABLE) == EFI_LAYOUT(24, 20), "EFI_CONFIGURATION_TABLE size");

typedef struct EFI_BOOT_SERVICES EFI_BOOT_SERVICES;
typedef struct EFI_RUNTIME_SERVICES EFI_RUNTIME_SERVICES;

typedef struct EFI_SYSTEM_TABLE {
	EFI_TABLE_HEADER Hdr;
	CHAR16 *FirmwareVendor;
	UINT32 FirmwareRevision;
	EFI_HANDLE ConsoleInHandle;
	EFI_SIMPLE_TEXT_INPUT_PROTOCOL *ConIn;
	EFI_HANDLE ConsoleOutHandle;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *ConOut;
	EFI_HANDLE StandardErrorHandle;
	EFI_SIMPLE_TEXT_OUTPUT_PROTOCOL *StdErr;
	EFI_RUNTIME_SERVICES *RuntimeServices;
	EFI_BOOT_SERVICES *BootServices;
	UINTN NumberOfTableEntries;
	EFI_CONFIGURATION_TABLE *ConfigurationTable;
} EFI_SYSTEM_TABLE;
_Static_assert(offsetof(EFI_SYSTEM_TABLE, Hdr) == 0x00, "EFI_SYSTEM_TABLE.Hdr");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, FirmwareVendor) == 0x18, "EFI_SYSTEM_TABLE.FirmwareVendor");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, FirmwareRevision) == EFI_LAYOUT(0x20, 0x1c),
	       "EFI_SYSTEM_TABLE.FirmwareRevision");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, ConsoleInHandle) == EFI_LAYOUT(0x28, 0x20),
	       "EFI_SYSTEM_TABLE.ConsoleInHandle");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, ConIn) == EFI_LAYOUT(0x30, 0x24), "EFI_SYSTEM_TABLE.ConIn");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, ConsoleOutHandle) == EFI_LAYOUT(0x38, 0x28),
	       "EFI_SYSTEM_TABLE.ConsoleOutHandle");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, ConOut) == EFI_LAYOUT(0x40, 0x2c), "EFI_SYSTEM_TABLE.ConOut");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, StandardErrorHandle) == EFI_LAYOUT(0x48, 0x30),
	       "EFI_SYSTEM_TABLE.StandardErrorHandle");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, StdErr) == EFI_LAYOUT(0x50, 0x34), "EFI_SYSTEM_TABLE.StdErr");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, RuntimeServices) == EFI_LAYOUT(0x58, 0x38),
	       "EFI_SYSTEM_TABLE.RuntimeServices");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, BootServices) == EFI_LAYOUT(0x60, 0x3c), "EFI_SYSTEM_TABLE.BootServices");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, NumberOfTableEntries) == EFI_LAYOUT(0x68, 0x40),
	       "EFI_SYSTEM_TABLE.NumberOfTableEntries");
_Static_assert(offsetof(EFI_SYSTEM_TABLE, ConfigurationTable) == EFI_LAYOUT(0x70, 0x44),
	       "EFI_SYSTEM_TABLE.ConfigurationTable");
_Static_assert(sizeof(EFI_SYSTEM_TABLE) == EFI_LAYOUT(0x78, 0x48), "EFI_SYSTEM_TABLE size");

/* ---- Image entry point and image services (UEFI 2.10 §4.1, §7.4) ---- */

typedef EFI_STATUS(EFIAPI *EFI_IMAGE_ENTRY_POINT)(IN EFI_HANDLE ImageHandle, IN EFI_SYSTEM_TABLE *SystemTable);
typedef EFI_STATUS(EFIAPI *EFI_IMAGE_UNLOAD)(IN EFI_HANDLE ImageHandle);

/* ---- EFI_BOOT_SERVICES function types (UEFI 2.10 §7) ---- */

/* §7.1 Event, timer and task priority services */
typedef EFI_TPL(EFIAPI *EFI_RAISE_TPL)(IN EFI_TPL NewTpl);
typedef VOID(EFIAPI *EFI_RESTORE_TPL)(IN EFI_TPL OldTpl);
typedef EFI_STATUS(EFIAPI *EFI_CREATE_EVENT)(IN UINT32 Type, IN EFI_TPL NotifyTpl,
					     IN EFI_EVENT_NOTIFY NotifyFunction OPTIONAL,
					     IN VOID *NotifyContext OPTIONAL, OUT EFI_EVENT *Event);
typedef EFI_STATUS(EFIAPI *EFI_SET_TIMER)(IN EFI_EVENT Event, IN EFI_TIMER_DELAY Type, IN UINT64 TriggerTime);
typedef EFI_STATUS(EFIAPI *EFI_WAIT_FOR_EVENT)(IN UINTN NumberOfEvents, IN EFI_EVENT *Event, OUT UINTN *Index);
typedef EFI_STATUS(EFIAPI *EFI_SIGNAL_EVENT)(IN EFI_EVENT Event);
typedef EFI_STATUS(EFIAPI *EFI_CLOSE_EVENT)(IN EFI_EVENT Event);
typedef EFI_STATUS(EFIAPI *EFI_CHECK_EVENT)(IN EFI_EVENT Event);
typedef EFI_STATUS(EFIAPI *EFI_CREATE_EVENT_EX)(IN UINT32 Type, IN EFI_TPL NotifyTpl,
						IN EFI_EVENT_NOTIFY NotifyFunction OPTIONAL,
						IN const VOID *NotifyContext OPTIONAL,
						IN const EFI_GUID *EventGroup OPTIONAL, OUT EFI_EVENT *Event);

/* §7.2 Memory allocation services */
typedef EFI_STATUS(EFIAPI *EFI_ALLOCATE_PAGES)(IN EFI_ALLOCATE_TYPE Type, IN EFI_MEMORY_TYPE MemoryType,
					       IN UINTN Pages, IN OUT EFI_PHYSICAL_ADDRESS *Memory);
typedef EFI_STATUS(EFIAPI *EFI_FREE_PAGES)(IN EFI_PHYSICAL_ADDRESS Memory, IN UINTN Pages);
typedef EFI_STATUS(EFIAPI *EFI_GET_MEMORY_MAP)(IN OUT UINTN *MemoryMapSize, OUT EFI_MEMORY_DESCRIPTOR *MemoryMap,
					       OUT UINTN *MapKey, OUT UINTN *DescriptorSize,
					       OUT UINT32 *DescriptorVersion);
typedef EFI_STATUS(EFIAPI *EFI_ALLOCATE_POOL)(IN EFI_MEMORY_TYPE PoolType, IN UINTN Size, OUT VOID **Buffer);
typedef EFI_STATUS(EFIAPI *EFI_FREE_POOL)(IN VOID *Buffer);

/* §7.3 Protocol handler services */
typedef EFI_STATUS(EFIAPI *EFI_INSTALL_PROTOCOL_INTERFACE)(IN OUT EFI_HANDLE *Handle, IN const EFI_GUID *Protocol,
							   IN EFI_INTERFACE_TYPE InterfaceType, IN VOID *Interface);
typedef EFI_STATUS(EFIAPI *EFI_REINSTALL_PROTOCOL_INTERFACE)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
							     IN VOID *OldInterface, IN VOID *NewInterface);
typedef EFI_STATUS(EFIAPI *EFI_UNINSTALL_PROTOCOL_INTERFACE)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
							     IN VOID *Interface);
typedef EFI_STATUS(EFIAPI *EFI_HANDLE_PROTOCOL)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
						OUT VOID **Interface);
typedef EFI_STATUS(EFIAPI *EFI_REGISTER_PROTOCOL_NOTIFY)(IN const EFI_GUID *Protocol, IN EFI_EVENT Event,
							 OUT VOID **Registration);
typedef EFI_STATUS(EFIAPI *EFI_LOCATE_HANDLE)(IN EFI_LOCATE_SEARCH_TYPE SearchType,
					      IN const EFI_GUID *Protocol OPTIONAL, IN VOID *SearchKey OPTIONAL,
					      IN OUT UINTN *BufferSize, OUT EFI_HANDLE *Buffer);
typedef EFI_STATUS(EFIAPI *EFI_LOCATE_DEVICE_PATH)(IN const EFI_GUID *Protocol,
						   IN OUT EFI_DEVICE_PATH_PROTOCOL **DevicePath,
						   OUT EFI_HANDLE *Device);
typedef EFI_STATUS(EFIAPI *EFI_INSTALL_CONFIGURATION_TABLE)(IN const EFI_GUID *Guid, IN VOID *Table);
typedef EFI_STATUS(EFIAPI *EFI_CONNECT_CONTROLLER)(IN EFI_HANDLE ControllerHandle,
						   IN EFI_HANDLE *DriverImageHandle OPTIONAL,
						   IN EFI_DEVICE_PATH_PROTOCOL *RemainingDevicePath OPTIONAL,
						   IN BOOLEAN Recursive);
typedef EFI_STATUS(EFIAPI *EFI_DISCONNECT_CONTROLLER)(IN EFI_HANDLE ControllerHandle,
						      IN EFI_HANDLE DriverImageHandle OPTIONAL,
						      IN EFI_HANDLE ChildHandle OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_OPEN_PROTOCOL)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
					      OUT VOID **Interface OPTIONAL, IN EFI_HANDLE AgentHandle,
					      IN EFI_HANDLE ControllerHandle, IN UINT32 Attributes);
typedef EFI_STATUS(EFIAPI *EFI_CLOSE_PROTOCOL)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
					       IN EFI_HANDLE AgentHandle, IN EFI_HANDLE ControllerHandle);
typedef EFI_STATUS(EFIAPI *EFI_OPEN_PROTOCOL_INFORMATION)(IN EFI_HANDLE Handle, IN const EFI_GUID *Protocol,
							  OUT EFI_OPEN_PROTOCOL_INFORMATION_ENTRY **EntryBuffer,
							  OUT UINTN *EntryCount);
typedef EFI_STATUS(EFIAPI *EFI_PROTOCOLS_PER_HANDLE)(IN EFI_HANDLE Handle, OUT EFI_GUID ***ProtocolBuffer,
						     OUT UINTN *ProtocolBufferCount);
typedef EFI_STATUS(EFIAPI *EFI_LOCATE_HANDLE_BUFFER)(IN EFI_LOCATE_SEARCH_TYPE SearchType,
						     IN const EFI_GUID *Protocol OPTIONAL,
						     IN VOID *SearchKey OPTIONAL, OUT UINTN *NoHandles,
						     OUT EFI_HANDLE **Buffer);
typedef EFI_STATUS(EFIAPI *EFI_LOCATE_PROTOCOL)(IN const EFI_GUID *Protocol, IN VOID *Registration OPTIONAL,
						OUT VOID **Interface);
/* Variadic: (GUID *, interface) pairs terminated by a NULL GUID pointer. */
typedef EFI_STATUS(EFIAPI *EFI_INSTALL_MULTIPLE_PROTOCOL_INTERFACES)(IN OUT EFI_HANDLE *Handle, ...);
typedef EFI_STATUS(EFIAPI *EFI_UNINSTALL_MULTIPLE_PROTOCOL_INTERFACES)(IN EFI_HANDLE Handle, ...);

/* §7.4 Image services */
typedef EFI_STATUS(EFIAPI *EFI_IMAGE_LOAD)(IN BOOLEAN BootPolicy, IN EFI_HANDLE ParentImageHandle,
					   IN EFI_DEVICE_PATH_PROTOCOL *DevicePath OPTIONAL,
					   IN VOID *SourceBuffer OPTIONAL, IN UINTN SourceSize,
					   OUT EFI_HANDLE *ImageHandle);
typedef EFI_STATUS(EFIAPI *EFI_IMAGE_START)(IN EFI_HANDLE ImageHandle, OUT UINTN *ExitDataSize,
					    OUT CHAR16 **ExitData OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_EXIT)(IN EFI_HANDLE ImageHandle, IN EFI_STATUS ExitStatus, IN UINTN ExitDataSize,
				     IN CHAR16 *ExitData OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_EXIT_BOOT_SERVICES)(IN EFI_HANDLE ImageHandle, IN UINTN MapKey);

/* §7.5 Miscellaneous boot services */
typedef EFI_STATUS(EFIAPI *EFI_SET_WATCHDOG_TIMER)(IN UINTN Timeout, IN UINT64 WatchdogCode, IN UINTN DataSize,
						   IN CHAR16 *WatchdogData OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_STALL)(IN UINTN Microseconds);
typedef VOID(EFIAPI *EFI_COPY_MEM)(IN VOID *Destination, IN VOID *Source, IN UINTN Length);
typedef VOID(EFIAPI *EFI_SET_MEM)(IN VOID *Buffer, IN UINTN Size, IN UINT8 Value);
typedef EFI_STATUS(EFIAPI *EFI_GET_NEXT_MONOTONIC_COUNT)(OUT UINT64 *Count);
typedef EFI_STATUS(EFIAPI *EFI_CALCULATE_CRC32)(IN VOID *Data, IN UINTN DataSize, OUT UINT32 *Crc32);

/* ---- EFI_BOOT_SERVICES (UEFI 2.10 §4.4) ---- */

struct EFI_BOOT_SERVICES {
	EFI_TABLE_HEADER Hdr;

	/* Task priority services */
	EFI_RAISE_TPL RaiseTPL;
	EFI_RESTORE_TPL RestoreTPL;

	/* Memory services */
	EFI_ALLOCATE_PAGES AllocatePages;
	EFI_FREE_PAGES FreePages;
	EFI_GET_MEMORY_MAP GetMemoryMap;
	EFI_ALLOCATE_POOL AllocatePool;
	EFI_FREE_POOL FreePool;

	/* Event and timer services */
	EFI_CREATE_EVENT CreateEvent;
	EFI_SET_TIMER SetTimer;
	EFI_WAIT_FOR_EVENT WaitForEvent;
	EFI_SIGNAL_EVENT SignalEvent;
	EFI_CLOSE_EVENT CloseEvent;
	EFI_CHECK_EVENT CheckEvent;

	/* Protocol handler services */
	EFI_INSTALL_PROTOCOL_INTERFACE InstallProtocolInterface;
	EFI_REINSTALL_PROTOCOL_INTERFACE ReinstallProtocolInterface;
	EFI_UNINSTALL_PROTOCOL_INTERFACE UninstallProtocolInterface;
	EFI_HANDLE_PROTOCOL HandleProtocol;
	VOID *Reserved;
	EFI_REGISTER_PROTOCOL_NOTIFY RegisterProtocolNotify;
	EFI_LOCATE_HANDLE LocateHandle;
	EFI_LOCATE_DEVICE_PATH LocateDevicePath;
	EFI_INSTALL_CONFIGURATION_TABLE InstallConfigurationTable;

	/* Image services */
	EFI_IMAGE_LOAD LoadImage;
	EFI_IMAGE_START StartImage;
	EFI_EXIT Exit;
	EFI_IMAGE_UNLOAD UnloadImage;
	EFI_EXIT_BOOT_SERVICES ExitBootServices;

	/* Miscellaneous services */
	EFI_GET_NEXT_MONOTONIC_COUNT GetNextMonotonicCount;
	EFI_STALL Stall;
	EFI_SET_WATCHDOG_TIMER SetWatchdogTimer;

	/* DriverSupport services (EFI 1.1+) */
	EFI_CONNECT_CONTROLLER ConnectController;
	EFI_DISCONNECT_CONTROLLER DisconnectController;

	/* Open and close protocol services (EFI 1.1+) */
	EFI_OPEN_PROTOCOL OpenProtocol;
	EFI_CLOSE_PROTOCOL CloseProtocol;
	EFI_OPEN_PROTOCOL_INFORMATION OpenProtocolInformation;

	/* Library services (EFI 1.1+) */
	EFI_PROTOCOLS_PER_HANDLE ProtocolsPerHandle;
	EFI_LOCATE_HANDLE_BUFFER LocateHandleBuffer;
	EFI_LOCATE_PROTOCOL LocateProtocol;
	EFI_INSTALL_MULTIPLE_PROTOCOL_INTERFACES InstallMultipleProtocolInterfaces;
	EFI_UNINSTALL_MULTIPLE_PROTOCOL_INTERFACES UninstallMultipleProtocolInterfaces;

	/* 32-bit CRC services (EFI 1.1+) */
	EFI_CALCULATE_CRC32 CalculateCrc32;

	/* Miscellaneous services (EFI 1.1+) */
	EFI_COPY_MEM CopyMem;
	EFI_SET_MEM SetMem;
	EFI_CREATE_EVENT_EX CreateEventEx; /* UEFI 2.0+ */
};
_Static_assert(offsetof(EFI_BOOT_SERVICES, Hdr) == 0x000, "EFI_BOOT_SERVICES.Hdr");
_Static_assert(offsetof(EFI_BOOT_SERVICES, RaiseTPL) == EFI_LAYOUT(0x018, 0x018), "EFI_BOOT_SERVICES.RaiseTPL");
_Static_assert(offsetof(EFI_BOOT_SERVICES, RestoreTPL) == EFI_LAYOUT(0x020, 0x01c), "EFI_BOOT_SERVICES.RestoreTPL");
_Static_assert(offsetof(EFI_BOOT_SERVICES, AllocatePages) == EFI_LAYOUT(0x028, 0x020),
	       "EFI_BOOT_SERVICES.AllocatePages");
_Static_assert(offsetof(EFI_BOOT_SERVICES, FreePages) == EFI_LAYOUT(0x030, 0x024), "EFI_BOOT_SERVICES.FreePages");
_Static_assert(offsetof(EFI_BOOT_SERVICES, GetMemoryMap) == EFI_LAYOUT(0x038, 0x028), "EFI_BOOT_SERVICES.GetMemoryMap");
_Static_assert(offsetof(EFI_BOOT_SERVICES, AllocatePool) == EFI_LAYOUT(0x040, 0x02c), "EFI_BOOT_SERVICES.AllocatePool");
_Static_assert(offsetof(EFI_BOOT_SERVICES, FreePool) == EFI_LAYOUT(0x048, 0x030), "EFI_BOOT_SERVICES.FreePool");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CreateEvent) == EFI_LAYOUT(0x050, 0x034), "EFI_BOOT_SERVICES.CreateEvent");
_Static_assert(offsetof(EFI_BOOT_SERVICES, SetTimer) == EFI_LAYOUT(0x058, 0x038), "EFI_BOOT_SERVICES.SetTimer");
_Static_assert(offsetof(EFI_BOOT_SERVICES, WaitForEvent) == EFI_LAYOUT(0x060, 0x03c), "EFI_BOOT_SERVICES.WaitForEvent");
_Static_assert(offsetof(EFI_BOOT_SERVICES, SignalEvent) == EFI_LAYOUT(0x068, 0x040), "EFI_BOOT_SERVICES.SignalEvent");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CloseEvent) == EFI_LAYOUT(0x070, 0x044), "EFI_BOOT_SERVICES.CloseEvent");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CheckEvent) == EFI_LAYOUT(0x078, 0x048), "EFI_BOOT_SERVICES.CheckEvent");
_Static_assert(offsetof(EFI_BOOT_SERVICES, InstallProtocolInterface) == EFI_LAYOUT(0x080, 0x04c),
	       "EFI_BOOT_SERVICES.InstallProtocolInterface");
_Static_assert(offsetof(EFI_BOOT_SERVICES, ReinstallProtocolInterface) == EFI_LAYOUT(0x088, 0x050),
	       "EFI_BOOT_SERVICES.ReinstallProtocolInterface");
_Static_assert(offsetof(EFI_BOOT_SERVICES, UninstallProtocolInterface) == EFI_LAYOUT(0x090, 0x054),
	       "EFI_BOOT_SERVICES.UninstallProtocolInterface");
_Static_assert(offsetof(EFI_BOOT_SERVICES, HandleProtocol) == EFI_LAYOUT(0x098, 0x058),
	       "EFI_BOOT_SERVICES.HandleProtocol");
_Static_assert(offsetof(EFI_BOOT_SERVICES, Reserved) == EFI_LAYOUT(0x0a0, 0x05c), "EFI_BOOT_SERVICES.Reserved");
_Static_assert(offsetof(EFI_BOOT_SERVICES, RegisterProtocolNotify) == EFI_LAYOUT(0x0a8, 0x060),
	       "EFI_BOOT_SERVICES.RegisterProtocolNotify");
_Static_assert(offsetof(EFI_BOOT_SERVICES, LocateHandle) == EFI_LAYOUT(0x0b0, 0x064), "EFI_BOOT_SERVICES.LocateHandle");
_Static_assert(offsetof(EFI_BOOT_SERVICES, LocateDevicePath) == EFI_LAYOUT(0x0b8, 0x068),
	       "EFI_BOOT_SERVICES.LocateDevicePath");
_Static_assert(offsetof(EFI_BOOT_SERVICES, InstallConfigurationTable) == EFI_LAYOUT(0x0c0, 0x06c),
	       "EFI_BOOT_SERVICES.InstallConfigurationTable");
_Static_assert(offsetof(EFI_BOOT_SERVICES, LoadImage) == EFI_LAYOUT(0x0c8, 0x070), "EFI_BOOT_SERVICES.LoadImage");
_Static_assert(offsetof(EFI_BOOT_SERVICES, StartImage) == EFI_LAYOUT(0x0d0, 0x074), "EFI_BOOT_SERVICES.StartImage");
_Static_assert(offsetof(EFI_BOOT_SERVICES, Exit) == EFI_LAYOUT(0x0d8, 0x078), "EFI_BOOT_SERVICES.Exit");
_Static_assert(offsetof(EFI_BOOT_SERVICES, UnloadImage) == EFI_LAYOUT(0x0e0, 0x07c), "EFI_BOOT_SERVICES.UnloadImage");
_Static_assert(offsetof(EFI_BOOT_SERVICES, ExitBootServices) == EFI_LAYOUT(0x0e8, 0x080),
	       "EFI_BOOT_SERVICES.ExitBootServices");
_Static_assert(offsetof(EFI_BOOT_SERVICES, GetNextMonotonicCount) == EFI_LAYOUT(0x0f0, 0x084),
	       "EFI_BOOT_SERVICES.GetNextMonotonicCount");
_Static_assert(offsetof(EFI_BOOT_SERVICES, Stall) == EFI_LAYOUT(0x0f8, 0x088), "EFI_BOOT_SERVICES.Stall");
_Static_assert(offsetof(EFI_BOOT_SERVICES, SetWatchdogTimer) == EFI_LAYOUT(0x100, 0x08c),
	       "EFI_BOOT_SERVICES.SetWatchdogTimer");
_Static_assert(offsetof(EFI_BOOT_SERVICES, ConnectController) == EFI_LAYOUT(0x108, 0x090),
	       "EFI_BOOT_SERVICES.ConnectController");
_Static_assert(offsetof(EFI_BOOT_SERVICES, DisconnectController) == EFI_LAYOUT(0x110, 0x094),
	       "EFI_BOOT_SERVICES.DisconnectController");
_Static_assert(offsetof(EFI_BOOT_SERVICES, OpenProtocol) == EFI_LAYOUT(0x118, 0x098), "EFI_BOOT_SERVICES.OpenProtocol");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CloseProtocol) == EFI_LAYOUT(0x120, 0x09c),
	       "EFI_BOOT_SERVICES.CloseProtocol");
_Static_assert(offsetof(EFI_BOOT_SERVICES, OpenProtocolInformation) == EFI_LAYOUT(0x128, 0x0a0),
	       "EFI_BOOT_SERVICES.OpenProtocolInformation");
_Static_assert(offsetof(EFI_BOOT_SERVICES, ProtocolsPerHandle) == EFI_LAYOUT(0x130, 0x0a4),
	       "EFI_BOOT_SERVICES.ProtocolsPerHandle");
_Static_assert(offsetof(EFI_BOOT_SERVICES, LocateHandleBuffer) == EFI_LAYOUT(0x138, 0x0a8),
	       "EFI_BOOT_SERVICES.LocateHandleBuffer");
_Static_assert(offsetof(EFI_BOOT_SERVICES, LocateProtocol) == EFI_LAYOUT(0x140, 0x0ac),
	       "EFI_BOOT_SERVICES.LocateProtocol");
_Static_assert(offsetof(EFI_BOOT_SERVICES, InstallMultipleProtocolInterfaces) == EFI_LAYOUT(0x148, 0x0b0),
	       "EFI_BOOT_SERVICES.InstallMultipleProtocolInterfaces");
_Static_assert(offsetof(EFI_BOOT_SERVICES, UninstallMultipleProtocolInterfaces) == EFI_LAYOUT(0x150, 0x0b4),
	       "EFI_BOOT_SERVICES.UninstallMultipleProtocolInterfaces");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CalculateCrc32) == EFI_LAYOUT(0x158, 0x0b8),
	       "EFI_BOOT_SERVICES.CalculateCrc32");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CopyMem) == EFI_LAYOUT(0x160, 0x0bc), "EFI_BOOT_SERVICES.CopyMem");
_Static_assert(offsetof(EFI_BOOT_SERVICES, SetMem) == EFI_LAYOUT(0x168, 0x0c0), "EFI_BOOT_SERVICES.SetMem");
_Static_assert(offsetof(EFI_BOOT_SERVICES, CreateEventEx) == EFI_LAYOUT(0x170, 0x0c4),
	       "EFI_BOOT_SERVICES.CreateEventEx");
_Static_assert(sizeof(EFI_BOOT_SERVICES) == EFI_LAYOUT(0x178, 0x0c8), "EFI_BOOT_SERVICES size");

/* ---- EFI_RUNTIME_SERVICES function types (UEFI 2.10 §8) ---- */

/* §8.2 Variable services */
typedef EFI_STATUS(EFIAPI *EFI_GET_VARIABLE)(IN CHAR16 *VariableName, IN const EFI_GUID *VendorGuid,
					     OUT UINT32 *Attributes OPTIONAL, IN OUT UINTN *DataSize,
					     OUT VOID *Data OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_GET_NEXT_VARIABLE_NAME)(IN OUT UINTN *VariableNameSize, IN OUT CHAR16 *VariableName,
						       IN OUT EFI_GUID *VendorGuid);
typedef EFI_STATUS(EFIAPI *EFI_SET_VARIABLE)(IN CHAR16 *VariableName, IN const EFI_GUID *VendorGuid,
					     IN UINT32 Attributes, IN UINTN DataSize, IN VOID *Data);
typedef EFI_STATUS(EFIAPI *EFI_QUERY_VARIABLE_INFO)(IN UINT32 Attributes, OUT UINT64 *MaximumVariableStorageSize,
						    OUT UINT64 *RemainingVariableStorageSize,
						    OUT UINT64 *MaximumVariableSize);

/* §8.3 Time services */
typedef EFI_STATUS(EFIAPI *EFI_GET_TIME)(OUT EFI_TIME *Time, OUT EFI_TIME_CAPABILITIES *Capabilities OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_SET_TIME)(IN EFI_TIME *Time);
typedef EFI_STATUS(EFIAPI *EFI_GET_WAKEUP_TIME)(OUT BOOLEAN *Enabled, OUT BOOLEAN *Pending, OUT EFI_TIME *Time);
typedef EFI_STATUS(EFIAPI *EFI_SET_WAKEUP_TIME)(IN BOOLEAN Enable, IN EFI_TIME *Time OPTIONAL);

/* §8.4 Virtual memory services */
#define EFI_OPTIONAL_PTR 0x00000001u
typedef EFI_STATUS(EFIAPI *EFI_SET_VIRTUAL_ADDRESS_MAP)(IN UINTN MemoryMapSize, IN UINTN DescriptorSize,
							IN UINT32 DescriptorVersion,
							IN EFI_MEMORY_DESCRIPTOR *VirtualMap);
typedef EFI_STATUS(EFIAPI *EFI_CONVERT_POINTER)(IN UINTN DebugDisposition, IN VOID **Address);

/* §8.5 Miscellaneous runtime services */
typedef VOID(EFIAPI *EFI_RESET_SYSTEM)(IN EFI_RESET_TYPE ResetType, IN EFI_STATUS ResetStatus, IN UINTN DataSize,
				       IN VOID *ResetData OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_GET_NEXT_HIGH_MONO_COUNT)(OUT UINT32 *HighCount);
typedef EFI_STATUS(EFIAPI *EFI_UPDATE_CAPSULE)(IN EFI_CAPSULE_HEADER **CapsuleHeaderArray, IN UINTN CapsuleCount,
					       IN EFI_PHYSICAL_ADDRESS ScatterGatherList OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_QUERY_CAPSULE_CAPABILITIES)(IN EFI_CAPSULE_HEADER **CapsuleHeaderArray,
							   IN UINTN CapsuleCount, OUT UINT64 *MaximumCapsuleSize,
							   OUT EFI_RESET_TYPE *ResetType);

/* ---- EFI_RUNTIME_SERVICES (UEFI 2.10 §4.5) ---- */

struct EFI_RUNTIME_SERVICES {
	EFI_TABLE_HEADER Hdr;

	/* Time services */
	EFI_GET_TIME GetTime;
	EFI_SET_TIME SetTime;
	EFI_GET_WAKEUP_TIME GetWakeupTime;
	EFI_SET_WAKEUP_TIME SetWakeupTime;

	/* Virtual memory services */
	EFI_SET_VIRTUAL_ADDRESS_MAP SetVirtualAddressMap;
	EFI_CONVERT_POINTER ConvertPointer;

	/* Variable services */
	EFI_GET_VARIABLE GetVariable;
	EFI_GET_NEXT_VARIABLE_NAME GetNextVariableName;
	EFI_SET_VARIABLE SetVariable;

	/* Miscellaneous services */
	EFI_GET_NEXT_HIGH_MONO_COUNT GetNextHighMonotonicCount;
	EFI_RESET_SYSTEM ResetSystem;

	/* UEFI 2.0 capsule services */
	EFI_UPDATE_CAPSULE UpdateCapsule;
	EFI_QUERY_CAPSULE_CAPABILITIES QueryCapsuleCapabilities;

	/* UEFI 2.0 miscellaneous services */
	EFI_QUERY_VARIABLE_INFO QueryVariableInfo;
};
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, Hdr) == 0x00, "EFI_RUNTIME_SERVICES.Hdr");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, GetTime) == EFI_LAYOUT(0x18, 0x018), "EFI_RUNTIME_SERVICES.GetTime");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, SetTime) == EFI_LAYOUT(0x20, 0x01c), "EFI_RUNTIME_SERVICES.SetTime");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, GetWakeupTime) == EFI_LAYOUT(0x28, 0x020),
	       "EFI_RUNTIME_SERVICES.GetWakeupTime");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, SetWakeupTime) == EFI_LAYOUT(0x30, 0x024),
	       "EFI_RUNTIME_SERVICES.SetWakeupTime");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, SetVirtualAddressMap) == EFI_LAYOUT(0x38, 0x028),
	       "EFI_RUNTIME_SERVICES.SetVirtualAddressMap");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, ConvertPointer) == EFI_LAYOUT(0x40, 0x02c),
	       "EFI_RUNTIME_SERVICES.ConvertPointer");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, GetVariable) == EFI_LAYOUT(0x48, 0x030),
	       "EFI_RUNTIME_SERVICES.GetVariable");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, GetNextVariableName) == EFI_LAYOUT(0x50, 0x034),
	       "EFI_RUNTIME_SERVICES.GetNextVariableName");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, SetVariable) == EFI_LAYOUT(0x58, 0x038),
	       "EFI_RUNTIME_SERVICES.SetVariable");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, GetNextHighMonotonicCount) == EFI_LAYOUT(0x60, 0x03c),
	       "EFI_RUNTIME_SERVICES.GetNextHighMonotonicCount");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, ResetSystem) == EFI_LAYOUT(0x68, 0x040),
	       "EFI_RUNTIME_SERVICES.ResetSystem");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, UpdateCapsule) == EFI_LAYOUT(0x70, 0x044),
	       "EFI_RUNTIME_SERVICES.UpdateCapsule");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, QueryCapsuleCapabilities) == EFI_LAYOUT(0x78, 0x048),
	       "EFI_RUNTIME_SERVICES.QueryCapsuleCapabilities");
_Static_assert(offsetof(EFI_RUNTIME_SERVICES, QueryVariableInfo) == EFI_LAYOUT(0x80, 0x04c),
	       "EFI_RUNTIME_SERVICES.QueryVariableInfo");
_Static_assert(sizeof(EFI_RUNTIME_SERVICES) == EFI_LAYOUT(0x88, 0x050), "EFI_RUNTIME_SERVICES size");

#endif /* EFI_EFI_H */
