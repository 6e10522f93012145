/* The boot file and TFTP server of a DHCP answer (src/core/dhcp.c): option 67
 * over the BOOTP file field, the overload flag, siaddr over option 54,
 * options that run past the message, and names with control characters. */
#include "test.h"
#include "core/dhcp.h"

static size_t packet(uint8_t *p, const char *file, const uint8_t siaddr[4], const uint8_t *opts, size_t n_opts)
{
	static const uint8_t magic[4] = { 99, 130, 83, 99 };

	memset(p, 0, 1472);
	p[0] = 2; /* BOOTREPLY */
	if (siaddr)
		memcpy(p + 20, siaddr, 4);
	if (file)
		memcpy(p + 108, file, strlen(file));
	memcpy(p + 236, magic, 4);
	memcpy(p + 240, opts, n_opts);
	return 240 + n_opts;
}

static const uint8_t slirp_server[4] = { 10, 0, 2, 2 };

TEST(dhcp_file_field_and_siaddr)
{
	uint8_t p[1472];
	static const uint8_t opts[] = { 53, 1, 5, 255 };
	struct dhcp_boot b;

	CHECK(dhcp_boot_parse(p, packet(p, "EFI/BOOT/BOOTX64.EFI", slirp_server, opts, sizeof(opts)), &b));
	CHECK_STR(b.file, "EFI/BOOT/BOOTX64.EFI");
	CHECK_MEM(b.server, slirp_server, 4);
}

TEST(dhcp_option67_and_server_id)
{
	uint8_t p[1472];
	static const uint8_t opts[] = { 0, 0, 54, 4, 192, 168, 1, 1, 67, 9, 'p', 'x', 'e', '/', 'b', '.', 'e', 'f', 'i',
					255 };
	static const uint8_t want[4] = { 192, 168, 1, 1 };
	struct dhcp_boot b;

	CHECK(dhcp_boot_parse(p, packet(p, "ignored.efi", NULL, opts, sizeof(opts)), &b));
	CHECK_STR(b.file, "pxe/b.efi");
	CHECK_MEM(b.server, want, 4);
}

TEST(dhcp_overloaded_file_field_is_not_a_name)
{
	uint8_t p[1472];
	static const uint8_t opts[] = { 52, 1, 1, 255 };
	struct dhcp_boot b;

	CHECK(!dhcp_boot_parse(p, packet(p, "\x43\x03\x61\x62\x63", slirp_server, opts, sizeof(opts)), &b));
	CHECK_STR(b.file, "");
}

TEST(dhcp_malformed)
{
	uint8_t p[1472];
	static const uint8_t runs_past[] = { 67, 200, 'x' };
	static const uint8_t no_end[] = { 1, 4, 255, 255, 255, 0 };
	struct dhcp_boot b;

	/* option 67 says 200 bytes and the message ends: the file field is used instead */
	CHECK(dhcp_boot_parse(p, packet(p, "f.efi", slirp_server, runs_past, sizeof(runs_past)), &b));
	CHECK_STR(b.file, "f.efi");
	CHECK(!dhcp_boot_parse(p, packet(p, "f.efi", NULL, no_end, sizeof(no_end)), &b)); /* no server */
	CHECK(!dhcp_boot_parse(p, 235, &b));                                                /* too short */
	CHECK(!dhcp_boot_parse(p, packet(p, NULL, slirp_server, no_end, sizeof(no_end)), &b)); /* no file */
	memset(p + 108, 'a', 128);                                                           /* unterminated */
	CHECK(dhcp_boot_parse(p, 240, &b));
	CHECK_EQ(strlen(b.file), 128);
}

/* A control character in the boot file would reach TFTP requests, messages
 * and LoaderDeviceURL: the answer is not taken (issue 31). */
TEST(dhcp_control_characters_refused)
{
	uint8_t p[1472];
	static const uint8_t opts[] = { 53, 1, 5, 255 };
	static const uint8_t escape67[] = { 67, 8, 'a', 0x1b, '[', '2', 'J', '.', 'e', 'f', 255 };
	static const char *const bad[] = { "EFI/BOOT/BOOTX64.EFI\r\nX: y", "a\tb.efi", "a\x7f.efi", "\x1b[2J" };
	struct dhcp_boot b;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		CHECK(!dhcp_boot_parse(p, packet(p, bad[i], slirp_server, opts, sizeof(opts)), &b));
	CHECK(!dhcp_boot_parse(p, packet(p, "good.efi", slirp_server, escape67, sizeof(escape67)), &b));
	/* a space or a byte beyond ASCII is a name (percent-encoded in LoaderDeviceURL) */
	CHECK(dhcp_boot_parse(p, packet(p, "my boot/caf\xc3\xa9.efi", slirp_server, opts, sizeof(opts)), &b));
	CHECK_STR(b.file, "my boot/caf\xc3\xa9.efi");
}
