/* src/efi/runtime_ia32.c: the 64-bit division helpers of the IA-32 build,
 * against the host's own 64-bit division, on operands that take each path
 * (divisor below and above 2^32, either sign, quotients near the limits). */
#include "test.h"
#include <stdint.h>

uint64_t aulldiv(uint64_t n, uint64_t d) __asm__("__aulldiv");
uint64_t aullrem(uint64_t n, uint64_t d) __asm__("__aullrem");
int64_t alldiv(int64_t n, int64_t d) __asm__("__alldiv");
int64_t allrem(int64_t n, int64_t d) __asm__("__allrem");

TEST(ia32_runtime_unsigned_division)
{
	static const uint64_t n[] = { 0, 1, 9, 10, 0xffffffffull, 0x100000000ull, 0x123456789abcdefull,
				      0xfedcba9876543210ull, UINT64_MAX };
	static const uint64_t d[] = { 1, 3, 10, 1000, 0xffffffffull, 0x100000000ull, 0x100000001ull,
				      0x123456789ull, 0x8000000000000000ull, UINT64_MAX };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		for (size_t j = 0; j < sizeof(d) / sizeof(d[0]); j++) {
			if (aulldiv(n[i], d[j]) != n[i] / d[j] || aullrem(n[i], d[j]) != n[i] % d[j])
				test_fail(__FILE__, __LINE__, "%#llx / %#llx", (unsigned long long)n[i],
					  (unsigned long long)d[j]);
		}
}

TEST(ia32_runtime_signed_division)
{
	static const int64_t n[] = { 0, 7, -7, 1000000007, -1000000007, INT64_MAX, INT64_MIN + 1, -0x123456789abcll };
	static const int64_t d[] = { 1, -1, 2, -2, 10, -10, 0x100000000ll, -0x100000001ll, INT64_MAX, INT64_MIN };

	for (size_t i = 0; i < sizeof(n) / sizeof(n[0]); i++)
		for (size_t j = 0; j < sizeof(d) / sizeof(d[0]); j++) {
			if (alldiv(n[i], d[j]) != n[i] / d[j] || allrem(n[i], d[j]) != n[i] % d[j])
				test_fail(__FILE__, __LINE__, "%lld / %lld", (long long)n[i], (long long)d[j]);
		}
	CHECK_EQ(alldiv(INT64_MIN, 1), INT64_MIN);
	CHECK_EQ(allrem(INT64_MIN, 10), INT64_MIN % 10);
}
