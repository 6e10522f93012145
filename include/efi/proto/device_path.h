/* SPDX-License-Identifier: MIT */
/*
 * EFI_DEVICE_PATH_PROTOCOL and the device path nodes handoff builds or parses
 * (UEFI 2.10 §10.2, §10.3).  Nodes are byte-packed and unaligned in memory:
 * read multi-byte fields with memcpy or through these packed types only.
 */
#ifndef EFI_PROTO_DEVICE_PATH_H
#define EFI_PROTO_DEVICE_PATH_H

#include <efi/efi.h>

#define EFI_DEVICE_PATH_PROTOCOL_GUID \
	{ 0x09576e91, 0x6d3f, 0x11d2, { 0x8e, 0x39, 0x00, 0xa0, 0xc9, 0x69, 0x72, 0x3b } }

/* Generic node header; Length (little-endian) includes the header itself. */
struct EFI_DEVICE_PATH_PROTOCOL {
	UINT8 Type;
	UINT8 SubType;
	UINT8 Length[2];
} __attribute__((packed));
_Static_assert(sizeof(EFI_DEVICE_PATH_PROTOCOL) == 4, "EFI_DEVICE_PATH_PROTOCOL size");

/* Node types (UEFI 2.10 §10.3.1). */
#define HARDWARE_DEVICE_PATH 0x01
#define ACPI_DEVICE_PATH 0x02
#define MESSAGING_DEVICE_PATH 0x03
#define MEDIA_DEVICE_PATH 0x04
#define BBS_DEVICE_PATH 0x05
#define END_DEVICE_PATH_TYPE 0x7f

/* End of hardware device path sub-types. */
#define END_INSTANCE_DEVICE_PATH_SUBTYPE 0x01
#define END_ENTIRE_DEVICE_PATH_SUBTYPE 0xff
#define END_DEVICE_PATH_LENGTH 4

/* Hardware sub-types (§10.3.2). */
#define HW_PCI_DP 0x01
#define HW_PCCARD_DP 0x02
#define HW_MEMMAP_DP 0x03
#define HW_VENDOR_DP 0x04
#define HW_CONTROLLER_DP 0x05
#define HW_BMC_DP 0x06

/* ACPI sub-types (§10.3.3). */
#define ACPI_DP 0x01
#define ACPI_EXTENDED_DP 0x02
#define ACPI_ADR_DP 0x03

/* Messaging sub-types used for boot media (§10.3.4). */
#define MSG_ATAPI_DP 0x01
#define MSG_SCSI_DP 0x02
#define MSG_USB_DP 0x05
#define MSG_VENDOR_DP 0x0a
#define MSG_MAC_ADDR_DP 0x0b
#define MSG_IPv4_DP 0x0c
#define MSG_IPv6_DP 0x0d
#define MSG_SATA_DP 0x12
#define MSG_NVME_NAMESPACE_DP 0x17
#define MSG_URI_DP 0x18
#define MSG_SD_DP 0x1a
#define MSG_EMMC_DP 0x1d

/* Media sub-types (§10.3.5). */
#define MEDIA_HARDDRIVE_DP 0x01
#define MEDIA_CDROM_DP 0x02
#define MEDIA_VENDOR_DP 0x03
#define MEDIA_FILEPATH_DP 0x04
#define MEDIA_PROTOCOL_DP 0x05
#define MEDIA_PIWG_FW_FILE_DP 0x06
#define MEDIA_PIWG_FW_VOL_DP 0x07
#define MEDIA_RELATIVE_OFFSET_RANGE_DP 0x08
#define MEDIA_RAM_DISK_DP 0x09

/* BBS sub-type (§10.3.6). */
#define BBS_BBS_DP 0x01

/* Hard drive media node (§10.3.5.1). */
typedef struct HARDDRIVE_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT32 PartitionNumber;
	UINT64 PartitionStart; /* in logical blocks */
	UINT64 PartitionSize;  /* in logical blocks */
	UINT8 Signature[16];   /* MBR signature in the first 4 bytes, or GPT partition GUID */
	UINT8 MBRType;
	UINT8 SignatureType;
} __attribute__((packed)) HARDDRIVE_DEVICE_PATH;
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, PartitionNumber) == 4, "HARDDRIVE_DEVICE_PATH.PartitionNumber");
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, PartitionStart) == 8, "HARDDRIVE_DEVICE_PATH.PartitionStart");
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, PartitionSize) == 16, "HARDDRIVE_DEVICE_PATH.PartitionSize");
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, Signature) == 24, "HARDDRIVE_DEVICE_PATH.Signature");
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, MBRType) == 40, "HARDDRIVE_DEVICE_PATH.MBRType");
_Static_assert(offsetof(HARDDRIVE_DEVICE_PATH, SignatureType) == 41, "HARDDRIVE_DEVICE_PATH.SignatureType");
_Static_assert(sizeof(HARDDRIVE_DEVICE_PATH) == 42, "HARDDRIVE_DEVICE_PATH size");

#define MBR_TYPE_PCAT 0x01
#define MBR_TYPE_EFI_PARTITION_TABLE_HEADER 0x02
#define NO_DISK_SIGNATURE 0x00
#define SIGNATURE_TYPE_MBR 0x01
#define SIGNATURE_TYPE_GUID 0x02

/* Vendor-defined node (hardware, messaging or media); vendor data follows. */
typedef struct VENDOR_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_GUID Guid;
} __attribute__((packed)) VENDOR_DEVICE_PATH;
_Static_assert(offsetof(VENDOR_DEVICE_PATH, Guid) == 4, "VENDOR_DEVICE_PATH.Guid");
_Static_assert(sizeof(VENDOR_DEVICE_PATH) == 20, "VENDOR_DEVICE_PATH size");

/* File path media node (§10.3.5.4): NUL-terminated UCS-2 path follows. */
typedef struct FILEPATH_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	CHAR16 PathName[];
} __attribute__((packed)) FILEPATH_DEVICE_PATH;
_Static_assert(offsetof(FILEPATH_DEVICE_PATH, PathName) == 4, "FILEPATH_DEVICE_PATH.PathName");
_Static_assert(sizeof(FILEPATH_DEVICE_PATH) == 4, "FILEPATH_DEVICE_PATH size");

/* MAC address messaging node (§10.3.4.11): the network card a network boot
 * used; IfType is RFC 1700's hardware type (1: Ethernet, 6 bytes of MacAddress). */
typedef struct MAC_ADDR_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	UINT8 MacAddress[32];
	UINT8 IfType;
} __attribute__((packed)) MAC_ADDR_DEVICE_PATH;
_Static_assert(offsetof(MAC_ADDR_DEVICE_PATH, MacAddress) == 4, "MAC_ADDR_DEVICE_PATH.MacAddress");
_Static_assert(offsetof(MAC_ADDR_DEVICE_PATH, IfType) == 36, "MAC_ADDR_DEVICE_PATH.IfType");
_Static_assert(sizeof(MAC_ADDR_DEVICE_PATH) == 37, "MAC_ADDR_DEVICE_PATH size");

/* IPv4 messaging node (§10.3.4.12): what a network boot configured. */
typedef struct IPv4_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_IPv4_ADDRESS LocalIpAddress;
	EFI_IPv4_ADDRESS RemoteIpAddress;
	UINT16 LocalPort;
	UINT16 RemotePort;
	UINT16 Protocol;
	BOOLEAN StaticIpAddress;
	EFI_IPv4_ADDRESS GatewayIpAddress;
	EFI_IPv4_ADDRESS SubnetMask;
} __attribute__((packed)) IPv4_DEVICE_PATH;
_Static_assert(offsetof(IPv4_DEVICE_PATH, LocalIpAddress) == 4, "IPv4_DEVICE_PATH.LocalIpAddress");
_Static_assert(offsetof(IPv4_DEVICE_PATH, StaticIpAddress) == 18, "IPv4_DEVICE_PATH.StaticIpAddress");
_Static_assert(offsetof(IPv4_DEVICE_PATH, GatewayIpAddress) == 19, "IPv4_DEVICE_PATH.GatewayIpAddress");
_Static_assert(offsetof(IPv4_DEVICE_PATH, SubnetMask) == 23, "IPv4_DEVICE_PATH.SubnetMask");
_Static_assert(sizeof(IPv4_DEVICE_PATH) == 27, "IPv4_DEVICE_PATH size");

/* IPv6 messaging node (§10.3.4.13): what a network boot configured.
 * IpAddressOrigin: 0 manual, 1 stateless auto-configuration, 2 stateful
 * (DHCPv6); PrefixLength and GatewayIpAddress were added by UEFI 2.4. */
typedef struct IPv6_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	EFI_IPv6_ADDRESS LocalIpAddress;
	EFI_IPv6_ADDRESS RemoteIpAddress;
	UINT16 LocalPort;
	UINT16 RemotePort;
	UINT16 Protocol;
	UINT8 IpAddressOrigin;
	UINT8 PrefixLength;
	EFI_IPv6_ADDRESS GatewayIpAddress;
} __attribute__((packed)) IPv6_DEVICE_PATH;
_Static_assert(offsetof(IPv6_DEVICE_PATH, LocalIpAddress) == 4, "IPv6_DEVICE_PATH.LocalIpAddress");
_Static_assert(offsetof(IPv6_DEVICE_PATH, RemoteIpAddress) == 20, "IPv6_DEVICE_PATH.RemoteIpAddress");
_Static_assert(offsetof(IPv6_DEVICE_PATH, LocalPort) == 36, "IPv6_DEVICE_PATH.LocalPort");
_Static_assert(offsetof(IPv6_DEVICE_PATH, Protocol) == 40, "IPv6_DEVICE_PATH.Protocol");
_Static_assert(offsetof(IPv6_DEVICE_PATH, IpAddressOrigin) == 42, "IPv6_DEVICE_PATH.IpAddressOrigin");
_Static_assert(offsetof(IPv6_DEVICE_PATH, PrefixLength) == 43, "IPv6_DEVICE_PATH.PrefixLength");
_Static_assert(offsetof(IPv6_DEVICE_PATH, GatewayIpAddress) == 44, "IPv6_DEVICE_PATH.GatewayIpAddress");
_Static_assert(sizeof(IPv6_DEVICE_PATH) == 60, "IPv6_DEVICE_PATH size");

/* URI messaging node (§10.3.4.23): the URI (RFC 3986), not NUL-terminated,
 * fills the node after its header. */
typedef struct URI_DEVICE_PATH {
	EFI_DEVICE_PATH_PROTOCOL Header;
	CHAR8 Uri[];
} __attribute__((packed)) URI_DEVICE_PATH;
_Static_assert(offsetof(URI_DEVICE_PATH, Uri) == 4, "URI_DEVICE_PATH.Uri");

#endif /* EFI_PROTO_DEVICE_PATH_H */
