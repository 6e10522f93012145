/* A small table-style test framework: TEST(name) registers a case, CHECK_*
 * record failures with file:line and the values compared; the runner prints
 * "N passed, N failed" last. Log lines are captured per test. */
#ifndef TEST_H
#define TEST_H

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void test_register(const char *name, const char *file, void (*fn)(void));
void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/** test_log_contains() - a captured log line of this test contains @needle. */
bool test_log_contains(const char *needle);
/** test_log_count() - number of captured log lines at LOG_ERROR/LOG_WARNING. */
int test_log_count(void);
void test_log_reset(void);
/** test_read_file() - whole file into a malloc'd buffer (NULL if unreadable). */
uint8_t *test_read_file(const char *path, size_t *ret_len);

#define TEST(name)                                                              \
	static void test_##name(void);                                          \
	__attribute__((constructor)) static void register_##name(void)          \
	{                                                                       \
		test_register(#name, __FILE__, test_##name);                   \
	}                                                                       \
	static void test_##name(void)

#define CHECK(cond)                                                             \
	do {                                                                    \
		if (!(cond))                                                    \
			test_fail(__FILE__, __LINE__, "%s", #cond);             \
	} while (0)

#define CHECK_EQ(a, b)                                                          \
	do {                                                                    \
		unsigned long long _a = (unsigned long long)(a);                \
		unsigned long long _b = (unsigned long long)(b);                \
		if (_a != _b)                                                   \
			test_fail(__FILE__, __LINE__, "%s == %s: %#llx != %#llx", #a, #b, _a, _b); \
	} while (0)

#define CHECK_STR(a, b)                                                         \
	do {                                                                    \
		const char *_a = (a), *_b = (b);                                \
		if (!_a || !_b || strcmp(_a, _b) != 0)                          \
			test_fail(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b, \
				  _a ? _a : "(null)", _b ? _b : "(null)");      \
	} while (0)

#define CHECK_MEM(a, b, n)                                                      \
	do {                                                                    \
		if (memcmp((a), (b), (n)) != 0)                                 \
			test_fail(__FILE__, __LINE__, "%s == %s (%zu bytes)", #a, #b, (size_t)(n)); \
	} while (0)

#define CHECK_LOG(needle)                                                       \
	do {                                                                    \
		if (!test_log_contains(needle))                                 \
			test_fail(__FILE__, __LINE__, "no log line contains \"%s\"", needle); \
	} while (0)

#endif
