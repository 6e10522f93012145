/* SPDX-License-Identifier: MIT */
/*
 * EFI_TCG2_PROTOCOL: TCG EFI Protocol Specification (Family "2.0", rev 00.13)
 * §6.3-6.6; event types from the TCG PC Client Platform Firmware Profile
 * Specification §10.4.1. Only what a boot loader needs to measure: the
 * capability query and HashLogExtendEvent. EFI_TCG2_EVENT and its header are
 * packed (#pragma pack(1) in the specification); the capability structure is
 * not.
 */
#ifndef EFI_PROTO_TCG2_H
#define EFI_PROTO_TCG2_H

#include <efi/efi.h>

#define EFI_TCG2_PROTOCOL_GUID \
	{ 0x607f766c, 0x7455, 0x42be, { 0x93, 0x0b, 0xe4, 0xd7, 0x6d, 0xb2, 0x72, 0x0f } }

/* §6.4.1 / §6.4.5: the final events table (events logged after the first GetEventLog) */
#define EFI_TCG2_FINAL_EVENTS_TABLE_GUID \
	{ 0x1e2ed096, 0x30e2, 0x4254, { 0xbd, 0x89, 0x86, 0x3b, 0xbe, 0xf8, 0x23, 0x25 } }
#define EFI_TCG2_EVENT_LOG_FORMAT_TCG_2 0x00000002u

typedef struct {
	UINT64 Version;
	UINT64 NumberOfEvents;
	/* TCG_PCR_EVENT2 Event[] follows */
} EFI_TCG2_FINAL_EVENTS_TABLE;
_Static_assert(sizeof(EFI_TCG2_FINAL_EVENTS_TABLE) == 16, "EFI_TCG2_FINAL_EVENTS_TABLE header");

/* PC Client PFP §10.4.1 event types */
#define EV_EVENT_TAG 0x00000006u
#define EV_IPL 0x0000000du
#define EV_EFI_BOOT_SERVICES_APPLICATION 0x80000003u

/* TCG EFI Protocol §6.6.5 */
#define EFI_TCG2_EVENT_HEADER_VERSION 1u
#define EFI_TCG2_EXTEND_ONLY 0x0000000000000001ull
#define EFI_TCG2_PE_COFF_IMAGE 0x0000000000000010ull

typedef struct {
	UINT8 Major;
	UINT8 Minor;
} EFI_TCG2_VERSION;

/* §6.4.4 GetCapability: natural alignment (not packed in the specification). */
typedef struct {
	UINT8 Size;                         /* in: sizeof this structure */
	EFI_TCG2_VERSION StructureVersion;
	EFI_TCG2_VERSION ProtocolVersion;
	UINT32 HashAlgorithmBitmap;
	UINT32 SupportedEventLogs;
	BOOLEAN TPMPresentFlag;
	UINT16 MaxCommandSize;
	UINT16 MaxResponseSize;
	UINT32 ManufacturerID;
	UINT32 NumberOfPCRBanks;
	UINT32 ActivePcrBanks;
} EFI_TCG2_BOOT_SERVICE_CAPABILITY;
_Static_assert(offsetof(EFI_TCG2_BOOT_SERVICE_CAPABILITY, HashAlgorithmBitmap) == 8,
	       "TCG2 capability: HashAlgorithmBitmap");
_Static_assert(offsetof(EFI_TCG2_BOOT_SERVICE_CAPABILITY, TPMPresentFlag) == 16, "TCG2 capability: TPMPresentFlag");
_Static_assert(offsetof(EFI_TCG2_BOOT_SERVICE_CAPABILITY, ActivePcrBanks) == 32, "TCG2 capability: ActivePcrBanks");
_Static_assert(sizeof(EFI_TCG2_BOOT_SERVICE_CAPABILITY) == 36, "TCG2 capability size");

/* §6.6.5 EFI_TCG2_EVENT: packed; the event data follows the header. */
typedef struct {
	UINT32 HeaderSize;                  /* sizeof(EFI_TCG2_EVENT_HEADER) */
	UINT16 HeaderVersion;               /* EFI_TCG2_EVENT_HEADER_VERSION */
	UINT32 PCRIndex;
	UINT32 EventType;
} __attribute__((packed)) EFI_TCG2_EVENT_HEADER;
_Static_assert(sizeof(EFI_TCG2_EVENT_HEADER) == 14, "EFI_TCG2_EVENT_HEADER size");

typedef struct {
	UINT32 Size;                        /* of the whole structure, event data included */
	EFI_TCG2_EVENT_HEADER Header;
	UINT8 Event[];
} __attribute__((packed)) EFI_TCG2_EVENT;
_Static_assert(offsetof(EFI_TCG2_EVENT, Header) == 4, "EFI_TCG2_EVENT.Header");
_Static_assert(offsetof(EFI_TCG2_EVENT, Event) == 18, "EFI_TCG2_EVENT.Event");

/* PC Client PFP §9.4.2 TCG_PCClientTaggedEvent: the event data of EV_EVENT_TAG. */
typedef struct {
	UINT32 TaggedEventID;
	UINT32 TaggedEventDataSize;
	UINT8 TaggedEventData[];
} __attribute__((packed)) TCG_PCClientTaggedEvent;
_Static_assert(offsetof(TCG_PCClientTaggedEvent, TaggedEventData) == 8, "TCG_PCClientTaggedEvent.TaggedEventData");

typedef struct EFI_TCG2_PROTOCOL EFI_TCG2_PROTOCOL;

typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_CAPABILITY)(IN EFI_TCG2_PROTOCOL *This,
						    IN OUT EFI_TCG2_BOOT_SERVICE_CAPABILITY *ProtocolCapability);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_GET_EVENT_LOG)(IN EFI_TCG2_PROTOCOL *This, IN UINT32 EventLogFormat,
						   OUT EFI_PHYSICAL_ADDRESS *EventLogLocation,
						   OUT EFI_PHYSICAL_ADDRESS *EventLogLastEntry,
						   OUT BOOLEAN *EventLogTruncated);
typedef EFI_STATUS(EFIAPI *EFI_TCG2_HASH_LOG_EXTEND_EVENT)(IN EFI_TCG2_PROTOCOL *This, IN UINT64 Flags,
							   IN EFI_PHYSICAL_ADDRESS DataToHash, IN UINT64 DataToHashLen,
							   IN EFI_TCG2_EVENT *EfiTcgEvent);

/* §6.2 */
struct EFI_TCG2_PROTOCOL {
	EFI_TCG2_GET_CAPABILITY GetCapability;
	EFI_TCG2_GET_EVENT_LOG GetEventLog;
	EFI_TCG2_HASH_LOG_EXTEND_EVENT HashLogExtendEvent;
	void *SubmitCommand;
	void *GetActivePcrBanks;
	void *SetActivePcrBanks;
	void *GetResultOfSetActivePcrBanks;
};
_Static_assert(offsetof(EFI_TCG2_PROTOCOL, HashLogExtendEvent) == EFI_LAYOUT(16, 8),
	       "EFI_TCG2_PROTOCOL.HashLogExtendEvent");
_Static_assert(sizeof(EFI_TCG2_PROTOCOL) == EFI_LAYOUT(56, 28), "EFI_TCG2_PROTOCOL size");

#endif /* EFI_PROTO_TCG2_H */
