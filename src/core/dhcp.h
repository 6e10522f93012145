/* What a PXE boot's DHCP answer says about the boot file (RFC 2131 §2, the
 * BOOTP fields; RFC 2132 §9.3 option overload, §9.5 bootfile name, §9.7
 * server identifier): the file the firmware fetched and the TFTP server it
 * came from, so that the loader fetches the rest from there. */
#ifndef CORE_DHCP_H
#define CORE_DHCP_H

#include "platform.h"

#define DHCP_FILE_MAX 255u  /* option 67 holds at most 255 bytes */

struct dhcp_boot {
	uint8_t server[4];           /* siaddr, else option 54 (the DHCP server) */
	char file[DHCP_FILE_MAX + 1];
};

/**
 * dhcp_boot_parse() - the boot file (option 67, else the "file" field unless
 * option 52 overloads it) and the TFTP server of the DHCP/BOOTP message
 * @pkt (@len bytes). Options are read only inside @len.
 * Return: true when the message names a server, and a boot file without
 * control characters.
 */
bool dhcp_boot_parse(const uint8_t *pkt, size_t len, struct dhcp_boot *ret);

#endif
