/* The example server configurations `handoff install --netboot` writes
 * beside a network boot tree, where neither server hands them out (README
 * "Network boot"): TREE.nginx.conf, a site for Debian's nginx serving the
 * tree, and TREE.dnsmasq.conf, DHCP for UEFI HTTP Boot (RFC 4578 client
 * architectures 16 and 15; the answer names the vendor class HTTPClient,
 * UEFI 2.10 §24.7) and for PXE (7 and 6) with dnsmasq's own TFTP server. */
#include "tool.h"
#include <arpa/inet.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NETCONF_SERVER_DEFAULT "192.168.10.1"
#define NETCONF_LEASE "12h"

static const char nginx_head[] =
	"# nginx: the network boot tree %s over HTTP, written by handoff install\n"
	"# --netboot (README \"Network boot\"). Debian: copy it to\n"
	"# /etc/nginx/sites-available/handoff, link it from /etc/nginx/sites-enabled/,\n"
	"# systemctl reload nginx. It listens on the server's own address: nginx gives a\n"
	"# connection to the server blocks of the most specific address first, so Debian's\n"
	"# default site (listen 80 default_server, every address) does not answer the\n"
	"# machines' requests with its own 404.\n";

static const char dnsmasq_head[] =
	"# dnsmasq: DHCP for UEFI network boot from %s, written by handoff install\n"
	"# --netboot (README \"Network boot\"). Debian: copy it to\n"
	"# /etc/dnsmasq.d/handoff.conf, systemctl restart dnsmasq.\n";

/* Which loaders the tree has: RFC 4578 §2.1 client architecture, the tags'
 * suffix, the removable-media file name (UEFI 2.10 §3.5.1.1). */
static const struct netconf_arch {
	unsigned http, pxe;
	const char *bits, *file;
} netconf_arches[] = { { 16, 7, "64", "BOOTX64.EFI" }, { 15, 6, "32", "BOOTIA32.EFI" } };

/* A path both configurations take as one word: no blank, quote, ';', '#',
 * '{', '}', '$' (nginx) nor ',' (dnsmasq). */
static bool netconf_path_ok(const char *path)
{
	for (const char *s = path; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("/._-+@:=%~", *s)))
			return false;
	return true;
}

static bool netconf_ipv4(const char *s, uint32_t *ret)
{
	struct in_addr a;

	if (inet_pton(AF_INET, s, &a) != 1)
		return false;
	*ret = ntohl(a.s_addr);
	return true;
}

static char *netconf_ipv4_str(uint32_t a)
{
	return xasprintf("%u.%u.%u.%u", a >> 24, (a >> 16) & 255, (a >> 8) & 255, a & 255);
}

int netconf_parse(const char *server, const char *range, struct netconf *ret)
{
	uint32_t srv, first, last;
	const char *comma = range ? strchr(range, ',') : NULL;
	char *first_s = comma ? xasprintf("%.*s", (int)(comma - range), range) : NULL;
	bool ok = comma && netconf_ipv4(first_s, &first) && netconf_ipv4(comma + 1, &last) && first <= last;

	free(first_s);
	if (server && !netconf_ipv4(server, &srv))
		return tool_usage("--server '%s': expected the server's IPv4 address, as 192.168.10.1", server);
	if (range && !ok)
		return tool_usage("--dhcp-range '%s': expected FIRST,LAST (IPv4 addresses, FIRST not after LAST)",
				  range);
	if (!server)
		netconf_ipv4(NETCONF_SERVER_DEFAULT, &srv);
	if (!range) { /* .100 to .200 of the server's /24 */
		first = (srv & ~255u) | 100;
		last = (srv & ~255u) | 200;
	}
	if (srv >= first && srv <= last)
		return tool_usage("--dhcp-range: the server's address %s is in the range: give another one",
				  server ? server : NETCONF_SERVER_DEFAULT);
	ret->given = server || range;
	ret->server = netconf_ipv4_str(srv);
	ret->first = netconf_ipv4_str(first);
	ret->last = netconf_ipv4_str(last);
	return 0;
}

void netconf_free(struct netconf *c)
{
	free(c->server);
	free(c->first);
	free(c->last);
	c->server = c->first = c->last = NULL;
}

static void netconf_nginx(struct strbuf *sb, const char *tree, const struct netconf *c)
{
	sb_printf(sb, nginx_head, tree);
	sb_printf(sb, "server {\n\tlisten %s:80;\n\troot %s;\n}\n", c->server, tree);
}

/* The tree holds the loader for @a's firmware. */
static bool netconf_has(const char *tree, const struct netconf_arch *a)
{
	char *path = xasprintf("%s/EFI/BOOT/%s", tree, a->file);
	bool has = is_file(path);

	free(path);
	return has;
}

static void netconf_dnsmasq(struct strbuf *sb, const char *tree, const struct netconf *c)
{
	const struct netconf_arch *a;

	sb_printf(sb, dnsmasq_head, tree);
	sb_printf(sb, "dhcp-range=%s,%s,%s\n", c->first, c->last, NETCONF_LEASE);
	sb_puts(sb, "# UEFI HTTP Boot (client architecture 16: x64, 15: IA-32): the firmware takes\n"
		    "# only an answer naming the vendor class HTTPClient; it carries the loader's URL\n");
	for (a = netconf_arches; a < netconf_arches + 2; a++)
		if (netconf_has(tree, a))
			sb_printf(sb, "dhcp-match=set:http%s,option:client-arch,%u\n"
				      "dhcp-option-force=tag:http%s,60,HTTPClient\n"
				      "dhcp-boot=tag:http%s,http://%s/EFI/BOOT/%s\n",
				  a->bits, a->http, a->bits, a->bits, c->server, a->file);
	sb_printf(sb, "# PXE (7: x64, 6: IA-32): the loader by dnsmasq's own TFTP server\n"
		      "enable-tftp\ntftp-root=%s\n", tree);
	for (a = netconf_arches; a < netconf_arches + 2; a++)
		if (netconf_has(tree, a))
			sb_printf(sb, "dhcp-match=set:pxe%s,option:client-arch,%u\ndhcp-boot=tag:pxe%s,EFI/BOOT/%s\n",
				  a->bits, a->pxe, a->bits, a->file);
}

/* @path gets @text when missing, or when the options were given and it differs. */
static int netconf_put(const char *path, const struct strbuf *text, bool given)
{
	bool exists = is_file(path);
	int r;

	if (exists && !given)
		return 0;
	r = install_file(path, sb_str(text), text->len, 0644);
	if (r > 0)
		printf("%s %s\n", exists ? "updated" : "created", path);
	return r < 0 ? -1 : 0;
}

int netconf_write(const char *tree, const struct netconf *c)
{
	char real[PATH_MAX], *nginx = NULL, *dnsmasq = NULL;
	struct strbuf a = { 0 }, b = { 0 };
	bool missing;
	int r = 0;

	if (!realpath(tree, real)) {
		tool_fail("%s: cannot resolve the tree's path", tree);
		return -1;
	}
	if (strcmp(real, "/") == 0 || !netconf_path_ok(real)) {
		tool_note("%s: no nginx and dnsmasq examples beside it (%s)", real,
			  strcmp(real, "/") == 0 ? "the root has no parent" : "a blank or sign they would need quoted");
		return 0;
	}
	nginx = xasprintf("%s.nginx.conf", real);
	dnsmasq = xasprintf("%s.dnsmasq.conf", real);
	missing = !is_file(nginx) || !is_file(dnsmasq);
	netconf_nginx(&a, real, c);
	netconf_dnsmasq(&b, real, c);
	if (netconf_put(nginx, &a, c->given) < 0 || netconf_put(dnsmasq, &b, c->given) < 0)
		r = -1;
	else if (missing && !c->given)
		tool_note("the examples name the server %s: --server ADDR (the address the machines reach) "
			  "and --dhcp-range FIRST,LAST write them anew", c->server);
	sb_free(&a);
	sb_free(&b);
	free(nginx);
	free(dnsmasq);
	return r;
}
