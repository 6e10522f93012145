/* Host-only hooks of the platform layer (src/tool/platform_host.c). */
#ifndef CORE_PLATFORM_HOST_H
#define CORE_PLATFORM_HOST_H

#include "log.h"

typedef void (*log_sink_fn)(void *ctx, enum log_level level, const char *line);

/** log_set_sink() - send log lines to @fn instead of stderr (NULL restores stderr). */
void log_set_sink(log_sink_fn fn, void *ctx);

#endif
