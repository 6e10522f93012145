/* The boot file and server of a DHCP answer (dhcp.h). The message is bytes
 * from the network, kept by the firmware: every option is checked against
 * the message's end before it is read, and a boot file name holding a
 * control character is refused: it reaches TFTP requests and messages (and,
 * percent-encoded, the Boot Loader Interface's LoaderDeviceURL). */
#include "dhcp.h"

/* RFC 2131 §2 field offsets and RFC 2132 option tags. */
#define BOOTP_SIADDR 20
#define BOOTP_FILE 108
#define BOOTP_FILE_SIZE 128
#define DHCP_MAGIC_OFFSET 236
#define DHCP_OPTIONS 240
#define OPT_PAD 0
#define OPT_OVERLOAD 52
#define OPT_SERVER_ID 54
#define OPT_BOOTFILE 67
#define OPT_END 255
#define OVERLOAD_FILE 1u   /* option 52: the "file" field holds options */

static const uint8_t dhcp_magic[4] = { 99, 130, 83, 99 };

/* The value of option @tag among the options in [@p, @end), and its length. */
static const uint8_t *find_option(const uint8_t *p, const uint8_t *end, uint8_t tag, size_t *ret_len)
{
	while (p < end && *p != OPT_END) {
		if (*p == OPT_PAD) {
			p++;
			continue;
		}
		if (end - p < 2 || end - p - 2 < p[1])
			return NULL; /* an option running past the message */
		if (*p == tag) {
			*ret_len = p[1];
			return p + 2;
		}
		p += 2 + p[1];
	}
	return NULL;
}

/* Copy @n bytes of text up to the first NUL; false when it is empty. */
static bool copy_name(char *dst, const uint8_t *src, size_t n)
{
	size_t i = 0;

	for (; i < n && i < DHCP_FILE_MAX && src[i]; i++)
		dst[i] = (char)src[i];
	dst[i] = 0;
	return i > 0;
}

/* RFC 20: the control characters, DEL among them. */
static bool has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

bool dhcp_boot_parse(const uint8_t *pkt, size_t len, struct dhcp_boot *ret)
{
	const uint8_t *opts = pkt + DHCP_OPTIONS, *end = pkt + len, *v;
	bool dhcp = len >= DHCP_OPTIONS && memcmp(pkt + DHCP_MAGIC_OFFSET, dhcp_magic, sizeof(dhcp_magic)) == 0;
	bool file_overloaded = false, named = false;
	size_t n = 0;

	*ret = (struct dhcp_boot){ 0 };
	if (len < BOOTP_FILE + BOOTP_FILE_SIZE)
		return false;
	if (dhcp && (v = find_option(opts, end, OPT_OVERLOAD, &n)) && n >= 1)
		file_overloaded = v[0] & OVERLOAD_FILE;
	if (dhcp && (v = find_option(opts, end, OPT_BOOTFILE, &n)))
		named = copy_name(ret->file, v, n);
	if (!named && !file_overloaded)
		named = copy_name(ret->file, pkt + BOOTP_FILE, BOOTP_FILE_SIZE);
	memcpy(ret->server, pkt + BOOTP_SIADDR, sizeof(ret->server));
	if (!memcmp(ret->server, "\0\0\0\0", 4) && dhcp && (v = find_option(opts, end, OPT_SERVER_ID, &n)) && n == 4)
		memcpy(ret->server, v, 4);
	return named && !has_control(ret->file) && memcmp(ret->server, "\0\0\0\0", 4) != 0;
}
