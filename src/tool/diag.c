/* Diagnostics of the host tool. Core and tool report through the same
 * log_write() sink, so a failure found deep in src/core and one found by the
 * tool both come out once, as "handoff: CMD: what: field: why". */
#include "tool.h"
#include "core/fmt.h"
#include "core/platform_host.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tool is one process running one command: the command name and the
 * active capture are per-process state by nature. */
static const char *diag_cmd = "handoff";
static struct diag_capture *diag_active;
static bool diag_debug;

static void diag_print(enum log_level level, const char *line)
{
	if (level == LOG_DEBUG && !diag_debug)
		return;
	fprintf(stderr, "handoff: %s%s%s%s\n", diag_cmd ? diag_cmd : "", diag_cmd ? ": " : "",
		level == LOG_WARNING ? "warning: " : level == LOG_DEBUG ? "debug: " : "", line);
}

static void diag_sink(void *ctx, enum log_level level, const char *line)
{
	struct diag_capture *c = diag_active;

	(void)ctx;
	if (!c) {
		diag_print(level, line);
		return;
	}
	if (level == LOG_DEBUG)
		return;
	c->lines = xrealloc(c->lines, (c->n + 1) * sizeof(*c->lines));
	c->levels = xrealloc(c->levels, (c->n + 1) * sizeof(*c->levels));
	c->lines[c->n] = xstrdup(line);
	c->levels[c->n] = level;
	c->n++;
}

void diag_init(const char *cmd)
{
	const char *env = getenv("HANDOFF_LOG");

	diag_cmd = cmd;
	diag_debug = env && strcmp(env, "debug") == 0;
	log_set_sink(diag_sink, NULL);
}

static int diag_vfail(enum log_level level, const char *fmt, va_list ap)
{
	char line[1024];

	vsnprintf(line, sizeof(line), fmt, ap);
	diag_sink(NULL, level, line);
	return EXIT_FAIL;
}

int tool_fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vfail(LOG_ERROR, fmt, ap);
	va_end(ap);
	return EXIT_FAIL;
}

void tool_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	diag_vfail(LOG_INFO, fmt, ap);
	va_end(ap);
}

int tool_usage(const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	diag_print(LOG_ERROR, line);
	fprintf(stderr, "Try 'handoff %s --help'.\n", diag_cmd ? diag_cmd : "");
	return EXIT_USAGE;
}

void diag_capture_begin(struct diag_capture *c)
{
	memset(c, 0, sizeof(*c));
	c->prev = diag_active;
	diag_active = c;
}

void diag_capture_end(struct diag_capture *c)
{
	diag_active = c->prev;
}

void diag_capture_replay(const struct diag_capture *c, enum log_level max_level)
{
	for (size_t i = 0; i < c->n; i++)
		diag_sink(NULL, c->levels[i] < max_level ? max_level : c->levels[i], c->lines[i]);
}

void diag_capture_free(struct diag_capture *c)
{
	for (size_t i = 0; i < c->n; i++)
		free(c->lines[i]);
	free(c->lines);
	free(c->levels);
	c->lines = NULL;
	c->levels = NULL;
	c->n = 0;
}
