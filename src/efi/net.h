/* Network boot (README "Network boot"): when handoff was started by UEFI HTTP
 * Boot or PXE, the server it came from is its boot volume. net_volume.c finds
 * the server, net_fs.c presents its tree as a read-only EFI_FILE_PROTOCOL
 * (so entries, kernels and initrds are read as from a disk), net_http.c and
 * net_tftp.c fetch whole files through the firmware's clients, and
 * net_progress.c shows long downloads and bounds silent ones. */
#ifndef EFI_NET_H
#define EFI_NET_H

#include "firmware.h"
#include <efi/proto/http.h>
#include <efi/proto/pxe_base_code.h>
#include <efi/proto/service_binding.h>

#define NET_FILE_MAX (2ull << 30) /* as file_read_all(): no kernel, UKI or initrd part is near */

/* The server and how to reach it. */
struct net_source {
	char *loc;                          /* the loader's URL, or its TFTP boot file */
	char show[24];                      /* TFTP: "tftp://SERVER/", put before file names in messages */
	size_t root_len;                    /* the tree's root: net_root_len(loc) */
	EFI_SERVICE_BINDING_PROTOCOL *http; /* HTTP: the NIC's HTTP service binding */
	union {                             /* HTTP: this machine's address, from the IPv4() or IPv6() node */
		EFI_HTTPv4_ACCESS_POINT v4;
		EFI_HTTPv6_ACCESS_POINT v6;
	} local;
	bool ipv6;                          /* HTTP: local.v6 holds it */
	EFI_PXE_BASE_CODE_PROTOCOL *pxe;    /* TFTP: the base code that started handoff */
	EFI_HANDLE pxe_handle;              /* TFTP: its handle (the callback goes there, §24.4) */
	EFI_IP_ADDRESS server;              /* TFTP: the server that sent the boot file */
	uint8_t mac[6];                     /* entries.list's "host" lines: the MAC() node of the card */
	bool mac_known;
};

/* One download: shown on the console once it takes a second, refused once
 * nothing arrives for NET_STALL_SEC by the firmware's clock (net_progress.c). */
#define NET_STALL_SEC 15u
/* The firmware's watchdog meanwhile: twice edk2's longest wait inside one call
 * (a TCP connect, 60 s), so only a call that never returns trips it. */
#define NET_WATCHDOG_SEC 120u
struct net_progress {
	const char *url;
	uint64_t done, total;
	EFI_EVENT timer;                    /* periodic, one second: the progress line */
	EFI_EVENT deadline;                 /* NET_STALL_SEC after the start, or after bytes last came */
	bool shown;                         /* a progress line was printed */
};
void net_progress_start(struct net_progress *p, const char *url, uint64_t total);
/** net_progress_add() - @n more bytes arrived. */
void net_progress_add(struct net_progress *p, uint64_t n);
/** net_progress_stalled() - show the progress each second; true once nothing came for NET_STALL_SEC. */
bool net_progress_stalled(struct net_progress *p);
void net_progress_end(struct net_progress *p);

/**
 * net_http_source() - the source for a handle HTTP Boot started handoff from
 * (its device path @dp ends in IPv4()/.../Uri() or IPv6()/.../Uri());
 * @ret->loc is the loader's URL.
 * Return: EFI_UNSUPPORTED (quietly) when @dp has no Uri() node, else
 * EFI_SUCCESS or another status, logged.
 */
EFI_STATUS net_http_source(const EFI_DEVICE_PATH_PROTOCOL *dp, struct net_source *ret);
/** net_tftp_source() - the same for a PXE boot: the PXE base code on @device and its DHCP answer. */
EFI_STATUS net_tftp_source(EFI_HANDLE device, struct net_source *ret);

/**
 * net_http_get(), net_tftp_get() - the whole file at @url (for TFTP the path
 * on the server; @name names it in messages) into a new buffer of at most
 * NET_FILE_MAX bytes. Errors are logged naming @name, except that a file the
 * server does not have gives EFI_NOT_FOUND quietly when @quiet_missing.
 */
EFI_STATUS net_http_get(const struct net_source *src, const char *url, bool quiet_missing, uint8_t **ret,
			uint64_t *ret_size);
EFI_STATUS net_tftp_get(const struct net_source *src, const char *path, const char *name, bool quiet_missing,
			uint8_t **ret, uint64_t *ret_size);

/** net_buffer() - a buffer for a file of @size bytes (below NET_FILE_MAX), or NULL, logged naming @name. */
uint8_t *net_buffer(const char *name, uint64_t size);

#define NET_BUFFER_FIRST (256u << 10) /* net_buffer_grow()'s first size */
/**
 * net_buffer_grow() - the buffer *@buf of *@size bytes (none yet: 0),
 * replaced by one twice as large (NET_BUFFER_FIRST at first, below
 * NET_FILE_MAX: at most 1 GiB) holding its first @used bytes; for a file
 * of unknown size.
 * Return: true; false when it cannot grow (logged naming @name, *@buf kept).
 */
bool net_buffer_grow(const char *name, uint8_t **buf, size_t *size, size_t used);

/**
 * net_fs_mount() - the server's tree as a read-only root directory: reads
 * loader/entries.list (its entries are the tree's directory listing, its
 * pins checked on every file fetched) and loader/loader.conf (optional
 * unless pinned). Takes @src. *@ret_lost becomes true once a line of
 * entries.list cannot be read or a file it lists or pins cannot be had.
 * Return: EFI_SUCCESS, or EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS net_fs_mount(struct net_source *src, EFI_FILE_PROTOCOL **ret_root, const bool **ret_lost);

/**
 * net_fs_forget() - drop the file @root's volume kept from its last close
 * (or knows to be missing), so that the next open fetches it anew: after a
 * failed boot, the server may have been put right. Nothing for a root that
 * is not a network boot's.
 */
void net_fs_forget(EFI_FILE_PROTOCOL *root);

/**
 * net_mem_file() - @size bytes at @data, named @path (both taken, freed when
 * it is closed), as a read-only file: a UKI net_uri_fetch() brought.
 * Return: the file, or NULL when out of memory (@data and @path freed).
 */
EFI_FILE_PROTOCOL *net_mem_file(char *path, uint8_t *data, uint64_t size);

/**
 * net_uri_fetch() - the file at @url (a Type #1 "uki-url"), fetched whole by
 * the firmware's HTTP Boot, from a disk boot too (net_uri.c).
 * Return: EFI_SUCCESS with *@ret (mem_alloc'd) and *@ret_size, or why not (logged, naming @url).
 */
EFI_STATUS net_uri_fetch(const char *url, uint8_t **ret, uint64_t *ret_size);

#endif
