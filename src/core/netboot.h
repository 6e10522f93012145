/* Network boot, the pure part (README "Network boot"): where the tree of
 * files lies on the server the loader came from, how a loader path becomes
 * a URL, and the HTTP facts the loader reads from a response. The firmware's
 * HTTP and TFTP clients are driven by src/efi/net_*.c. */
#ifndef CORE_NETBOOT_H
#define CORE_NETBOOT_H

#include "platform.h"
#include <efi/efi.h>
#include <efi/proto/http.h>

/* Longest path or URL handled; a longer one is refused, not truncated. */
#define NET_URL_MAX 4096u

/**
 * net_root_len() - where the tree's root ends in @loc, the loader's own URL
 * ("http://srv/fleet/EFI/BOOT/BOOTX64.EFI") or, for TFTP, the boot file's
 * path ("EFI/BOOT/BOOTX64.EFI"): before the last "EFI/" component of the
 * path (any case), else after the path's last '/'. The query and fragment
 * do not count.
 * Return: the root's length in @loc ("http://srv/fleet/": 17; 0 for a TFTP
 * boot file at the top; the whole URL when it has no path after the host).
 */
size_t net_root_len(const char *loc);

/**
 * net_path_normalize() - a loader path ("\\loader\\entries\\a.conf",
 * "/debian//vmlinuz", "./x") as a path below the tree's root: '/' separated,
 * no leading '/', no empty or "." components.
 * Return: EFI_SUCCESS and a new string in *@ret (possibly "", the root);
 * EFI_INVALID_PARAMETER (not logged) for a ".." component, a control
 * character or a path of NET_URL_MAX bytes or more; EFI_OUT_OF_RESOURCES.
 */
EFI_STATUS net_path_normalize(const char *path, char **ret);

/**
 * net_url_join() - @root (net_root_len() bytes of the loader's location)
 * followed by the normalized @path, with a '/' between them when @root
 * lacks one; for a URL (@encode) the path is percent-encoded (RFC 3986 §2.1:
 * all but unreserved characters and '/'), a TFTP file name stays as it is.
 * Return: a new string, or NULL when out of memory or NET_URL_MAX long.
 */
char *net_url_join(const char *root, size_t root_len, const char *path, bool encode);

/**
 * net_url_authority() - the "host[:port]" part of @url (after "scheme://",
 * up to the path), for the Host header (RFC 9112 §3.2).
 * Return: its length, *@ret_start its start; 0 when @url has none.
 */
size_t net_url_authority(const char *url, const char **ret_start);

/** net_url_chars() - @url holds no control character, space or byte beyond ASCII (RFC 3986 §2). */
bool net_url_chars(const char *url);
/** net_url_is_https() - @url starts with "https://" (any case). */
bool net_url_is_https(const char *url);
/** net_url_is_http() - @url is "http://" or "https://" (any case) with a host, and net_url_chars(). */
bool net_url_is_http(const char *url);

/**
 * http_status_number() - the status code on the wire (404) for the UEFI
 * EFI_HTTP_STATUS_CODE index the firmware reports (UEFI 2.10 §29.6).
 * Return: the number, or 0 for HTTP_STATUS_UNSUPPORTED_STATUS and unknown indices.
 */
unsigned http_status_number(uint32_t efi_code);

/**
 * http_content_length() - a Content-Length field value (RFC 9110 §8.6):
 * decimal digits, surrounding blanks allowed.
 * Return: false when it is not that or does not fit 64 bits.
 */
bool http_content_length(const char *value, uint64_t *ret);

/**
 * http_body_length() - how an answer's body is framed, from its @n headers
 * @h (RFC 9112 §6.3): one Content-Length with a valid value, or one
 * Transfer-Encoding that is exactly "chunked" (§7, any case; the firmware
 * drops the blanks before a value) and no Content-Length. Two
 * Content-Length fields, even equal ones, are refused: the firmware's HTTP
 * client may frame the body by the other one; so are both fields at once
 * (request smuggling, §6.3) and any other coding or list of codings.
 * Return: NULL with *@ret_chunked, and the length in *@ret unless chunked;
 * or what is wrong ("more than one Content-Length") for the message "the
 * answer has ...".
 */
const char *http_body_length(const EFI_HTTP_HEADER *h, size_t n, uint64_t *ret, bool *ret_chunked);

/** ascii_strcaseeq() - @a and @b are equal, ASCII letters compared case-insensitively. */
bool ascii_strcaseeq(const char *a, const char *b);
/**
 * ascii_caseeqn() - the @n bytes at @a and @b are equal, ASCII letters in any
 * case (both hold @n bytes, or differ before the shorter one ends).
 */
bool ascii_caseeqn(const char *a, const char *b, size_t n);

#endif
