/* SPDX-License-Identifier: MIT */
/*
 * EFI_HTTP_PROTOCOL and its service binding (UEFI 2.10 §29.6.2, §29.6.3):
 * an HTTP/1.1 client over the firmware's TCP and, for https:// URLs, its TLS.
 * Type-only: the enums are the specification's, in its order.
 */
#ifndef EFI_PROTO_HTTP_H
#define EFI_PROTO_HTTP_H

#include <efi/efi.h>

#define EFI_HTTP_SERVICE_BINDING_PROTOCOL_GUID \
	{ 0xbdc8e6af, 0xd9bc, 0x4379, { 0xa7, 0x2a, 0xe0, 0xc4, 0xe7, 0x5d, 0xae, 0x1c } }
#define EFI_HTTP_PROTOCOL_GUID \
	{ 0x7a59b29b, 0x910b, 0x4171, { 0x82, 0x42, 0xa8, 0x5a, 0x0d, 0xf2, 0x5b, 0x5b } }

typedef struct EFI_HTTP_PROTOCOL EFI_HTTP_PROTOCOL;

typedef enum { HttpVersion10, HttpVersion11, HttpVersionUnsupported } EFI_HTTP_VERSION;

typedef enum {
	HttpMethodGet,
	HttpMethodPost,
	HttpMethodPatch,
	HttpMethodOptions,
	HttpMethodConnect,
	HttpMethodHead,
	HttpMethodPut,
	HttpMethodDelete,
	HttpMethodTrace,
	HttpMethodMax
} EFI_HTTP_METHOD;

/* EFI_HTTP_STATUS_CODE: an index, not the number on the wire, in the
 * specification's order (308 was appended by a later revision);
 * http_status_number() (src/core/http.c) maps it back. */
typedef enum {
	HTTP_STATUS_UNSUPPORTED_STATUS = 0,
	HTTP_STATUS_100_CONTINUE,
	HTTP_STATUS_101_SWITCHING_PROTOCOLS,
	HTTP_STATUS_200_OK,
	HTTP_STATUS_201_CREATED,
	HTTP_STATUS_202_ACCEPTED,
	HTTP_STATUS_203_NON_AUTHORITATIVE_INFORMATION,
	HTTP_STATUS_204_NO_CONTENT,
	HTTP_STATUS_205_RESET_CONTENT,
	HTTP_STATUS_206_PARTIAL_CONTENT,
	HTTP_STATUS_300_MULTIPLE_CHOICES,
	HTTP_STATUS_301_MOVED_PERMANENTLY,
	HTTP_STATUS_302_FOUND,
	HTTP_STATUS_303_SEE_OTHER,
	HTTP_STATUS_304_NOT_MODIFIED,
	HTTP_STATUS_305_USE_PROXY,
	HTTP_STATUS_307_TEMPORARY_REDIRECT,
	HTTP_STATUS_400_BAD_REQUEST,
	HTTP_STATUS_401_UNAUTHORIZED,
	HTTP_STATUS_402_PAYMENT_REQUIRED,
	HTTP_STATUS_403_FORBIDDEN,
	HTTP_STATUS_404_NOT_FOUND,
	HTTP_STATUS_405_METHOD_NOT_ALLOWED,
	HTTP_STATUS_406_NOT_ACCEPTABLE,
	HTTP_STATUS_407_PROXY_AUTHENTICATION_REQUIRED,
	HTTP_STATUS_408_REQUEST_TIME_OUT,
	HTTP_STATUS_409_CONFLICT,
	HTTP_STATUS_410_GONE,
	HTTP_STATUS_411_LENGTH_REQUIRED,
	HTTP_STATUS_412_PRECONDITION_FAILED,
	HTTP_STATUS_413_REQUEST_ENTITY_TOO_LARGE,
	HTTP_STATUS_414_REQUEST_URI_TOO_LARGE,
	HTTP_STATUS_415_UNSUPPORTED_MEDIA_TYPE,
	HTTP_STATUS_416_REQUESTED_RANGE_NOT_SATISFIED,
	HTTP_STATUS_417_EXPECTATION_FAILED,
	HTTP_STATUS_500_INTERNAL_SERVER_ERROR,
	HTTP_STATUS_501_NOT_IMPLEMENTED,
	HTTP_STATUS_502_BAD_GATEWAY,
	HTTP_STATUS_503_SERVICE_UNAVAILABLE,
	HTTP_STATUS_504_GATEWAY_TIME_OUT,
	HTTP_STATUS_505_HTTP_VERSION_NOT_SUPPORTED,
	HTTP_STATUS_308_PERMANENT_REDIRECT,
} EFI_HTTP_STATUS_CODE;
_Static_assert(HTTP_STATUS_505_HTTP_VERSION_NOT_SUPPORTED == 40 && HTTP_STATUS_308_PERMANENT_REDIRECT == 41,
	       "EFI_HTTP_STATUS_CODE order");

typedef struct EFI_HTTPv4_ACCESS_POINT {
	BOOLEAN UseDefaultAddress;
	EFI_IPv4_ADDRESS LocalAddress;
	EFI_IPv4_ADDRESS LocalSubnet;
	UINT16 LocalPort;
} EFI_HTTPv4_ACCESS_POINT;
_Static_assert(offsetof(EFI_HTTPv4_ACCESS_POINT, LocalAddress) == 1, "EFI_HTTPv4_ACCESS_POINT.LocalAddress");
_Static_assert(offsetof(EFI_HTTPv4_ACCESS_POINT, LocalSubnet) == 5, "EFI_HTTPv4_ACCESS_POINT.LocalSubnet");
_Static_assert(offsetof(EFI_HTTPv4_ACCESS_POINT, LocalPort) == 10, "EFI_HTTPv4_ACCESS_POINT.LocalPort");
_Static_assert(sizeof(EFI_HTTPv4_ACCESS_POINT) == 12, "EFI_HTTPv4_ACCESS_POINT size");

typedef struct EFI_HTTPv6_ACCESS_POINT {
	EFI_IPv6_ADDRESS LocalAddress;
	UINT16 LocalPort;
} EFI_HTTPv6_ACCESS_POINT;
_Static_assert(offsetof(EFI_HTTPv6_ACCESS_POINT, LocalPort) == 16, "EFI_HTTPv6_ACCESS_POINT.LocalPort");
_Static_assert(sizeof(EFI_HTTPv6_ACCESS_POINT) == 18, "EFI_HTTPv6_ACCESS_POINT size");

typedef struct EFI_HTTP_CONFIG_DATA {
	EFI_HTTP_VERSION HttpVersion;
	UINT32 TimeOutMillisec;
	BOOLEAN LocalAddressIsIPv6;
	union {
		EFI_HTTPv4_ACCESS_POINT *IPv4Node;
		EFI_HTTPv6_ACCESS_POINT *IPv6Node;
	} AccessPoint;
} EFI_HTTP_CONFIG_DATA;
_Static_assert(sizeof(EFI_HTTP_VERSION) == 4, "EFI_HTTP_VERSION is an enum (32 bits)");
_Static_assert(offsetof(EFI_HTTP_CONFIG_DATA, LocalAddressIsIPv6) == 8, "EFI_HTTP_CONFIG_DATA.LocalAddressIsIPv6");
_Static_assert(offsetof(EFI_HTTP_CONFIG_DATA, AccessPoint) == EFI_LAYOUT(16, 12), "EFI_HTTP_CONFIG_DATA.AccessPoint");
_Static_assert(sizeof(EFI_HTTP_CONFIG_DATA) == EFI_LAYOUT(24, 16), "EFI_HTTP_CONFIG_DATA size");

typedef struct EFI_HTTP_REQUEST_DATA {
	EFI_HTTP_METHOD Method;
	CHAR16 *Url;
} EFI_HTTP_REQUEST_DATA;
_Static_assert(offsetof(EFI_HTTP_REQUEST_DATA, Url) == EFI_LAYOUT(8, 4), "EFI_HTTP_REQUEST_DATA.Url");

typedef struct EFI_HTTP_RESPONSE_DATA {
	EFI_HTTP_STATUS_CODE StatusCode;
} EFI_HTTP_RESPONSE_DATA;

typedef struct EFI_HTTP_HEADER {
	CHAR8 *FieldName;
	CHAR8 *FieldValue;
} EFI_HTTP_HEADER;
_Static_assert(sizeof(EFI_HTTP_HEADER) == EFI_LAYOUT(16, 8), "EFI_HTTP_HEADER size");

/* On a response the driver allocates Headers (and each field); the caller frees them. */
typedef struct EFI_HTTP_MESSAGE {
	union {
		EFI_HTTP_REQUEST_DATA *Request;
		EFI_HTTP_RESPONSE_DATA *Response;
	} Data;
	UINTN HeaderCount;
	EFI_HTTP_HEADER *Headers;
	UINTN BodyLength;
	VOID *Body;
} EFI_HTTP_MESSAGE;
_Static_assert(offsetof(EFI_HTTP_MESSAGE, HeaderCount) == EFI_LAYOUT(8, 4), "EFI_HTTP_MESSAGE.HeaderCount");
_Static_assert(offsetof(EFI_HTTP_MESSAGE, BodyLength) == EFI_LAYOUT(24, 12), "EFI_HTTP_MESSAGE.BodyLength");
_Static_assert(sizeof(EFI_HTTP_MESSAGE) == EFI_LAYOUT(40, 20), "EFI_HTTP_MESSAGE size");

/* Event: EVT_NOTIFY_SIGNAL at TPL_CALLBACK or below, signalled when Status is set. */
typedef struct EFI_HTTP_TOKEN {
	EFI_EVENT Event;
	EFI_STATUS Status;
	EFI_HTTP_MESSAGE *Message;
} EFI_HTTP_TOKEN;
_Static_assert(offsetof(EFI_HTTP_TOKEN, Message) == EFI_LAYOUT(16, 8), "EFI_HTTP_TOKEN.Message");

typedef EFI_STATUS(EFIAPI *EFI_HTTP_GET_MODE_DATA)(IN EFI_HTTP_PROTOCOL *This, OUT EFI_HTTP_CONFIG_DATA *Data);
/* HttpConfigData NULL: reset the instance, closing its connections. */
typedef EFI_STATUS(EFIAPI *EFI_HTTP_CONFIGURE)(IN EFI_HTTP_PROTOCOL *This,
					       IN EFI_HTTP_CONFIG_DATA *HttpConfigData OPTIONAL);
typedef EFI_STATUS(EFIAPI *EFI_HTTP_REQUEST)(IN EFI_HTTP_PROTOCOL *This, IN EFI_HTTP_TOKEN *Token);
typedef EFI_STATUS(EFIAPI *EFI_HTTP_CANCEL)(IN EFI_HTTP_PROTOCOL *This, IN EFI_HTTP_TOKEN *Token);
/* With Data.Response set: the status line and headers; then, Data NULL, up to BodyLength body bytes. */
typedef EFI_STATUS(EFIAPI *EFI_HTTP_RESPONSE)(IN EFI_HTTP_PROTOCOL *This, IN EFI_HTTP_TOKEN *Token);
typedef EFI_STATUS(EFIAPI *EFI_HTTP_POLL)(IN EFI_HTTP_PROTOCOL *This);

struct EFI_HTTP_PROTOCOL {
	EFI_HTTP_GET_MODE_DATA GetModeData;
	EFI_HTTP_CONFIGURE Configure;
	EFI_HTTP_REQUEST Request;
	EFI_HTTP_CANCEL Cancel;
	EFI_HTTP_RESPONSE Response;
	EFI_HTTP_POLL Poll;
};
_Static_assert(offsetof(EFI_HTTP_PROTOCOL, Request) == EFI_LAYOUT(16, 8), "EFI_HTTP_PROTOCOL.Request");
_Static_assert(offsetof(EFI_HTTP_PROTOCOL, Poll) == EFI_LAYOUT(40, 20), "EFI_HTTP_PROTOCOL.Poll");
_Static_assert(sizeof(EFI_HTTP_PROTOCOL) == EFI_LAYOUT(48, 24), "EFI_HTTP_PROTOCOL size");

#endif /* EFI_PROTO_HTTP_H */
