/* The platform hooks src/core needs (platform.h, log.h), for the payload:
 * no allocator (the checks never allocate), log lines to COM1. */
#include "probe.h"
#include "core/log.h"

void *mem_alloc(size_t size)
{
	(void)size;
	return NULL;
}

void mem_free(void *p)
{
	(void)p;
}

void log_write(enum log_level level, const char *line)
{
	(void)level;
	serial_puts("probe: ");
	serial_puts(line);
	serial_puts("\r\n");
}
