/* Files over HTTP(S) through the firmware's EFI_HTTP_PROTOCOL (UEFI 2.10
 * §29.6), from the server UEFI HTTP Boot started handoff from (§24.7: the
 * image's device path ends in IPv4()/Dns()/Uri(), or IPv6()/Dns()/Uri()). One
 * child instance per file: configure it with this machine's address from the
 * IPv4() or IPv6() node (the default address is not set up: EFI_NO_MAPPING;
 * an IPv6 URL's host is bracketed, RFC 3986 §3.2.2), GET, read the status line
 * and headers, then the body straight into one buffer of Content-Length
 * bytes, or a chunked body (RFC 9112 §7.1: the firmware hands over its size
 * lines too) decoded as it comes into a buffer that grows. https:// URLs go
 * through the firmware's TLS, with its CA list. A redirect to the same
 * origin is followed on a new instance, up to HTTP_REDIRECTS_MAX in a row
 * (core/http_redirect.c decides where to). */
#include "net.h"
#include "core/fmt.h"
#include "core/http_chunked.h"
#include "core/http_redirect.h"
#include "core/netboot.h"

#define HTTP_TIMEOUT_MS 15000u
#define BODY_CHUNK_MAX (1u << 30) /* BodyLength is a UINTN: 32 bits on IA-32 */
#define BODY_POLLS 16u

static const EFI_GUID http_sb_guid = EFI_HTTP_SERVICE_BINDING_PROTOCOL_GUID;
static const EFI_GUID http_guid = EFI_HTTP_PROTOCOL_GUID;

/* One GET on one child instance; @done is set by the token's event. */
struct http_get {
	const struct net_source *src;
	const char *url;
	char *next;                     /* where a redirect sends the GET */
	unsigned hops;                  /* redirects followed before this GET */
	bool chunked;                   /* the body is in chunked coding */
	EFI_HANDLE child;
	EFI_HTTP_PROTOCOL *http;
	EFI_EVENT event;
	volatile bool done;
	struct net_progress progress;
};

static void EFIAPI token_done(EFI_EVENT event, void *ctx)
{
	*(volatile bool *)ctx = true;
}

static EFI_STATUS http_open(struct http_get *g)
{
	/* either access point is at &local (a union): the flag says which */
	EFI_HTTP_CONFIG_DATA cfg = { .HttpVersion = HttpVersion11, .TimeOutMillisec = HTTP_TIMEOUT_MS,
				     .LocalAddressIsIPv6 = g->src->ipv6,
				     .AccessPoint.IPv4Node = (EFI_HTTPv4_ACCESS_POINT *)&g->src->local };
	EFI_STATUS err;

	err = BS->CreateEvent(EVT_NOTIFY_SIGNAL, TPL_CALLBACK, token_done, (void *)&g->done, &g->event);
	if (!EFI_ERROR(err))
		err = g->src->http->CreateChild(g->src->http, &g->child);
	if (!EFI_ERROR(err))
		err = BS->HandleProtocol(g->child, &http_guid, (void **)&g->http);
	if (!EFI_ERROR(err))
		err = g->http->Configure(g->http, &cfg);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: cannot set up the firmware's HTTP client: %m", g->url);
	return EFI_SUCCESS;
}

static void http_close(struct http_get *g)
{
	if (g->child)
		g->src->http->DestroyChild(g->src->http, g->child);
	if (g->event)
		BS->CloseEvent(g->event);
	net_progress_end(&g->progress);
}

/* Start @t and poll until its event fires or nothing has come for NET_STALL_SEC. */
static EFI_STATUS http_run(struct http_get *g, EFI_HTTP_TOKEN *t, bool request)
{
	EFI_STATUS err;

	g->done = false;
	t->Event = g->event;
	err = request ? g->http->Request(g->http, t) : g->http->Response(g->http, t);
	if (EFI_ERROR(err))
		return err;
	while (!g->done) {
		g->http->Poll(g->http);
		if (net_progress_stalled(&g->progress)) {
			g->http->Cancel(g->http, t);
			return EFI_TIMEOUT;
		}
	}
	return t->Status;
}

static EFI_STATUS send_get(struct http_get *g)
{
	const char *host;
	size_t host_len = net_url_authority(g->url, &host);
	_cleanup_free_ char *host8 = fmt_asprintf("%.*s", (int)host_len, host);
	_cleanup_free_ CHAR16 *url16 = str8_to_16(g->url, /* path= */ false);
	EFI_HTTP_HEADER header = { (CHAR8 *)"Host", (CHAR8 *)host8 };
	EFI_HTTP_REQUEST_DATA req = { .Method = HttpMethodGet, .Url = url16 };
	EFI_HTTP_MESSAGE msg = { .Data.Request = &req, .HeaderCount = 1, .Headers = &header };
	EFI_HTTP_TOKEN t = { .Message = &msg };
	EFI_STATUS err;

	if (!host8 || !url16)
		return EFI_OUT_OF_RESOURCES;
	err = http_run(g, &t, /* request= */ true);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: no connection%s: %m", g->url,
					net_url_is_https(g->url) ? " (TLS: is the server's CA enrolled?)" : "");
	return EFI_SUCCESS;
}

/* The body's length (http_body_length()) or a redirect's target (http_redirect())
 * from the headers the driver allocated, which are freed here. */
static const char *take_head(struct http_get *g, EFI_HTTP_MESSAGE *msg, bool moved, uint64_t *ret)
{
	size_t n = msg->Headers ? msg->HeaderCount : 0;
	const char *why = moved ? http_redirect(msg->Headers, n, g->url, &g->next)
				: http_body_length(msg->Headers, n, ret, &g->chunked);

	for (UINTN i = 0; i < n; i++) {
		BS->FreePool(msg->Headers[i].FieldName);
		BS->FreePool(msg->Headers[i].FieldValue);
	}
	if (msg->Headers)
		BS->FreePool(TAKE_PTR(msg->Headers));
	return why;
}

/* A redirect: logged and taken (g->next set) or refused naming where to and why. */
static EFI_STATUS take_redirect(struct http_get *g, unsigned status, const char *why)
{
	if (!why && g->hops >= HTTP_REDIRECTS_MAX)
		why = "more than 5 redirects";
	if (why) {
		_cleanup_free_ char *to = TAKE_PTR(g->next);

		return log_error_status(EFI_HTTP_ERROR, "%s: HTTP status %u%s%s: refused (%s)", g->url, status,
					to ? " to " : "", to ? to : "", why);
	}
	log_info("%s: HTTP status %u to %s", g->url, status, g->next);
	return EFI_SUCCESS;
}

/* The status line and headers: 200 with one valid Content-Length or
 * chunked coding is the only answer read on, a same-origin redirect the
 * only one followed; a status the firmware cannot name (0) never passes for
 * either. */
static EFI_STATUS read_head(struct http_get *g, bool quiet_missing, uint64_t *ret_size)
{
	EFI_HTTP_RESPONSE_DATA rsp = { HTTP_STATUS_UNSUPPORTED_STATUS };
	EFI_HTTP_MESSAGE msg = { .Data.Response = &rsp };
	EFI_HTTP_TOKEN t = { .Message = &msg };
	EFI_STATUS err = http_run(g, &t, /* request= */ false);
	unsigned status = http_status_number(rsp.StatusCode);
	/* A status of 300 or more completes with EFI_HTTP_ERROR (UEFI 2.10 §29.6.2.6),
	 * its headers handed over as a 200's; on other errors the driver may have
	 * freed them (edk2 then clears Headers), so they are read only then. */
	bool moved = http_is_redirect(status) && (!EFI_ERROR(err) || err == EFI_HTTP_ERROR);
	const char *why = EFI_ERROR(err) && !moved ? NULL : take_head(g, &msg, moved, ret_size);

	if (moved)
		return take_redirect(g, status, why);
	if (status == 404 && quiet_missing)
		return EFI_NOT_FOUND;
	if (status && status != 200)
		return log_error_status(status == 404 ? EFI_NOT_FOUND : EFI_HTTP_ERROR, "%s: HTTP status %u", g->url,
					status);
	if (EFI_ERROR(err))
		return log_error_status(err, "%s: no answer%s: %m", g->url,
					err == EFI_TIMEOUT ? " (timed out)" : "");
	if (!status)
		why = "an unknown HTTP status";
	if (why)
		return log_error_status(EFI_PROTOCOL_ERROR, "%s: the answer has %s", g->url, why);
	return EFI_SUCCESS;
}

/* The body, chunk by chunk as it arrives: *@size bytes into a buffer of
 * that size, or a chunked body of unknown size into a buffer doubled as it
 * fills, decoded in place as it comes (the data before the bytes still
 * coded) up to the last chunk. Response() is not called after that: the
 * firmware's client has no message left to read then. */
static EFI_STATUS read_body(struct http_get *g, uint8_t **buf, uint64_t *size)
{
	struct http_chunked c = {};
	size_t cap = g->chunked ? 0 : (size_t)*size, done = 0; /* used once net_buffer() took *size */

	if (!g->chunked && !(*buf = net_buffer(g->url, *size)))
		return EFI_OUT_OF_RESOURCES;
	g->progress.total = cap;
	while (g->chunked ? !http_chunked_done(&c) : done < cap) {
		UINTN want;
		EFI_HTTP_MESSAGE msg;
		EFI_HTTP_TOKEN t = { .Message = &msg };
		const char *why;
		size_t n;
		EFI_STATUS err;

		if (g->chunked && done == cap && !net_buffer_grow(g->url, buf, &cap, done))
			return EFI_OUT_OF_RESOURCES;
		want = MIN(cap - done, BODY_CHUNK_MAX);
		msg = (EFI_HTTP_MESSAGE){ .BodyLength = want, .Body = *buf + done };
		/* Each Response() costs the driver a token, events and a TCP receive;
		 * polling first lets several segments queue, so one call takes them
		 * all (about 15% faster under QEMU than a segment per call). */
		for (unsigned i = 0; i < BODY_POLLS; i++)
			g->http->Poll(g->http);
		err = http_run(g, &t, /* request= */ false);

		if (!EFI_ERROR(err) && (msg.BodyLength == 0 || msg.BodyLength > want))
			err = EFI_END_OF_FILE;
		if (EFI_ERROR(err))
			return log_error_status(err, "%s: the body ended after %llu bytes: %m", g->url,
						(unsigned long long)g->progress.done);
		net_progress_add(&g->progress, msg.BodyLength);
		n = msg.BodyLength;
		if (g->chunked && (why = http_chunked_feed(&c, *buf + done, n, &n)))
			return log_error_status(EFI_PROTOCOL_ERROR, "%s: the answer has %s", g->url, why);
		done += n;
	}
	*size = done;
	return EFI_SUCCESS;
}

/* One GET of g->url: its body in *@ret, or g->next where a redirect sends it. */
static EFI_STATUS http_get_one(struct http_get *g, bool quiet_missing, uint8_t **ret, uint64_t *ret_size)
{
	EFI_STATUS err;

	net_progress_start(&g->progress, g->url, 0);
	err = http_open(g);
	if (!EFI_ERROR(err))
		err = send_get(g);
	if (!EFI_ERROR(err))
		err = read_head(g, quiet_missing, ret_size);
	if (!EFI_ERROR(err) && !g->next)
		err = read_body(g, ret, ret_size);
	http_close(g);
	return err;
}

EFI_STATUS net_http_get(const struct net_source *src, const char *url, bool quiet_missing, uint8_t **ret,
			uint64_t *ret_size)
{
	_cleanup_free_ char *moved = NULL; /* the URL of the last redirect */
	uint64_t size = 0;
	uint8_t *buf = NULL;
	EFI_STATUS err;

	for (unsigned hops = 0;; hops++) {
		struct http_get g = { .src = src, .url = moved ? moved : url, .hops = hops };

		err = http_get_one(&g, quiet_missing, &buf, &size);
		if (EFI_ERROR(err) || !g.next)
			break;
		mem_free(moved);
		moved = TAKE_PTR(g.next);
	}
	if (EFI_ERROR(err)) {
		mem_free(buf);
		return err;
	}
	*ret = buf;
	*ret_size = size;
	return EFI_SUCCESS;
}

EFI_STATUS net_http_source(const EFI_DEVICE_PATH_PROTOCOL *dp, struct net_source *ret)
{
	const URI_DEVICE_PATH *uri = devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_URI_DP, sizeof(*uri) + 1);
	const IPv4_DEVICE_PATH *ip = devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_IPv4_DP, sizeof(*ip));
	/* up to LocalIpAddress: the node before UEFI 2.4 was shorter */
	const IPv6_DEVICE_PATH *ip6 = devpath_find(dp, MESSAGING_DEVICE_PATH, MSG_IPv6_DP,
						   offsetof(IPv6_DEVICE_PATH, RemoteIpAddress));
	static const uint8_t none[16];
	const uint8_t *addr = ip ? ip->LocalIpAddress.Addr : ip6 ? ip6->LocalIpAddress.Addr : none;
	EFI_DEVICE_PATH_PROTOCOL *rest = (EFI_DEVICE_PATH_PROTOCOL *)dp;
	EFI_HANDLE nic;
	size_t n;

	if (!uri)
		return EFI_UNSUPPORTED;
	n = devpath_node_len(&uri->Header) - sizeof(*uri);
	ret->loc = fmt_asprintf("%.*s", (int)MIN(n, (size_t)NET_URL_MAX), uri->Uri);
	if (!ret->loc)
		return EFI_OUT_OF_RESOURCES;
	/* the node may carry the URL's NUL (edk2 does): the URL ends at the first one */
	if (n >= NET_URL_MAX || !net_url_is_http(ret->loc))
		return log_error_status(EFI_INVALID_PARAMETER, "HTTP boot: not an http(s) URL: %.64s", ret->loc);
	if (!memcmp(addr, none, ip ? 4 : 16))
		return log_error_status(EFI_NO_MAPPING, "%s: no IPv%c address (no DHCP lease)", ret->loc,
					ip ? '4' : '6');
	if (BS->LocateDevicePath(&http_sb_guid, &rest, &nic) != EFI_SUCCESS ||
	    BS->HandleProtocol(nic, &http_sb_guid, (void **)&ret->http) != EFI_SUCCESS)
		return log_error_status(EFI_NOT_FOUND, "%s: the firmware has no HTTP client on this network card",
					ret->loc);
	if (ip)
		ret->local.v4 = (EFI_HTTPv4_ACCESS_POINT){ .LocalAddress = ip->LocalIpAddress,
							   .LocalSubnet = ip->SubnetMask };
	else
		ret->local.v6.LocalAddress = ip6->LocalIpAddress;
	ret->ipv6 = !ip;
	ret->root_len = net_root_len(ret->loc);
	return EFI_SUCCESS;
}
