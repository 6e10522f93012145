/* HTTP redirects (src/core/http_redirect.c): Location values resolved
 * against the URL asked for (RFC 3986 §5.2, its §5.4 examples where they
 * apply), taken only to the same scheme, host and port, with the exact URL
 * or the exact reason. */
#include "test.h"
#include "core/http_redirect.h"
#include "core/netboot.h"
#include <stdlib.h>

#define BASE "http://a/b/c/d;p?q"

/* @ref against @base gives @url (NULL: none) and @why (NULL: taken). */
static void check_at(int line, const char *base, const char *ref, const char *url, const char *why)
{
	char *got = (char *)1;
	const char *w = http_url_resolve(base, ref, &got);

	if ((w == NULL) != (why == NULL) || (w && strcmp(w, why) != 0))
		test_fail(__FILE__, line, "%.80s against %s: refused \"%s\", want \"%s\"", ref, base, w ? w : "(taken)",
			  why ? why : "(taken)");
	if ((got == NULL) != (url == NULL) || (got && strcmp(got, url) != 0))
		test_fail(__FILE__, line, "%.80s against %s: \"%.80s\", want \"%.80s\"", ref, base,
			  got ? got : "(none)", url ? url : "(none)");
	free(got);
}
#define check(base, ref, url, why) check_at(__LINE__, base, ref, url, why)

TEST(http_redirect_statuses)
{
	static const unsigned followed[] = { 301, 302, 303, 307, 308 };
	static const unsigned not[] = { 0, 200, 300, 304, 305, 306, 309, 404 };

	for (size_t i = 0; i < ARRAY_SIZE(followed); i++)
		CHECK(http_is_redirect(followed[i]));
	for (size_t i = 0; i < ARRAY_SIZE(not); i++)
		CHECK(!http_is_redirect(not[i]));
}

/* RFC 3986 §5.4.1 and §5.4.2, where the result is an http URL on host "a" */
TEST(http_url_resolve_rfc3986_examples)
{
	check(BASE, "g", "http://a/b/c/g", NULL);
	check(BASE, "./g", "http://a/b/c/g", NULL);
	check(BASE, "g/", "http://a/b/c/g/", NULL);
	check(BASE, "/g", "http://a/g", NULL);
	check(BASE, "?y", "http://a/b/c/d;p?y", NULL);
	check(BASE, "g?y", "http://a/b/c/g?y", NULL);
	check(BASE, "#s", "http://a/b/c/d;p?q", NULL);
	check(BASE, "g#s", "http://a/b/c/g", NULL);
	check(BASE, "g?y#s", "http://a/b/c/g?y", NULL);
	check(BASE, ";x", "http://a/b/c/;x", NULL);
	check(BASE, "g;x?y#s", "http://a/b/c/g;x?y", NULL);
	check(BASE, ".", "http://a/b/c/", NULL);
	check(BASE, "./", "http://a/b/c/", NULL);
	check(BASE, "..", "http://a/b/", NULL);
	check(BASE, "../", "http://a/b/", NULL);
	check(BASE, "../g", "http://a/b/g", NULL);
	check(BASE, "../..", "http://a/", NULL);
	check(BASE, "../../g", "http://a/g", NULL);
	check(BASE, "../../../g", "http://a/g", NULL);
	check(BASE, "../../../../g", "http://a/g", NULL);
	check(BASE, "/./g", "http://a/g", NULL);
	check(BASE, "/../g", "http://a/g", NULL);
	check(BASE, "g.", "http://a/b/c/g.", NULL);
	check(BASE, ".g", "http://a/b/c/.g", NULL);
	check(BASE, "g..", "http://a/b/c/g..", NULL);
	check(BASE, "..g", "http://a/b/c/..g", NULL);
	check(BASE, "./../g", "http://a/b/g", NULL);
	check(BASE, "./g/.", "http://a/b/c/g/", NULL);
	check(BASE, "g/./h", "http://a/b/c/g/h", NULL);
	check(BASE, "g/../h", "http://a/b/c/h", NULL);
	check(BASE, "g;x=1/./y", "http://a/b/c/g;x=1/y", NULL);
	check(BASE, "g;x=1/../y", "http://a/b/c/y", NULL);
	check(BASE, "g?y/./x", "http://a/b/c/g?y/./x", NULL);
	check(BASE, "g#s/../x", "http://a/b/c/g", NULL);
	check(BASE, "//a/g", "http://a/g", NULL);
	check(BASE, "//g", "http://g", "another host or port");
	check(BASE, "http:g", NULL, "an invalid Location"); /* strict §5.2.2; no host for http */
}

TEST(http_url_resolve_same_origin_only)
{
	const char *url = "http://10.0.2.100/r/kernel";

	check(url, "http://10.0.2.100/debian/vmlinuz", "http://10.0.2.100/debian/vmlinuz", NULL);
	check(url, "HTTP://10.0.2.100:80/x", "HTTP://10.0.2.100:80/x", NULL);     /* the default port, any case */
	check("http://Srv:8080/a", "http://sRV:8080/b", "http://sRV:8080/b", NULL);
	check("http://srv:/a", "/b", "http://srv:/b", NULL);
	check(url, "/debian/vmlinuz?v=2", "http://10.0.2.100/debian/vmlinuz?v=2", NULL);
	check(url, "vmlinuz", "http://10.0.2.100/r/vmlinuz", NULL);
	check(url, "../debian/./vmlinuz", "http://10.0.2.100/debian/vmlinuz", NULL);
	check("http://srv", "x", "http://srv/x", NULL);                         /* no path: the root's */
	check("https://srv/a/b", "/c", "https://srv/c", NULL);
	check("https://srv:443/a", "https://srv/c", "https://srv/c", NULL);
	/* refused, naming the URL it was sent to */
	check(url, "http://10.0.2.2/debian/vmlinuz", "http://10.0.2.2/debian/vmlinuz", "another host or port");
	check(url, "http://10.0.2.100:8080/x", "http://10.0.2.100:8080/x", "another host or port");
	check(url, "//evil/x", "http://evil/x", "another host or port");
	check(url, "http://user@10.0.2.100/x", "http://user@10.0.2.100/x", "another host or port");
	check("http://srv:8080/a", "/b", "http://srv:8080/b", NULL);
	check("http://srv:8080/a", "http://srv/b", "http://srv/b", "another host or port");
	check("https://srv/a", "http://srv/a", "http://srv/a", "another scheme");
	check("https://srv/a", "http://srv:443/a", "http://srv:443/a", "another scheme");
	check("http://srv/a", "https://srv/a", "https://srv/a", "another scheme");
	check("http://srv/a", "ftp://srv/a", "ftp://srv/a", "another scheme");
	check("https://srv/a", "https://srv:8443/a", "https://srv:8443/a", "another host or port");
}

/* An IPv6 host (RFC 3986 §3.2.2): the port is after the ']', the ':'s inside are the address's */
TEST(http_url_resolve_ipv6_host)
{
	const char *url = "http://[fd35::1]/EFI/BOOT/BOOTX64.EFI";

	check(url, "/loader/entries.list", "http://[fd35::1]/loader/entries.list", NULL);
	check(url, "../x", "http://[fd35::1]/EFI/x", NULL);
	check(url, "//[fd35::1]/y", "http://[fd35::1]/y", NULL);
	check(url, "http://[FD35::1]:80/y", "http://[FD35::1]:80/y", NULL); /* the default port, any case */
	check("http://[fd35::1]:/a", "http://[fd35::1]/b", "http://[fd35::1]/b", NULL);
	check("http://[fd35::1]:8080/a", "/b", "http://[fd35::1]:8080/b", NULL);
	check("https://[fd35::1]/a", "https://[fd35::1]:443/b", "https://[fd35::1]:443/b", NULL);
	check(url, "http://[fd35::2]/y", "http://[fd35::2]/y", "another host or port");
	check(url, "http://[fd35::1]:8080/y", "http://[fd35::1]:8080/y", "another host or port");
	check(url, "http://fd35::1/y", "http://fd35::1/y", "another host or port");
	check("http://[fd35::80]/a", "http://[fd35::]:80/b", "http://[fd35::]:80/b", "another host or port");
	check("http://[fd35::]:80/a", "http://[fd35::80]/b", "http://[fd35::80]/b", "another host or port");
	check("http://[fd35::1]:8080/a", "http://[fd35::1]/b", "http://[fd35::1]/b", "another host or port");
	check("https://[fd35::1]/a", "http://[fd35::1]/b", "http://[fd35::1]/b", "another scheme");
}

TEST(http_url_resolve_garbage_refused)
{
	char *huge = malloc(NET_URL_MAX + 1), want[NET_URL_MAX];
	const char *url = "http://srv/a/b";

	check(url, "", NULL, "an invalid Location");
	check(url, "http://", NULL, "an invalid Location");
	check(url, "http:///x", NULL, "an invalid Location");
	check(url, "//", NULL, "an invalid Location");
	check(url, "/a b", NULL, "an invalid Location");
	check(url, "/a\x1b[2J", NULL, "an invalid Location");
	check(url, "/caf\xc3\xa9", NULL, "an invalid Location");
	check(url, " /x", NULL, "an invalid Location");
	check(url, "mailto:x@srv", NULL, "an invalid Location");
	check("EFI/BOOT/BOOTX64.EFI", "/x", NULL, "an invalid Location"); /* not a URL to resolve against */
	memset(huge, 'a', NET_URL_MAX);
	huge[NET_URL_MAX] = 0;
	check(url, huge, NULL, "a Location too long");
	huge[NET_URL_MAX - 12] = 0; /* short enough alone, too long after "http://srv/a/" */
	memcpy(want, "http://srv/", 11);
	memset(want + 11, 'a', NET_URL_MAX - 12);
	want[NET_URL_MAX - 1] = 0;
	check(url, huge, NULL, "a Location too long");
	huge[0] = '/';
	huge[NET_URL_MAX - 12] = 'a';
	huge[NET_URL_MAX - 1 - strlen("http://srv")] = 0; /* "http://srv" + it: NET_URL_MAX - 1 bytes, taken */
	check_at(__LINE__, url, huge, want, NULL);
	free(huge);
}

TEST(http_redirect_one_location)
{
#define H(name, value) { (CHAR8 *)(name), (CHAR8 *)(value) }
	EFI_HTTP_HEADER one[] = { H("Content-Length", "0"), H("location", "/b"), H(NULL, "x") };
	EFI_HTTP_HEADER two[] = { H("Location", "/b"), H("LOCATION", "/b") };
	EFI_HTTP_HEADER none[] = { H("Content-Location", "/b"), H("Location", NULL) };
#undef H
	char *url = (char *)1;

	CHECK(http_redirect(one, ARRAY_SIZE(one), "http://srv/a", &url) == NULL);
	CHECK_STR(url, "http://srv/b");
	free(url);
	CHECK_STR(http_redirect(two, ARRAY_SIZE(two), "http://srv/a", &url), "more than one Location");
	CHECK(url == NULL);
	CHECK_STR(http_redirect(none, ARRAY_SIZE(none), "http://srv/a", &url), "no Location");
	CHECK(url == NULL);
	CHECK_STR(http_redirect(NULL, 0, "http://srv/a", &url), "no Location");
}
