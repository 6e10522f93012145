/* Host implementation of src/core/platform.h and log_write(): libc malloc,
 * and log lines to stderr or to a sink the unit tests install. */
#include "core/log.h"
#include "core/platform_host.h"
#include <stdio.h>
#include <stdlib.h>

static log_sink_fn sink;
static void *sink_ctx;
#ifdef FUZZING
static const enum log_level max_level = (enum log_level)-1; /* quiet: speed */
#else
static const enum log_level max_level = LOG_INFO;
#endif

void *mem_alloc(size_t size)
{
	return malloc(size ? size : 1);
}

void mem_free(void *p)
{
	free(p);
}

void log_set_sink(log_sink_fn fn, void *ctx)
{
	sink = fn;
	sink_ctx = ctx;
}

void log_write(enum log_level level, const char *line)
{
	static const char *const prefix[] = { "error: ", "warning: ", "", "debug: " };

	if (sink) {
		sink(sink_ctx, level, line);
		return;
	}
	if ((int)level > (int)max_level)
		return;
	fprintf(stderr, "%s%s\n", prefix[level], line);
}
