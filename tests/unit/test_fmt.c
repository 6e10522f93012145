/* fmt_vsnprintf() against libc's snprintf for the conversions handoff uses. */
#include "test.h"
#include "core/fmt.h"
#include "core/log.h"
#include <stdlib.h>

#define CHECK_FMT(...)                                                     \
	do {                                                               \
		char _got[128], _want[128];                                \
		size_t _n = fmt_snprintf(_got, sizeof(_got), __VA_ARGS__); \
		int _m = snprintf(_want, sizeof(_want), __VA_ARGS__);      \
		CHECK_STR(_got, _want);                                    \
		CHECK_EQ(_n, _m);                                          \
	} while (0)

TEST(fmt_integers)
{
	CHECK_FMT("%d %i %u", -42, 17, 4000000000u);
	CHECK_FMT("%x %X %#x %#o %o", 0xbeef, 0xbeef, 0x1f1, 8, 0);
	CHECK_FMT("%08x|%-6d|%6d|%+d|% d", 0x2d0, 5, -5, 3, 3);
	CHECK_FMT("%llu %lld %llx", 18446744073709551615ull, -9223372036854775807ll - 1, 0xffffffffffull);
	CHECK_FMT("%zu %lu %hhu %hu", (size_t)123456789, 77ul, (unsigned char)44, (unsigned short)7000);
	CHECK_FMT("%.4d %5.3d %#x", 7, 7, 0);
}

TEST(fmt_strings_and_chars)
{
	CHECK_FMT("[%s] [%10s] [%-10s] [%.3s] [%.*s]", "abc", "abc", "abc", "abcdef", 2, "xyz");
	CHECK_FMT("%c%c%% %5c", 'o', 'k', 'z');
	CHECK_FMT("%p", (void *)0x1234);
}

TEST(fmt_truncation)
{
	char buf[8];
	size_t n = fmt_snprintf(buf, sizeof(buf), "%s", "0123456789");

	CHECK_EQ(n, 10);
	CHECK_STR(buf, "0123456");
	n = fmt_snprintf(NULL, 0, "%d", 12345);
	CHECK_EQ(n, 5);
}

TEST(fmt_precision_does_not_read_past)
{
	char *unterminated = malloc(3);
	char buf[8];

	memcpy(unterminated, "abc", 3); /* ASan catches a read of byte 3 */
	fmt_snprintf(buf, sizeof(buf), "%.*s", 3, unterminated);
	CHECK_STR(buf, "abc");
	free(unterminated);
}

/* %m names the status, as systemd's %m names errno (issue 15). */
TEST(fmt_status_directive)
{
	char buf[64];

	fmt_snprintf(buf, sizeof(buf), "%d%%", 5);
	CHECK_STR(buf, "5%");
	CHECK(log_error_status(EFI_NOT_FOUND, "%s: cannot open: %m", "/vmlinuz") == EFI_NOT_FOUND);
	CHECK_LOG("/vmlinuz: cannot open: EFI_NOT_FOUND");
	log_status(LOG_WARNING, EFI_ACCESS_DENIED, "refused (%m), %s", "so it goes");
	CHECK_LOG("refused (EFI_ACCESS_DENIED), so it goes");
}

/* The network's codes are named too: "no connection: EFI error" told a new
 * user nothing (issue 35); unknown codes stay "EFI error". */
TEST(status_names_network_codes)
{
	CHECK_STR(efi_status_str(EFI_CONNECTION_REFUSED), "EFI_CONNECTION_REFUSED");
	CHECK_STR(efi_status_str(EFI_NETWORK_UNREACHABLE), "EFI_NETWORK_UNREACHABLE");
	CHECK_STR(efi_status_str(EFI_HTTP_ERROR), "EFI_HTTP_ERROR");
	CHECK_STR(efi_status_str(EFI_TFTP_ERROR), "EFI_TFTP_ERROR");
	CHECK_STR(efi_status_str(EFIERR(99)), "EFI error");
	CHECK_STR(efi_status_str(EFIERR(107)), "EFI error");
	CHECK_STR(efi_status_str(EFIERR(29)), "EFI error");
	CHECK_STR(efi_status_str(EFIWARN(106)), "EFI warning");
}
