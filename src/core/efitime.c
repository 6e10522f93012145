/* Days since 1970-01-01 to a proleptic Gregorian date, by whole 400-year
 * eras (146097 days each) so that every step is exact integer arithmetic. */
#include "efitime.h"

#define SECONDS_PER_DAY 86400
#define DAYS_PER_ERA 146097
#define MIN_UNIX (-2208988800LL)   /* 1900-01-01 */
#define MAX_UNIX (253402300799LL)  /* 9999-12-31 23:59:59 */

static int64_t floor_div(int64_t a, int64_t b)
{
	return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

void efi_time_from_unix(int64_t s, uint32_t nsec, EFI_TIME *t)
{
	int64_t days, secs, z, era, doe, yoe, doy, mp, year;

	s = s < MIN_UNIX ? MIN_UNIX : s > MAX_UNIX ? MAX_UNIX : s;
	days = floor_div(s, SECONDS_PER_DAY);
	secs = s - days * SECONDS_PER_DAY;
	/* Shift the epoch to 0000-03-01 so leap days fall at the end of a year. */
	z = days + 719468;
	era = floor_div(z, DAYS_PER_ERA);
	doe = z - era * DAYS_PER_ERA;
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	year = yoe + era * 400 + (mp >= 10);
	*t = (EFI_TIME){
		.Year = (uint16_t)year,
		.Month = (uint8_t)(mp < 10 ? mp + 3 : mp - 9),
		.Day = (uint8_t)(doy - (153 * mp + 2) / 5 + 1),
		.Hour = (uint8_t)(secs / 3600),
		.Minute = (uint8_t)(secs / 60 % 60),
		.Second = (uint8_t)(secs % 60),
		.Nanosecond = nsec < 1000000000u ? nsec : 0,
		.TimeZone = EFI_UNSPECIFIED_TIMEZONE_VALUE,
	};
}
