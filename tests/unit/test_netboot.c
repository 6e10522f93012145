/* Network boot paths and URLs (src/core/netboot.c): the tree's root from the
 * loader's URL or TFTP boot file, normalized paths (no way above the root),
 * percent-encoded URLs, the Host header's authority, the HTTP status map and
 * Content-Length. */
#include "test.h"
#include "core/netboot.h"
#include <efi/proto/http.h>
#include <stdlib.h>

static void check_root(const char *loc, const char *want)
{
	size_t n = net_root_len(loc);

	if (n != strlen(want) || memcmp(loc, want, n) != 0)
		test_fail(__FILE__, __LINE__, "root of %s: \"%.*s\", want \"%s\"", loc, (int)n, loc, want);
}

TEST(net_root_efi_or_directory)
{
	check_root("http://10.0.2.100/EFI/BOOT/BOOTX64.EFI", "http://10.0.2.100/");
	check_root("http://srv/fleet/a/efi/boot/bootx64.efi", "http://srv/fleet/a/");
	check_root("https://srv:8443/x/EFI/handoff/handoffx64.efi?t=1", "https://srv:8443/x/");
	check_root("http://srv/x/EFI/a/y/EFI/BOOT/B.EFI", "http://srv/x/EFI/a/y/"); /* the last EFI/ */
	check_root("http://srv/boot/handoff.efi", "http://srv/boot/");
	check_root("http://srv/handoff.efi", "http://srv/");
	check_root("http://srv/EFIX/handoff.efi", "http://srv/EFIX/");                /* a component, not a prefix */
	check_root("http://srv/a/b.efi?next=/EFI/x", "http://srv/a/");               /* not in the query */
	check_root("http://srv", "http://srv");
	check_root("http://EFI/x.efi", "http://EFI/");                                /* the host is not the path */
	check_root("EFI/BOOT/BOOTX64.EFI", "");
	check_root("/tftpboot/EFI/BOOT/BOOTX64.EFI", "/tftpboot/");
	check_root("pxe/handoff.efi", "pxe/");
	check_root("handoff.efi", "");
	/* an IPv6 host (RFC 3986 §3.2.2: bracketed, its ':' not a port's) */
	check_root("http://[fd35::1]/EFI/BOOT/BOOTX64.EFI", "http://[fd35::1]/");
	check_root("http://[fd35::1]:8080/boot/handoff.efi", "http://[fd35::1]:8080/boot/");
	check_root("http://[fd35::1]", "http://[fd35::1]");
}

static void check_norm(const char *in, const char *want)
{
	char *out = NULL;
	EFI_STATUS err = net_path_normalize(in, &out);

	if (!want) {
		if (err != EFI_INVALID_PARAMETER)
			test_fail(__FILE__, __LINE__, "%s: accepted as \"%s\"", in, out ? out : "");
	} else if (err != EFI_SUCCESS || strcmp(out, want) != 0) {
		test_fail(__FILE__, __LINE__, "%s: \"%s\", want \"%s\"", in, out ? out : "(error)", want);
	}
	free(out);
}

TEST(net_path_normalize_stays_below_the_root)
{
	check_norm("\\loader\\loader.conf", "loader/loader.conf");
	check_norm("/debian//6.1/./vmlinuz", "debian/6.1/vmlinuz");
	check_norm("loader/entries.list", "loader/entries.list");
	check_norm("/", "");
	check_norm("", "");
	check_norm("a/../../etc/passwd", NULL);
	check_norm("..", NULL);
	check_norm("\\..\\x", NULL);
	check_norm("a/..b/c", "a/..b/c");   /* only a whole ".." component goes up */
	check_norm("a/.../c", "a/.../c");
	check_norm("a\nb", NULL);
	check_norm("a\x7f", NULL);
	check_norm("caf\xc3\xa9 x/y", "caf\xc3\xa9 x/y");
	char *huge = malloc(NET_URL_MAX + 1);
	memset(huge, 'a', NET_URL_MAX);
	huge[NET_URL_MAX] = 0;
	check_norm(huge, NULL);
	huge[NET_URL_MAX - 1] = 0;
	check_norm(huge, huge);
	free(huge);
}

TEST(net_url_join_encodes)
{
	const char *root = "http://srv/fleet/EFI/BOOT/BOOTX64.EFI";
	char *u;

	u = net_url_join(root, net_root_len(root), "loader/entries.list", true);
	CHECK_STR(u, "http://srv/fleet/loader/entries.list");
	free(u);
	u = net_url_join(root, net_root_len(root), "a b/c%d?e#f+g/caf\xc3\xa9~_.-", true);
	CHECK_STR(u, "http://srv/fleet/a%20b/c%25d%3Fe%23f%2Bg/caf%C3%A9~_.-");
	free(u);
	u = net_url_join("http://srv", 10, "x", true);
	CHECK_STR(u, "http://srv/x");
	free(u);
	u = net_url_join("EFI/BOOT/BOOTX64.EFI", 0, "loader/loader.conf", false);
	CHECK_STR(u, "loader/loader.conf");
	free(u);
	u = net_url_join("/tftpboot/EFI/BOOT/BOOTX64.EFI", 10, "a b/caf\xc3\xa9", false); /* TFTP: no encoding */
	CHECK_STR(u, "/tftpboot/a b/caf\xc3\xa9");
	free(u);
	char *huge = malloc(NET_URL_MAX);
	memset(huge, ' ', NET_URL_MAX / 3);
	huge[NET_URL_MAX / 3] = 0;
	CHECK(net_url_join("http://srv/", 11, huge, true) == NULL); /* 3 bytes each: too long */
	free(huge);
}

TEST(net_url_authority_and_scheme)
{
	const char *s = NULL;
	size_t n = net_url_authority("https://boot.example:8443/EFI/x", &s);

	CHECK_EQ(n, strlen("boot.example:8443"));
	CHECK(s && memcmp(s, "boot.example:8443", n) == 0);
	n = net_url_authority("http://10.0.2.100", &s);
	CHECK_EQ(n, strlen("10.0.2.100"));
	CHECK_EQ(net_url_authority("EFI/BOOT/BOOTX64.EFI", &s), 0);
	CHECK(net_url_is_https("HTTPS://x/"));
	CHECK(!net_url_is_https("http://x/"));
	CHECK(!net_url_is_https("https:"));
	CHECK(net_url_is_http("http://10.0.2.100/EFI/BOOT/BOOTX64.EFI"));
	CHECK(net_url_is_http("HTTPS://h"));
	CHECK(!net_url_is_http("http:///x"));
	CHECK(!net_url_is_http("ftp://h/x"));
	CHECK(!net_url_is_http("EFI/BOOT/BOOTX64.EFI"));
	/* what a URL cannot hold unescaped never reaches LoaderDeviceURL (RFC 3986 §2) */
	CHECK(net_url_is_http("http://h/a%20b?x=1#f"));
	CHECK(!net_url_is_http("http://h/a\x1b[2Jb"));
	CHECK(!net_url_is_http("http://h/a\nb"));
	CHECK(!net_url_is_http("http://h/a b"));
	CHECK(!net_url_is_http("http://h/a\x7f"));
	CHECK(!net_url_is_http("http://h/caf\xc3\xa9"));
}

/* HTTP Boot over IPv6: the loader's URL has a bracketed host; the Host
 * header is the authority as written (RFC 9112 §3.2), brackets and all. */
TEST(net_url_ipv6_host)
{
	static const char loc[] = "http://[fd35::1]/EFI/BOOT/BOOTX64.EFI";
	const char *s = NULL;
	size_t n = net_url_authority(loc, &s);
	char *u;

	CHECK(net_url_is_http(loc));
	CHECK(s == loc + 7);
	CHECK_EQ(n, strlen("[fd35::1]"));
	n = net_url_authority("https://[FD35:0:0:0::1]:8443/x?y", &s);
	CHECK_EQ(n, strlen("[FD35:0:0:0::1]:8443"));
	CHECK(memcmp(s, "[FD35:0:0:0::1]:8443", n) == 0);
	n = net_url_authority("http://[::1]", &s);
	CHECK_EQ(n, strlen("[::1]"));
	u = net_url_join(loc, net_root_len(loc), "loader/entries.list", true);
	CHECK_STR(u, "http://[fd35::1]/loader/entries.list");
	free(u);
	u = net_url_join("http://[fd35::1]:8080/boot/x.efi", net_root_len("http://[fd35::1]:8080/boot/x.efi"),
			 "debian/vmlinuz", true);
	CHECK_STR(u, "http://[fd35::1]:8080/boot/debian/vmlinuz");
	free(u);
}

TEST(http_status_numbers)
{
	CHECK_EQ(http_status_number(HTTP_STATUS_UNSUPPORTED_STATUS), 0);
	CHECK_EQ(http_status_number(HTTP_STATUS_100_CONTINUE), 100);
	CHECK_EQ(http_status_number(HTTP_STATUS_101_SWITCHING_PROTOCOLS), 101);
	CHECK_EQ(http_status_number(HTTP_STATUS_200_OK), 200);
	CHECK_EQ(http_status_number(HTTP_STATUS_206_PARTIAL_CONTENT), 206);
	CHECK_EQ(http_status_number(HTTP_STATUS_300_MULTIPLE_CHOICES), 300);
	CHECK_EQ(http_status_number(HTTP_STATUS_305_USE_PROXY), 305);
	CHECK_EQ(http_status_number(HTTP_STATUS_307_TEMPORARY_REDIRECT), 307);
	CHECK_EQ(http_status_number(HTTP_STATUS_400_BAD_REQUEST), 400);
	CHECK_EQ(http_status_number(HTTP_STATUS_403_FORBIDDEN), 403);
	CHECK_EQ(http_status_number(HTTP_STATUS_404_NOT_FOUND), 404);
	CHECK_EQ(http_status_number(HTTP_STATUS_417_EXPECTATION_FAILED), 417);
	CHECK_EQ(http_status_number(HTTP_STATUS_500_INTERNAL_SERVER_ERROR), 500);
	CHECK_EQ(http_status_number(HTTP_STATUS_505_HTTP_VERSION_NOT_SUPPORTED), 505);
	CHECK_EQ(http_status_number(HTTP_STATUS_308_PERMANENT_REDIRECT), 308);
	CHECK_EQ(http_status_number(42), 0);
	CHECK_EQ(http_status_number(0xffffffffu), 0);
}

TEST(http_content_length_values)
{
	uint64_t v = 7;

	CHECK(http_content_length("0", &v) && v == 0);
	CHECK(http_content_length(" 8388608\t", &v) && v == 8388608);
	CHECK(http_content_length("18446744073709551615", &v) && v == UINT64_MAX);
	v = 7;
	CHECK(!http_content_length("18446744073709551616", &v) && v == 7);
	CHECK(!http_content_length("", &v));
	CHECK(!http_content_length(" ", &v));
	CHECK(!http_content_length("-1", &v));
	CHECK(!http_content_length("+1", &v));
	CHECK(!http_content_length("12 34", &v));
	CHECK(!http_content_length("0x10", &v));
	CHECK(!http_content_length("10, 10", &v)); /* RFC 9110 §8.6: a list is a recipient's problem; refused */
	CHECK(ascii_strcaseeq("Content-Length", "content-length"));
	CHECK(!ascii_strcaseeq("Content-Length", "content-lengths"));
}

/* An answer's framing (RFC 9112 §6.3): exactly one valid Content-Length and
 * no Transfer-Encoding; the review's "Content-Length: 1x" then a valid one
 * hung the firmware's client, which framed the body by the first. */
TEST(http_body_length_framing)
{
#define H(name, value) { (CHAR8 *)(name), (CHAR8 *)(value) }
	EFI_HTTP_HEADER one[] = { H("Content-Type", "x"), H("content-length", " 42 "), H("Server", "s") };
	EFI_HTTP_HEADER two[] = { H("Content-Length", "1x"), H("Content-Length", "42") };
	EFI_HTTP_HEADER equal[] = { H("Content-Length", "42"), H("CONTENT-LENGTH", "42") };
	EFI_HTTP_HEADER bad[] = { H("Content-Length", "1x") };
	EFI_HTTP_HEADER list[] = { H("Content-Length", "42, 42") };
	EFI_HTTP_HEADER none[] = { H("Content-Type", "x"), H("Content-Lengths", "42"), H(NULL, "1"), H("x", NULL) };
#undef H
	uint64_t v = 7;
	bool chunked = true;

	CHECK(http_body_length(one, ARRAY_SIZE(one), &v, &chunked) == NULL);
	CHECK_EQ(v, 42);
	CHECK(!chunked);
	v = 7;
	CHECK_STR(http_body_length(two, ARRAY_SIZE(two), &v, &chunked), "more than one Content-Length");
	CHECK_STR(http_body_length(equal, ARRAY_SIZE(equal), &v, &chunked), "more than one Content-Length");
	CHECK_STR(http_body_length(bad, ARRAY_SIZE(bad), &v, &chunked), "an invalid Content-Length");
	CHECK_STR(http_body_length(list, ARRAY_SIZE(list), &v, &chunked), "an invalid Content-Length");
	CHECK_STR(http_body_length(none, ARRAY_SIZE(none), &v, &chunked), "no Content-Length");
	CHECK_STR(http_body_length(NULL, 0, &v, &chunked), "no Content-Length");
	CHECK_EQ(v, 7);
}

/* Transfer-Encoding (RFC 9112 §6.1, §7): exactly the token "chunked" in any
 * case (the firmware drops the blanks before it) and no Content-Length
 * (both: §6.3, request smuggling); any other coding, a list, a second field
 * (a list too) or a blank after it is refused. */
TEST(http_body_length_chunked)
{
#define H(name, value) { (CHAR8 *)(name), (CHAR8 *)(value) }
#define TE(value) { H("Server", "s"), H("transfer-encoding", value) }
	static const char *const taken[] = { "chunked", "CHUNKED", "Chunked" };
	static const char *const other[] = { "gzip", "gzip, chunked", "chunked, chunked", "chunked;q=1", "chunked ",
					     "chunk", "chunkedx", "", " ", "identity", "chunked,", "x chunked" };
	EFI_HTTP_HEADER both[] = { H("Transfer-Encoding", "chunked"), H("Content-Length", "42") };
	EFI_HTTP_HEADER after[] = { H("Content-Length", "42"), H("Transfer-Encoding", "chunked") };
	EFI_HTTP_HEADER twice[] = { H("Transfer-Encoding", "gzip"), H("Transfer-Encoding", "chunked") };
	EFI_HTTP_HEADER same[] = { H("Transfer-Encoding", "chunked"), H("TRANSFER-ENCODING", "chunked") };
	uint64_t v = 7;
	bool chunked;

	for (size_t i = 0; i < ARRAY_SIZE(taken); i++) {
		EFI_HTTP_HEADER h[] = TE(taken[i]);

		chunked = false;
		CHECK(http_body_length(h, ARRAY_SIZE(h), &v, &chunked) == NULL);
		CHECK(chunked);
	}
	for (size_t i = 0; i < ARRAY_SIZE(other); i++) {
		EFI_HTTP_HEADER h[] = TE(other[i]);

		CHECK_STR(http_body_length(h, ARRAY_SIZE(h), &v, &chunked), "a Transfer-Encoding other than chunked");
	}
	CHECK_STR(http_body_length(both, ARRAY_SIZE(both), &v, &chunked), "a Transfer-Encoding and a Content-Length");
	CHECK_STR(http_body_length(after, ARRAY_SIZE(after), &v, &chunked),
		  "a Transfer-Encoding and a Content-Length");
	CHECK_STR(http_body_length(twice, ARRAY_SIZE(twice), &v, &chunked), "a Transfer-Encoding other than chunked");
	CHECK_STR(http_body_length(same, ARRAY_SIZE(same), &v, &chunked), "a Transfer-Encoding other than chunked");
	CHECK_EQ(v, 7);
#undef TE
#undef H
}
