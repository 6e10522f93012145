/* A fake network for the host tests of src/efi/net_*.c: boot services with
 * timer events on a simulated clock (BS, which those files call), and a PXE
 * base code whose Mtftp() serves a table of files, calling the callback
 * protocol the loader installed as a firmware would: for each DATA packet,
 * and while it waits for one (UEFI 2.10 §24.4, PacketLen 0). */
#ifndef FAKE_NET_H
#define FAKE_NET_H

#include <efi/efi.h>
#include <efi/proto/pxe_base_code.h>

#define FAKE_SECOND 10000000ull /* 100 ns units, as SetTimer */

struct fake_file {
	const char *path;   /* below the tree's root */
	const char *data;   /* NULL: missing (HTTP 404, TFTP error 1) */
	int requests;
};

/* How the TFTP server sends a file after its first @good_blocks blocks. */
enum fake_tftp_mode {
	FAKE_TFTP_GOOD,         /* every block, one a second */
	FAKE_TFTP_SILENT,       /* nothing: the base code waits (calling back each second) */
	FAKE_TFTP_REPEAT,       /* the last block again, each second */
	FAKE_TFTP_BLOCKED,      /* nothing for 20 s without a callback, then one wait callback */
	FAKE_TFTP_HUNG,         /* the base code never returns: an hour without a callback, then EFI_TIMEOUT */
};

struct fake_net {
	uint64_t now;                       /* the simulated clock */
	struct fake_file *files;
	size_t n_files;
	EFI_PXE_BASE_CODE_PROTOCOL pxe;
	EFI_PXE_BASE_CODE_MODE mode;
	enum fake_tftp_mode tftp_mode;
	unsigned good_blocks;
	unsigned block_size;                /* bytes of DATA per packet (default 4) */
	unsigned callbacks, aborted_at;     /* callbacks made; seconds into the read when one aborted */
	int n_events;                       /* events open (CreateEvent - CloseEvent) */
	uint64_t watchdog;                  /* when the watchdog fires (the clock), 0: off */
	unsigned watchdog_sets;             /* SetWatchdogTimer() calls that armed it */
	unsigned reset_at;                  /* seconds into a read when the watchdog fired, 0: never */
};

/**
 * fake_net_init() - a fresh network serving @files, BS pointing at its boot
 * services, the clock at 0.
 */
void fake_net_init(struct fake_net *net, struct fake_file *files, size_t n);

#endif
