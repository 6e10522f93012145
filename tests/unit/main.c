/* Unit test runner: runs every TEST() (or those whose name contains argv[1]),
 * captures log lines per test, prints one line per failure and the summary. */
#include "test.h"
#include "core/platform_host.h"
#include <stdarg.h>
#include <stdlib.h>

#define MAX_TESTS 2048
#define MAX_LOG_LINES 256

struct test_case {
	const char *name, *file;
	void (*fn)(void);
};

static struct test_case tests[MAX_TESTS];
static size_t n_tests;
static int current_failures;
static char *log_lines[MAX_LOG_LINES];
static int log_levels[MAX_LOG_LINES];
static size_t n_log_lines;
static bool verbose;

void test_register(const char *name, const char *file, void (*fn)(void))
{
	if (n_tests == MAX_TESTS) {
		fprintf(stderr, "too many tests\n");
		exit(2);
	}
	tests[n_tests++] = (struct test_case){ name, file, fn };
}

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stdout, "    %s:%d: ", file, line);
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fputc('\n', stdout);
	current_failures++;
}

static void capture(void *ctx, enum log_level level, const char *line)
{
	(void)ctx;
	if (verbose)
		fprintf(stdout, "    log[%d]: %s\n", level, line);
	if (n_log_lines < MAX_LOG_LINES) {
		log_levels[n_log_lines] = level;
		log_lines[n_log_lines++] = strdup(line);
	}
}

void test_log_reset(void)
{
	for (size_t i = 0; i < n_log_lines; i++)
		free(log_lines[i]);
	n_log_lines = 0;
}

bool test_log_contains(const char *needle)
{
	for (size_t i = 0; i < n_log_lines; i++)
		if (strstr(log_lines[i], needle))
			return true;
	return false;
}

int test_log_count(void)
{
	int n = 0;
	for (size_t i = 0; i < n_log_lines; i++)
		n += log_levels[i] <= LOG_WARNING;
	return n;
}

uint8_t *test_read_file(const char *path, size_t *ret_len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*ret_len = (size_t)n;
	}
	fclose(f);
	return buf;
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	int passed = 0, failed = 0;

	/* line by line: LeakSanitizer ends the process without flushing stdout,
	 * and the FAIL lines and the summary must survive that */
	setvbuf(stdout, NULL, _IOLBF, 0);
	verbose = getenv("TEST_VERBOSE") != NULL;
	log_set_sink(capture, NULL);
	for (size_t i = 0; i < n_tests; i++) {
		if (filter && !strstr(tests[i].name, filter) && !strstr(tests[i].file, filter))
			continue;
		current_failures = 0;
		test_log_reset();
		tests[i].fn();
		if (current_failures) {
			printf("FAIL %s (%s)\n", tests[i].name, tests[i].file);
			failed++;
		} else {
			if (verbose)
				printf("PASS %s\n", tests[i].name);
			passed++;
		}
	}
	test_log_reset();
	printf("%d passed, %d failed\n", passed, failed);
	return failed || passed == 0 ? 1 : 0; /* a filter that matches nothing is no pass */
}
