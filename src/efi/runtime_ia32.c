/* The 64-bit division helpers clang calls on i686-unknown-windows (the
 * Microsoft C runtime's names and convention: both operands on the stack,
 * the callee pops them, the result in edx:eax). The firmware build has no C
 * runtime, so they are written here with 32-bit divides only. The host unit
 * tests build this file too (the same arithmetic, without the convention)
 * and compare it with the host's own division. */
#include "core/platform.h"

#if defined(__i386__)
#define HELPER __attribute__((stdcall, used))
#else
#define HELPER __attribute__((used))
#endif

/* n / d and n % d for d < 2^32: two 32-bit divisions (the high word, then
 * the remainder with the low word), the schoolbook way. */
static uint64_t div_by_u32(uint64_t n, uint32_t d, uint32_t *ret_rem)
{
	uint32_t hi = (uint32_t)(n >> 32), lo = (uint32_t)n, q_hi = hi / d, r = hi % d, q_lo;

	__asm__("divl %[d]" : "=a"(q_lo), "=d"(r) : [d] "rm"(d), "a"(lo), "d"(r));
	*ret_rem = r;
	return (uint64_t)q_hi << 32 | q_lo;
}

static uint64_t udivmod64(uint64_t n, uint64_t d, uint64_t *ret_rem)
{
	uint64_t q = 0, r = 0;
	uint32_t r32;

	if (d == 0)
		__builtin_trap();
	if (d >> 32 == 0) {
		q = div_by_u32(n, (uint32_t)d, &r32);
		*ret_rem = r32;
		return q;
	}
	/* d >= 2^32: the quotient has at most 32 bits; shift and subtract. */
	for (int i = 63; i >= 0; i--) {
		r = r << 1 | ((n >> i) & 1);
		if (r >= d) {
			r -= d;
			q |= 1ull << i;
		}
	}
	*ret_rem = r;
	return q;
}

uint64_t HELPER aulldiv(uint64_t n, uint64_t d) __asm__("__aulldiv");
uint64_t HELPER aullrem(uint64_t n, uint64_t d) __asm__("__aullrem");
int64_t HELPER alldiv(int64_t n, int64_t d) __asm__("__alldiv");
int64_t HELPER allrem(int64_t n, int64_t d) __asm__("__allrem");

uint64_t HELPER aulldiv(uint64_t n, uint64_t d)
{
	uint64_t r;

	return udivmod64(n, d, &r);
}

uint64_t HELPER aullrem(uint64_t n, uint64_t d)
{
	uint64_t r;

	udivmod64(n, d, &r);
	return r;
}

static uint64_t magnitude(int64_t v)
{
	return v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
}

/* C rounds toward zero: the quotient is negative when the signs differ,
 * the remainder takes the dividend's sign. */
int64_t HELPER alldiv(int64_t n, int64_t d)
{
	uint64_t r, q = udivmod64(magnitude(n), magnitude(d), &r);

	return (int64_t)((n < 0) != (d < 0) ? 0 - q : q);
}

int64_t HELPER allrem(int64_t n, int64_t d)
{
	uint64_t r;

	udivmod64(magnitude(n), magnitude(d), &r);
	return (int64_t)(n < 0 ? 0 - r : r);
}
