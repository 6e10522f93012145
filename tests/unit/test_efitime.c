/* efi_time_from_unix() against dates computed independently (date -u -d @N). */
#include "test.h"
#include "core/efitime.h"

TEST(efitime_known_dates)
{
	static const struct { int64_t s; unsigned y, mo, d, h, mi, se; } t[] = {
		{ 0, 1970, 1, 1, 0, 0, 0 },
		{ 951782400, 2000, 2, 29, 0, 0, 0 },     /* leap day of a 400-year leap year */
		{ 4107456000, 2100, 2, 28, 0, 0, 0 },    /* 2100 is not a leap year */
		{ 4107542400, 2100, 3, 1, 0, 0, 0 },
		{ 1796256000 + 3723, 2026, 12, 3, 1, 2, 3 },
		{ -1, 1969, 12, 31, 23, 59, 59 },
		{ -2208988800LL, 1900, 1, 1, 0, 0, 0 },
		{ -9000000000LL, 1900, 1, 1, 0, 0, 0 },  /* clamped */
		{ 253402300799LL, 9999, 12, 31, 23, 59, 59 },
	};
	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		EFI_TIME e;
		efi_time_from_unix(t[i].s, 5, &e);
		if (e.Year != t[i].y || e.Month != t[i].mo || e.Day != t[i].d || e.Hour != t[i].h ||
		    e.Minute != t[i].mi || e.Second != t[i].se)
			test_fail(__FILE__, __LINE__, "%lld -> %u-%u-%u %u:%u:%u", (long long)t[i].s, e.Year, e.Month,
				  e.Day, e.Hour, e.Minute, e.Second);
		CHECK_EQ(e.Nanosecond, 5);
		CHECK_EQ(e.TimeZone, EFI_UNSPECIFIED_TIMEZONE_VALUE);
	}
}
