/* SPDX-License-Identifier: MIT */
/*
 * EFI_PARTITION_INFO_PROTOCOL (UEFI 2.10 §13.18): installed by the firmware's
 * partition driver on each partition's handle, it hands over the partition's
 * own record from the partition table: the MBR record (§5.2.1, Table 5.3) or
 * the GPT partition entry (§5.3.3, Table 5.6). The structure is byte-packed
 * in the specification; every field below falls on its natural alignment, so
 * the plain layout is the same.
 */
#ifndef EFI_PROTO_PARTITION_INFO_H
#define EFI_PROTO_PARTITION_INFO_H

#include <efi/efi.h>

#define EFI_PARTITION_INFO_PROTOCOL_GUID \
	{ 0x8cf2f62c, 0xbc9b, 0x4821, { 0x80, 0x8d, 0xec, 0x9e, 0xc4, 0x21, 0xa1, 0xa0 } }

#define EFI_PARTITION_INFO_PROTOCOL_REVISION 0x0001000
#define PARTITION_TYPE_OTHER 0x00
#define PARTITION_TYPE_MBR 0x01
#define PARTITION_TYPE_GPT 0x02

/* One of the four records of an MBR (§5.2.1, Table 5.3). */
typedef struct MBR_PARTITION_RECORD {
	UINT8 BootIndicator;
	UINT8 StartHead;
	UINT8 StartSector;
	UINT8 StartTrack;
	UINT8 OSIndicator;
	UINT8 EndHead;
	UINT8 EndSector;
	UINT8 EndTrack;
	UINT8 StartingLBA[4];
	UINT8 SizeInLBA[4];
} MBR_PARTITION_RECORD;
_Static_assert(offsetof(MBR_PARTITION_RECORD, OSIndicator) == 4, "MBR_PARTITION_RECORD.OSIndicator");
_Static_assert(offsetof(MBR_PARTITION_RECORD, StartingLBA) == 8, "MBR_PARTITION_RECORD.StartingLBA");
_Static_assert(sizeof(MBR_PARTITION_RECORD) == 16, "MBR_PARTITION_RECORD size");

/* A GPT partition entry (§5.3.3, Table 5.6). */
typedef struct EFI_PARTITION_ENTRY {
	EFI_GUID PartitionTypeGUID;
	EFI_GUID UniquePartitionGUID;
	EFI_LBA StartingLBA;
	EFI_LBA EndingLBA;
	UINT64 Attributes;
	CHAR16 PartitionName[36];
} EFI_PARTITION_ENTRY;
_Static_assert(offsetof(EFI_PARTITION_ENTRY, UniquePartitionGUID) == 16, "EFI_PARTITION_ENTRY.UniquePartitionGUID");
_Static_assert(offsetof(EFI_PARTITION_ENTRY, StartingLBA) == 32, "EFI_PARTITION_ENTRY.StartingLBA");
_Static_assert(offsetof(EFI_PARTITION_ENTRY, Attributes) == 48, "EFI_PARTITION_ENTRY.Attributes");
_Static_assert(offsetof(EFI_PARTITION_ENTRY, PartitionName) == 56, "EFI_PARTITION_ENTRY.PartitionName");
_Static_assert(sizeof(EFI_PARTITION_ENTRY) == 128, "EFI_PARTITION_ENTRY size");

typedef struct EFI_PARTITION_INFO_PROTOCOL {
	UINT32 Revision;
	UINT32 Type;    /* PARTITION_TYPE_*: which member of Info is valid */
	UINT8 System;   /* 1: an EFI system partition */
	UINT8 Reserved[7];
	union {
		MBR_PARTITION_RECORD Mbr;
		EFI_PARTITION_ENTRY Gpt;
	} Info;
} EFI_PARTITION_INFO_PROTOCOL;
_Static_assert(offsetof(EFI_PARTITION_INFO_PROTOCOL, Type) == 4, "EFI_PARTITION_INFO_PROTOCOL.Type");
_Static_assert(offsetof(EFI_PARTITION_INFO_PROTOCOL, System) == 8, "EFI_PARTITION_INFO_PROTOCOL.System");
_Static_assert(offsetof(EFI_PARTITION_INFO_PROTOCOL, Info) == 16, "EFI_PARTITION_INFO_PROTOCOL.Info");
_Static_assert(sizeof(EFI_PARTITION_INFO_PROTOCOL) == 144, "EFI_PARTITION_INFO_PROTOCOL size");

#endif /* EFI_PROTO_PARTITION_INFO_H */
