/* SPDX-License-Identifier: MIT */
/*
 * EFI_PXE_BASE_CODE_PROTOCOL (UEFI 2.10 §24.3): on the handle of an image a
 * PXE boot started, with the DHCP exchange that named it in Mode and TFTP
 * reads through Mtftp(). Type-only; what of Mode handoff never reads
 * (the IP filter, ARP cache, route table, ICMP error) is kept as bytes.
 */
#ifndef EFI_PROTO_PXE_BASE_CODE_H
#define EFI_PROTO_PXE_BASE_CODE_H

#include <efi/efi.h>

#define EFI_PXE_BASE_CODE_PROTOCOL_GUID \
	{ 0x03c4e603, 0xac28, 0x11d3, { 0x9a, 0x2d, 0x00, 0x90, 0x27, 0x3f, 0xc1, 0x4d } }

typedef struct EFI_PXE_BASE_CODE_PROTOCOL EFI_PXE_BASE_CODE_PROTOCOL;

typedef enum {
	EFI_PXE_BASE_CODE_TFTP_FIRST,
	EFI_PXE_BASE_CODE_TFTP_GET_FILE_SIZE,
	EFI_PXE_BASE_CODE_TFTP_READ_FILE,
	EFI_PXE_BASE_CODE_TFTP_WRITE_FILE,
	EFI_PXE_BASE_CODE_TFTP_READ_DIRECTORY,
	EFI_PXE_BASE_CODE_MTFTP_GET_FILE_SIZE,
	EFI_PXE_BASE_CODE_MTFTP_READ_FILE,
	EFI_PXE_BASE_CODE_MTFTP_READ_DIRECTORY,
	EFI_PXE_BASE_CODE_MTFTP_LAST
} EFI_PXE_BASE_CODE_TFTP_OPCODE;

typedef UINT16 EFI_PXE_BASE_CODE_UDP_PORT;

typedef struct EFI_PXE_BASE_CODE_MTFTP_INFO {
	EFI_IP_ADDRESS MCastIp;
	EFI_PXE_BASE_CODE_UDP_PORT CPort;
	EFI_PXE_BASE_CODE_UDP_PORT SPort;
	UINT16 ListenTimeout;
	UINT16 TransmitTimeout;
} EFI_PXE_BASE_CODE_MTFTP_INFO;

/* The last TFTP ERROR packet (RFC 1350 §5): its code and message. */
typedef struct EFI_PXE_BASE_CODE_TFTP_ERROR {
	UINT8 ErrorCode;
	CHAR8 ErrorString[127];
} EFI_PXE_BASE_CODE_TFTP_ERROR;

/* A DHCP or PXE packet as the base code keeps it (a BOOTP/DHCPv4 message,
 * RFC 2131 §2, options from byte 240 on); parsed by src/core/dhcp.c. */
#define EFI_PXE_BASE_CODE_PACKET_SIZE 1472
typedef union EFI_PXE_BASE_CODE_PACKET {
	UINT8 Raw[EFI_PXE_BASE_CODE_PACKET_SIZE];
	UINT32 Align; /* the spec's union holds DHCPv4/v6 views with 32-bit fields */
} EFI_PXE_BASE_CODE_PACKET;
_Static_assert(sizeof(EFI_PXE_BASE_CODE_PACKET) == 1472, "EFI_PXE_BASE_CODE_PACKET size");

typedef struct EFI_PXE_BASE_CODE_MODE {
	BOOLEAN Started;
	BOOLEAN Ipv6Available;
	BOOLEAN Ipv6Supported;
	BOOLEAN UsingIpv6;
	BOOLEAN BisSupported;
	BOOLEAN BisDetected;
	BOOLEAN AutoArp;
	BOOLEAN SendGUID;
	BOOLEAN DhcpDiscoverValid;
	BOOLEAN DhcpAckReceived;
	BOOLEAN ProxyOfferReceived;
	BOOLEAN PxeDiscoverValid;
	BOOLEAN PxeReplyReceived;
	BOOLEAN PxeBisReplyReceived;
	BOOLEAN IcmpErrorReceived;
	BOOLEAN TftpErrorReceived;
	BOOLEAN MakeCallbacks;
	UINT8 TTL;
	UINT8 ToS;
	EFI_IP_ADDRESS StationIp;
	EFI_IP_ADDRESS SubnetMask;
	EFI_PXE_BASE_CODE_PACKET DhcpDiscover;
	EFI_PXE_BASE_CODE_PACKET DhcpAck;
	EFI_PXE_BASE_CODE_PACKET ProxyOffer;
	EFI_PXE_BASE_CODE_PACKET PxeDiscover;
	EFI_PXE_BASE_CODE_PACKET PxeReply;
	EFI_PXE_BASE_CODE_PACKET PxeBisReply;
	/* IpFilter (132 bytes), ArpCacheEntries and ArpCache[8] (4 + 8 * 48),
	 * RouteTableEntries and RouteTable[8] (4 + 8 * 48), IcmpError (504) */
	UINT8 NotUsedHere[132 + 388 + 388 + 504];
	EFI_PXE_BASE_CODE_TFTP_ERROR TftpError;
} EFI_PXE_BASE_CODE_MODE;
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, UsingIpv6) == 3, "EFI_PXE_BASE_CODE_MODE.UsingIpv6");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, DhcpAckReceived) == 9, "EFI_PXE_BASE_CODE_MODE.DhcpAckReceived");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, PxeReplyReceived) == 12, "EFI_PXE_BASE_CODE_MODE.PxeReplyReceived");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, StationIp) == 20, "EFI_PXE_BASE_CODE_MODE.StationIp");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, DhcpAck) == 1524, "EFI_PXE_BASE_CODE_MODE.DhcpAck");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, ProxyOffer) == 2996, "EFI_PXE_BASE_CODE_MODE.ProxyOffer");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, PxeReply) == 5940, "EFI_PXE_BASE_CODE_MODE.PxeReply");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_MODE, TftpError) == 10296, "EFI_PXE_BASE_CODE_MODE.TftpError");
_Static_assert(sizeof(EFI_PXE_BASE_CODE_MODE) == 10424, "EFI_PXE_BASE_CODE_MODE size");

typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_START)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN BOOLEAN UseIpv6);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_STOP)(IN EFI_PXE_BASE_CODE_PROTOCOL *This);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_DHCP)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN BOOLEAN SortOffers);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_DISCOVER)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN UINT16 Type,
						       IN UINT16 *Layer, IN BOOLEAN UseBis, IN VOID *Info OPTIONAL);
/* TFTP_GET_FILE_SIZE: *BufferSize is set (the "tsize" option, RFC 2349); TFTP_READ_FILE:
 * the whole file into BufferPtr, EFI_BUFFER_TOO_SMALL when it does not fit *BufferSize. */
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_MTFTP)(IN EFI_PXE_BASE_CODE_PROTOCOL *This,
						    IN EFI_PXE_BASE_CODE_TFTP_OPCODE Operation,
						    IN OUT VOID *BufferPtr OPTIONAL, IN BOOLEAN Overwrite,
						    IN OUT UINT64 *BufferSize, IN UINTN *BlockSize OPTIONAL,
						    IN EFI_IP_ADDRESS *ServerIp, IN UINT8 *Filename OPTIONAL,
						    IN EFI_PXE_BASE_CODE_MTFTP_INFO *Info OPTIONAL,
						    IN BOOLEAN DontUseBuffer);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_UDP_WRITE)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN UINT16 OpFlags,
							IN EFI_IP_ADDRESS *DestIp,
							IN EFI_PXE_BASE_CODE_UDP_PORT *DestPort,
							IN EFI_IP_ADDRESS *GatewayIp OPTIONAL,
							IN EFI_IP_ADDRESS *SrcIp OPTIONAL,
							IN OUT EFI_PXE_BASE_CODE_UDP_PORT *SrcPort OPTIONAL,
							IN UINTN *HeaderSize OPTIONAL, IN VOID *HeaderPtr OPTIONAL,
							IN UINTN *BufferSize, IN VOID *BufferPtr);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_UDP_READ)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN UINT16 OpFlags,
						       IN OUT EFI_IP_ADDRESS *DestIp OPTIONAL,
						       IN OUT EFI_PXE_BASE_CODE_UDP_PORT *DestPort OPTIONAL,
						       IN OUT EFI_IP_ADDRESS *SrcIp OPTIONAL,
						       IN OUT EFI_PXE_BASE_CODE_UDP_PORT *SrcPort OPTIONAL,
						       IN UINTN *HeaderSize OPTIONAL, IN VOID *HeaderPtr OPTIONAL,
						       IN OUT UINTN *BufferSize, IN VOID *BufferPtr);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_SET_IP_FILTER)(IN EFI_PXE_BASE_CODE_PROTOCOL *This,
							    IN VOID *NewFilter);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_ARP)(IN EFI_PXE_BASE_CODE_PROTOCOL *This, IN EFI_IP_ADDRESS *IpAddr,
						  IN VOID *MacAddr OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_SET_PARAMETERS)(IN EFI_PXE_BASE_CODE_PROTOCOL *This,
							     IN BOOLEAN *NewAutoArp OPTIONAL,
							     IN BOOLEAN *NewSendGUID OPTIONAL,
							     IN UINT8 *NewTTL OPTIONAL, IN UINT8 *NewToS OPTIONAL,
							     IN BOOLEAN *NewMakeCallback OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_SET_STATION_IP)(IN EFI_PXE_BASE_CODE_PROTOCOL *This,
							     IN EFI_IP_ADDRESS *NewStationIp OPTIONAL,
							     IN EFI_IP_ADDRESS *NewSubnetMask OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_PXE_BASE_CODE_SET_PACKETS)(IN EFI_PXE_BASE_CODE_PROTOCOL *This,
							  BOOLEAN *NewDhcpDiscoverValid OPTIONAL,
							  BOOLEAN *NewDhcpAckReceived OPTIONAL,
							  BOOLEAN *NewProxyOfferReceived OPTIONAL,
							  BOOLEAN *NewPxeDiscoverValid OPTIONAL,
							  BOOLEAN *NewPxeReplyReceived OPTIONAL,
							  BOOLEAN *NewPxeBisReplyReceived OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewDhcpDiscover OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewDhcpAck OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewProxyOffer OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewPxeDiscover OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewPxeReply OPTIONAL,
							  EFI_PXE_BASE_CODE_PACKET *NewPxeBisReply OPTIONAL);

struct EFI_PXE_BASE_CODE_PROTOCOL {
	UINT64 Revision;
	EFI_PXE_BASE_CODE_START Start;
	EFI_PXE_BASE_CODE_STOP Stop;
	EFI_PXE_BASE_CODE_DHCP Dhcp;
	EFI_PXE_BASE_CODE_DISCOVER Discover;
	EFI_PXE_BASE_CODE_MTFTP Mtftp;
	EFI_PXE_BASE_CODE_UDP_WRITE UdpWrite;
	EFI_PXE_BASE_CODE_UDP_READ UdpRead;
	EFI_PXE_BASE_CODE_SET_IP_FILTER SetIpFilter;
	EFI_PXE_BASE_CODE_ARP Arp;
	EFI_PXE_BASE_CODE_SET_PARAMETERS SetParameters;
	EFI_PXE_BASE_CODE_SET_STATION_IP SetStationIp;
	EFI_PXE_BASE_CODE_SET_PACKETS SetPackets;
	EFI_PXE_BASE_CODE_MODE *Mode;
};
_Static_assert(offsetof(EFI_PXE_BASE_CODE_PROTOCOL, Mtftp) == EFI_LAYOUT(40, 24), "EFI_PXE_BASE_CODE_PROTOCOL.Mtftp");
_Static_assert(offsetof(EFI_PXE_BASE_CODE_PROTOCOL, Mode) == EFI_LAYOUT(104, 56), "EFI_PXE_BASE_CODE_PROTOCOL.Mode");

#endif /* EFI_PROTO_PXE_BASE_CODE_H */
